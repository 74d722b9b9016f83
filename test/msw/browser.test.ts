// The MSW handlers in a real browser, with no server of ours answering: a page bundles
// hr-service-mock/msw (mock/msw/) and the typed client with esbuild (scripts/lib/msw-bundle.ts:
// Prism's Node built-ins replaced by stand-ins), registers MSW's service worker (msw's own
// mockServiceWorker.js, served beside the page) in Debian's Chromium, and page script calls the
// client against a base URL on a host that does not exist. Every answer comes from the handlers in
// the page; built from the shared mock's seed and today, they equal what the real server answers.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { DEMO_KEY } from "../../mock/index.js";
import { createHrClient, type HrApiErrorKind } from "../../src/client/index.js";
import { bundleWithHandlers } from "../../scripts/lib/msw-bundle.js";
import { BROWSER_WAIT_MS, connectChromium, modulePage, openContext, serveStatic, type StaticSite } from "../support/browser.js";

const repo = fileURLToPath(new URL("../../", import.meta.url));
/** A host that resolves nowhere (RFC 6761): only the service worker can answer it. */
const API = "http://hr-api.invalid";
const PAGE_ENTRY = `
import { setupWorker } from "msw/browser";
import { createHandlers } from "./mock/msw/index.ts";
import * as client from "./src/client/index.ts";
window.mswPage = {
  client,
  async start(options) {
    const worker = setupWorker(...createHandlers(options));
    await worker.start({ quiet: true, onUnhandledRequest: "error", serviceWorker: { url: "/mockServiceWorker.js" } });
    return navigator.serviceWorker.controller !== null;
  },
};
`;

declare global {
  interface Window {
    mswPage: {
      client: typeof import("../../src/client/index.js");
      start(options: import("../../mock/msw/index.js").MockHandlersOptions): Promise<boolean>;
    };
  }
}

const shared = inject("mock");
let site: StaticSite;
let browser: Browser;
let page: Page;
let controlled: boolean;
const pageErrors: string[] = [];

