// The Web Crypto verifier in a real browser: hr-service-contract/webhooks bundled by esbuild for the
// browser platform (a Node built-in anywhere in its graph fails the bundle), loaded into Debian's
// Chromium from a page on 127.0.0.1, and run there on the OpenSSL known-answer vectors.
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVENT_ID_HEADER, EVENT_TYPE_HEADER, SIGNATURE_HEADER } from "../../src/webhooks/index.js";
import { sign } from "../../src/webhooks/node/index.js";
import { BROWSER_WAIT_MS, bundleForBrowser, connectChromium, modulePage, openContext, serveStatic, type StaticSite } from "../support/browser.js";
import vectorFile from "./signature-vectors.json" with { type: "json" };

const repo = fileURLToPath(new URL("../../", import.meta.url));

// The page exposes the entry's exports; the cases below run inside the page with them.
const PAGE_ENTRY = `
import * as webhooks from "./src/webhooks/index.ts";
window.webhooks = webhooks;
`;

type Webhooks = typeof import("../../src/webhooks/index.js");
declare global {
  interface Window {
    webhooks: Webhooks;
  }
}

let browser: Browser;
let site: StaticSite;
let page: Page;

beforeAll(async () => {
  const script = await bundleForBrowser(PAGE_ENTRY, repo);
  site = await serveStatic(modulePage("loading", script));
  browser = await connectChromium();
  page = await (await openContext(browser)).newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(`${site.url}/`);
  await page.waitForFunction(() => "webhooks" in window, null, { timeout: BROWSER_WAIT_MS }).catch(() => {
    throw new Error(`the page never loaded the webhooks bundle: ${errors.join("; ") || "no page error"}`);
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

describe("hr-service-contract/webhooks in Chromium", () => {
  it("runs where there is no Node: no process, no Buffer, Web Crypto present", async () => {
    const globals = await page.evaluate(() => ({
      process: typeof (globalThis as { process?: unknown }).process,
      Buffer: typeof (globalThis as { Buffer?: unknown }).Buffer,
      subtle: typeof crypto.subtle,
      secureContext: isSecureContext,
    }));
    expect(globals, "the page's globals").toEqual({ process: "undefined", Buffer: "undefined", subtle: "object", secureContext: true });
  });

  it("verifyAsync gives every known-answer vector its outcome, and computeSignatureAsync its digest", async () => {
    const vectors = vectorFile.vectors;
    const got = await page.evaluate(async (list) => {
      const { verifyAsync, computeSignatureAsync, WebhookSignatureError } = window.webhooks;
      const rows: Array<[string, string, string | null]> = [];
      for (const v of list) {
        let outcome = "ok";
        try {
          await verifyAsync(new TextEncoder().encode(v.body), v.header, v.secret, { now: v.now });
        } catch (error) {
          outcome = error instanceof WebhookSignatureError ? error.reason : `not a WebhookSignatureError: ${String(error)}`;
        }
        rows.push([v.name, outcome, v.digest ? await computeSignatureAsync(v.body, v.secret, v.timestamp) : null]);
      }
      return rows;
    }, vectors);
    const want = vectors.map((v) => [v.name, v.want.ok ? "ok" : (v.want as { reason: string }).reason, v.digest ?? null]);
    expect(got, "[vector, outcome in Chromium, digest in Chromium]").toEqual(want);
  });

  it("constructEventAsync accepts a rotated delivery with WHATWG Headers and names what is wrong otherwise", async () => {
    const leave = vectorFile.vectors.find((v) => v.name === "leave.approved event")!;
    const event = JSON.parse(leave.body) as { id: string; type: string };
    const now = leave.timestamp + 1;
    const headers = (overrides: Record<string, string> = {}) => ({
      [SIGNATURE_HEADER]: sign(leave.body, leave.secret, { timestamp: leave.timestamp }),
      [EVENT_ID_HEADER]: event.id,
      [EVENT_TYPE_HEADER]: event.type,
      ...overrides,
    });
    const cases: Array<[string, { given: { body: string; headers: Record<string, string>; secrets: string[] }; want: string }]> = [
      ["genuine, during rotation", { given: { body: leave.body, headers: headers(), secrets: ["whsec_previous", leave.secret] }, want: `ok ${event.type} ${event.id}` }],
      ["tampered body", { given: { body: leave.body.replace("Approved", "Rejected"), headers: headers(), secrets: [leave.secret] }, want: "WebhookSignatureError no_matching_signature" }],
      ["event id header not the body's", { given: { body: leave.body, headers: headers({ [EVENT_ID_HEADER]: "evt_other" }), secrets: [leave.secret] }, want: "WebhookEventError event_id_mismatch" }],
    ];
    const got = await page.evaluate(
      async ({ cases, now }) => {
        const { constructEventAsync, isWebhookError } = window.webhooks;
        const outcomes: string[] = [];
        for (const [, { given }] of cases) {
          try {
            const built = await constructEventAsync(given.body, new Headers(given.headers), given.secrets, { now });
            outcomes.push(`ok ${built.type} ${built.id}`);
          } catch (error) {
            outcomes.push(isWebhookError(error) ? `${error.name} ${error.reason}` : `unexpected ${String(error)}`);
          }
        }
        return outcomes;
      },
      { cases, now },
    );
    expect(Object.fromEntries(cases.map(([name], i) => [name, got[i]])), "outcome in Chromium per case").toEqual(
      Object.fromEntries(cases.map(([name, { want }]) => [name, want])),
    );
  });
});
