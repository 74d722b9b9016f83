// The control API from a web page on another origin, in Debian's Chromium: a page the developer
// happens to visit while the mock runs cannot register an endpoint or read a signing secret, by a
// preflighted call or by a "simple" cross-site POST; a page of an origin the user named with
// --cors-origin (corsOrigins) can. The read API keeps answering pages of any origin.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DEMO_KEY, startMock, type RunningMock } from "../../mock/index.js";
import { connectChromium, openContext, serveStatic, type StaticSite } from "../support/browser.js";
import { WEBHOOKS_KEY } from "./support.js";

let site: StaticSite;
let closed: RunningMock;
let named: RunningMock;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  site = await serveStatic({ "/": { type: "text/html; charset=utf-8", body: "<!doctype html><title>another origin</title>" } });
  [closed, named, browser] = await Promise.all([startMock({ port: 0 }), startMock({ port: 0, corsOrigins: [site.url] }), connectChromium()]);
  page = await (await openContext(browser)).newPage();
  await page.goto(`${site.url}/`);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all([site?.close(), closed?.close(), named?.close()]);
});

/** What page script saw of one fetch: the status and body it could read, or the error it got. */
function fetchInPage(url: string, init: { method: string; headers?: Record<string, string>; body?: string; mode?: "cors" | "no-cors" }): Promise<{ status: number; type: string; body: string } | { error: string }> {
  return page.evaluate(async ({ url, init }) => {
    try {
      const response = await fetch(url, init);
      return { status: response.status, type: response.type, body: await response.text() };
    } catch (error) {
      return { error: String(error) };
    }
  }, { url, init });
}

const ENDPOINT = { url: "https://hooks.example.com/from-a-page" };
const organisation1 = () => closed.keys.find((k) => k.key === WEBHOOKS_KEY)!.organizationId;

describe("a page of an origin nobody named", () => {
  test("cannot add an endpoint with a preflighted JSON call: the browser refuses the answer", async () => {
    const seen = await fetchInPage(`${closed.url}/_mock/webhooks/endpoints`, {
      method: "POST",
      headers: { authorization: `Bearer ${WEBHOOKS_KEY}`, "content-type": "application/json" },
      body: JSON.stringify(ENDPOINT),
    });
    expect(seen, "page script gets a network error, never the secret").toEqual({ error: expect.stringMatching(/TypeError/) });
    expect(await closed.webhooks.listEndpoints(organisation1()), "nothing was added").toEqual([]);
  });

  test("cannot add one with a simple cross-site POST either (no Authorization can ride on it; text/plain is a 415 anyway)", async () => {
    const seen = await fetchInPage(`${closed.url}/_mock/webhooks/endpoints`, { method: "POST", mode: "no-cors", body: JSON.stringify(ENDPOINT) });
    expect(seen, "an opaque answer the page cannot read").toMatchObject({ type: "opaque", status: 0 });
    expect(await closed.webhooks.listEndpoints(organisation1()), "nothing was added").toEqual([]);
  });

  test("still reads the read API", async () => {
    const seen = await fetchInPage(`${closed.url}/v1/leavetype/list`, { method: "GET", headers: { authorization: `Bearer ${DEMO_KEY.org1Full}` } });
    expect(seen).toMatchObject({ status: 200, type: "cors" });
  });
});

describe("a page of the origin named with corsOrigins", () => {
  test("adds an endpoint and reads its secret", async () => {
    const seen = await fetchInPage(`${named.url}/_mock/webhooks/endpoints`, {
      method: "POST",
      headers: { authorization: `Bearer ${WEBHOOKS_KEY}`, "content-type": "application/json" },
      body: JSON.stringify(ENDPOINT),
    });
    expect(seen).toMatchObject({ status: 201, type: "cors" });
    expect(JSON.parse((seen as { body: string }).body).data.secret).toMatch(/^whsec_/);
  });
});