beforeAll(async () => {
  const script = await bundleWithHandlers(PAGE_ENTRY, repo);
  const worker = readFileSync(createRequire(import.meta.url).resolve("msw/mockServiceWorker.js"), "utf8");
  site = await serveStatic({ ...modulePage("msw", script), "/mockServiceWorker.js": { type: "text/javascript; charset=utf-8", body: worker } });
  browser = await connectChromium();
  page = await (await openContext(browser)).newPage();
  page.on("pageerror", (error) => pageErrors.push(error.message));
  await page.goto(`${site.url}/`);
  await page.waitForFunction(() => "mswPage" in window, null, { timeout: BROWSER_WAIT_MS }).catch(() => {
    throw new Error(`the page never loaded its bundle: ${pageErrors.join("; ") || "no page error"}`);
  });
  controlled = await page.evaluate((options) => window.mswPage.start(options), { baseUrl: API, seed: shared.seed, today: shared.today, rateLimit: "off" as const });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

/** One client call in page script against the handlers: its data, or what it threw. */
function inPage(apiKey: string, operation: string, args: unknown[]): Promise<{ data: unknown } | { error: { isHrApiError: boolean; kind: HrApiErrorKind; status: number; message: string } }> {
  return page.evaluate(
    async ({ baseUrl, apiKey, operation, args }) => {
      const { createClient, HrApiError } = window.mswPage.client;
      const client = createClient({ baseUrl, apiKey, retry: false }) as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
      try {
        return { data: await client[operation](...args) };
      } catch (error) {
        const e = error as InstanceType<typeof HrApiError>;
        return { error: { isHrApiError: error instanceof HrApiError, kind: e.kind, status: e.status, message: e.message } };
      }
    },
    { baseUrl: API, apiKey, operation, args },
  );
}

describe("the MSW handlers in Chromium (service worker, no server)", () => {
  test("MSW's service worker controls the page", () => {
    expect(controlled, "navigator.serviceWorker.controller after worker.start()").toBe(true);
  });

  test("pages, details and balances read in page script equal the real server's answers for the same seed and today", async () => {
    const server = createHrClient({ baseUrl: shared.url, apiKey: DEMO_KEY.org1Full, retry: false });
    const [org1] = shared.ids;
    const balance = { EmployeeId: org1.balance.employeeId, LeaveTypeId: org1.balance.leaveTypeId };
    const cases: Array<[string, { operation: string; args: unknown[]; fromServer: () => Promise<unknown> }]> = [
      ["a page of approved leave requests", { operation: "listLeaveRequests", args: [{ LeaveStatus: "Approved", PageSize: 5 }], fromServer: () => server.listLeaveRequests({ LeaveStatus: "Approved", PageSize: 5 }) }],
      ["the second page of employees", { operation: "listEmployees", args: [{ PageSize: 10, PageNumber: 2 }], fromServer: () => server.listEmployees({ PageSize: 10, PageNumber: 2 }) }],
      ["a leave request's details", { operation: "getLeaveRequest", args: [org1.leaveRequestId], fromServer: () => server.getLeaveRequest(org1.leaveRequestId) }],
      ["a department's details", { operation: "getDepartment", args: [org1.departmentId], fromServer: () => server.getDepartment(org1.departmentId) }],
      ["a balance", { operation: "getLeaveBalance", args: [balance], fromServer: () => server.getLeaveBalance(balance) }],
    ];
    const seen: Record<string, unknown> = {};
    const wanted: Record<string, unknown> = {};
    for (const [name, { operation, args, fromServer }] of cases) {
      seen[name] = await inPage(DEMO_KEY.org1Full, operation, args);
      wanted[name] = { data: await fromServer() };
    }
    expect(seen, "page script's answers (handlers) vs the server's, per call").toEqual(wanted);
  });

  test("refusals reach page script as HrApiErrors with the server's status and message", async () => {
    const [org1] = shared.ids;
    const cases: Array<[string, { given: { apiKey: string; operation: string; args: unknown[] }; want: { kind: HrApiErrorKind; status: number; message: RegExp } }]> = [
      ["a key lacking the permission", { given: { apiKey: DEMO_KEY.org1LeaveView, operation: "listDepartments", args: [] }, want: { kind: "permission", status: 403, message: /Employee Management: View/ } }],
      ["the other organisation's department id", { given: { apiKey: DEMO_KEY.org2Full, operation: "getDepartment", args: [org1.departmentId] }, want: { kind: "not_found", status: 404, message: /not found/i } }],
      ["the other organisation's leave request id", { given: { apiKey: DEMO_KEY.org2Full, operation: "getLeaveRequest", args: [org1.leaveRequestId] }, want: { kind: "not_found", status: 404, message: /not found/i } }],
      ["an unknown key", { given: { apiKey: "not_a_key", operation: "listLeaveTypes", args: [] }, want: { kind: "auth", status: 401, message: /key/i } }],
      ["a PageSize above the maximum", { given: { apiKey: DEMO_KEY.org1Full, operation: "listLeaveRequests", args: [{ PageSize: 500 }] }, want: { kind: "validation", status: 400, message: /PageSize/ } }],
    ];
    for (const [name, { given, want }] of cases) {
      const seen = await inPage(given.apiKey, given.operation, given.args);
      expect("error" in seen, `${name}: page script's call should have thrown, got ${JSON.stringify(seen).slice(0, 200)}`).toBe(true);
      if (!("error" in seen)) continue;
      expect({ isHrApiError: seen.error.isHrApiError, kind: seen.error.kind, status: seen.error.status }, `${name}: the HrApiError`).toEqual({ isHrApiError: true, kind: want.kind, status: want.status });
      expect(seen.error.message, `${name}: the envelope's message`).toMatch(want.message);
    }
  });

  test("Prefer: dynamic=true answers as the server does: bodies generated from the schemas with Prism's faker (its x-faker hints)", async () => {
    const [org1] = shared.ids;
    const paths = ["/v1/leaverequest/list?PageSize=3", `/v1/leaverequest/details/${org1.leaveRequestId}`, "/v1/employee/list?PageSize=3", "/v1/leavetype/list"];
    const shape = (body: { isSuccessful?: boolean; code?: string; data?: unknown }) => ({ isSuccessful: body.isSuccessful, code: body.code, data: Array.isArray(body.data) ? "a list" : typeof body.data });
    const seen: Record<string, unknown> = {};
    const wanted: Record<string, unknown> = {};
    for (const path of paths) {
      const headers = { authorization: `Bearer ${DEMO_KEY.org1Full}`, prefer: "dynamic=true" };
      seen[path] = await page.evaluate(
        async ({ url, headers }) => {
          const response = await fetch(url, { headers });
          return { status: response.status, body: await response.json() };
        },
        { url: API + path, headers },
      );
      const response = await fetch(shared.url + path, { headers });
      wanted[path] = { status: response.status, body: shape(await response.json()) };
      seen[path] = { status: (seen[path] as { status: number }).status, body: shape((seen[path] as { body: object }).body) };
    }
    expect(seen, "status and envelope of each generated answer, page script's (handlers) vs the server's").toEqual(wanted);
  });

  test("no page error was raised", () => {
    expect(pageErrors, "errors thrown in the page").toEqual([]);
  });
});
