// The typed client in a real browser against the real mock: a page served from one origin (a static
// server on 127.0.0.1) loads src/client bundled by esbuild for the browser platform (a Node built-in
// anywhere in its graph fails the bundle) and calls the mock, on another origin, from page script in
// Debian's Chromium. Seen there: the CORS preflight, Retry-After on a 429, and each HrApiError kind.
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { DEMO_KEY, startMock, type RunningMock } from "../../mock/index.js";
import { createHrClient, type HrApiErrorKind } from "../../src/client/index.js";
import { BROWSER_WAIT_MS, bundleForBrowser, connectChromium, modulePage, openContext, serveStatic, type StaticSite } from "../support/browser.js";

const repo = fileURLToPath(new URL("../../", import.meta.url));
const PAGE_ENTRY = `
import * as client from "./src/client/index.ts";
window.hr = client;
`;

type ClientModule = typeof import("../../src/client/index.js");
declare global {
  interface Window {
    hr: ClientModule;
  }
}

/** One call made by page script: which server, key, operation and arguments. */
interface PageCall {
  baseUrl: string;
  apiKey: string;
  operation: string;
  args: unknown[];
}

/** What page script saw of an HrApiError (or that the call succeeded). */
interface SeenFailure {
  isHrApiError: boolean;
  name: string;
  kind: HrApiErrorKind | undefined;
  status: number | undefined;
  retryAfter: number | undefined;
}

const shared = inject("mock");
let limited: RunningMock;
let site: StaticSite;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  const [script, mock] = await Promise.all([bundleForBrowser(PAGE_ENTRY, repo), startMock({ port: 0, rateLimit: 2 })]);
  limited = mock;
  site = await serveStatic(modulePage("client", script));
  browser = await connectChromium();
  context = await openContext(browser);
  page = await context.newPage();
  page.on("pageerror", (error) => pageErrors.push(error.message));
  await page.goto(`${site.url}/`);
  await page.waitForFunction(() => "hr" in window, null, { timeout: BROWSER_WAIT_MS }).catch(() => {
    throw new Error(`the page never loaded the client bundle: ${pageErrors.join("; ") || "no page error"}`);
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all([site?.close(), limited?.close()]);
});

/** Runs one client call in the page; resolves to its data. */
function callInPage(call: PageCall): Promise<unknown> {
  return page.evaluate(async ({ baseUrl, apiKey, operation, args }) => {
    const client = window.hr.createClient({ baseUrl, apiKey, retry: false }) as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
    return client[operation](...args);
  }, call);
}

/** Runs one client call in the page that must fail; resolves to what page script saw of the error. */
function failureInPage(call: PageCall): Promise<SeenFailure | "resolved"> {
  return page.evaluate(async ({ baseUrl, apiKey, operation, args }) => {
    const { createClient, HrApiError } = window.hr;
    const client = createClient({ baseUrl, apiKey, retry: false }) as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
    try {
      await client[operation](...args);
      return "resolved" as const;
    } catch (error) {
      const e = error as InstanceType<typeof HrApiError>;
      return { isHrApiError: error instanceof HrApiError, name: e.name, kind: e.kind, status: e.status, retryAfter: e.retryAfter };
    }
  }, call);
}

/** A port on 127.0.0.1 that nothing listens on (taken, then released). */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

describe("the client in Chromium, from another origin than the mock's", () => {
  test("the page and the mock are two origins", () => {
    expect(new URL(site.url).origin, "page origin vs the mock's").not.toBe(new URL(shared.url).origin);
  });

  test("a call with the API key is preflighted, and the preflight allows the page's origin and Authorization", async () => {
    // A fresh context: no preflight cached from other tests (the mock allows caching for 600 s).
    const fresh = await openContext(browser);
    try {
      const freshPage = await fresh.newPage();
      const cdp = await fresh.newCDPSession(freshPage);
      await cdp.send("Network.enable");
      // Chromium reports a preflight as an OPTIONS request whose response has type "Preflight"; the
      // headers on the wire come in the ExtraInfo events.
      type Exchange = { url?: string; method?: string; type?: string; status?: number; requestHeaders: Record<string, string>; responseHeaders: Record<string, string> };
      const exchanges = new Map<string, Exchange>();
      const exchange = (id: string) => exchanges.get(id) ?? exchanges.set(id, { requestHeaders: {}, responseHeaders: {} }).get(id)!;
      cdp.on("Network.requestWillBeSent", (e) => Object.assign(exchange(e.requestId), { url: e.request.url, method: e.request.method }));
      cdp.on("Network.requestWillBeSentExtraInfo", (e) => Object.assign(exchange(e.requestId).requestHeaders, lowerKeys(e.headers)));
      cdp.on("Network.responseReceivedExtraInfo", (e) => Object.assign(exchange(e.requestId).responseHeaders, lowerKeys(e.headers)));
      cdp.on("Network.responseReceived", (e) => Object.assign(exchange(e.requestId), { type: e.type, status: e.response.status }));
      await freshPage.goto(`${site.url}/`);
      await freshPage.waitForFunction(() => "hr" in window, null, { timeout: BROWSER_WAIT_MS });
      const types = await freshPage.evaluate(async (baseUrl) => {
        const client = window.hr.createClient({ baseUrl, apiKey: "demo_org1_full", retry: false });
        return (await client.listLeaveTypes({ PageSize: 1 })).data.length;
      }, shared.url);
      expect(types, "leave types read by page script").toBe(1);

      const preflights = [...exchanges.values()].filter((e) => e.type === "Preflight");
      const toMock = preflights.filter((p) => p.url?.startsWith(`${shared.url}/v1/leavetype/list`));
      expect(toMock.length, `preflights seen: ${JSON.stringify(preflights)}`).toBeGreaterThanOrEqual(1);
      const [preflight] = toMock;
      expect(
        {
          method: preflight.method,
          origin: preflight.requestHeaders.origin,
          asksFor: preflight.requestHeaders["access-control-request-method"],
          asksAuthorization: /\bauthorization\b/i.test(preflight.requestHeaders["access-control-request-headers"] ?? ""),
          status: preflight.status,
          allowOrigin: preflight.responseHeaders["access-control-allow-origin"],
          allowsAuthorization: /\bauthorization\b|\*/i.test(preflight.responseHeaders["access-control-allow-headers"] ?? ""),
        },
        "the preflight and the mock's answer",
      ).toEqual({ method: "OPTIONS", origin: site.url, asksFor: "GET", asksAuthorization: true, status: 204, allowOrigin: site.url, allowsAuthorization: true });
    } finally {
      await fresh.close();
    }
  });

  test("pages, details and balances read in the page equal what the client reads in Node", async () => {
    const node = createHrClient({ baseUrl: shared.url, apiKey: DEMO_KEY.org1Full, retry: false });
    const [org1] = shared.ids;
    const calls: Array<[string, { operation: string; args: unknown[]; inNode: () => Promise<unknown> }]> = [
      ["a page of approved leave requests", { operation: "listLeaveRequests", args: [{ LeaveStatus: "Approved", PageSize: 5 }], inNode: () => node.listLeaveRequests({ LeaveStatus: "Approved", PageSize: 5 }) }],
      ["a leave request's details", { operation: "getLeaveRequest", args: [org1.leaveRequestId], inNode: () => node.getLeaveRequest(org1.leaveRequestId) }],
      ["a department's details", { operation: "getDepartment", args: [org1.departmentId], inNode: () => node.getDepartment(org1.departmentId) }],
      ["a balance", { operation: "getLeaveBalance", args: [{ EmployeeId: org1.balance.employeeId, LeaveTypeId: org1.balance.leaveTypeId }], inNode: () => node.getLeaveBalance({ EmployeeId: org1.balance.employeeId, LeaveTypeId: org1.balance.leaveTypeId }) }],
    ];
    for (const [name, { operation, args, inNode }] of calls) {
      const inPage = await callInPage({ baseUrl: shared.url, apiKey: DEMO_KEY.org1Full, operation, args });
      expect(inPage, `${name}: page script vs Node`).toEqual(await inNode());
    }
  });

  test("iterate walks every page in the page script", async () => {
    const inPage = await page.evaluate(async (baseUrl) => {
      const client = window.hr.createClient({ baseUrl, apiKey: "demo_org1_full", retry: false });
      const ids: string[] = [];
      for await (const employee of client.iterate("listEmployees", { PageSize: 25 })) ids.push(employee.id);
      return ids;
    }, shared.url);
    const { totalRecords } = await createHrClient({ baseUrl: shared.url, apiKey: DEMO_KEY.org1Full, retry: false }).listEmployees({ PageSize: 1 });
    expect({ items: inPage.length, distinct: new Set(inPage).size }, "employees yielded in the page").toEqual({ items: totalRecords, distinct: totalRecords });
  });

  test("each failure reaches page script as an HrApiError of its kind", async () => {
    const [org1] = shared.ids;
    const nowhere = `http://127.0.0.1:${await closedPort()}`;
    const cases: Array<[string, { given: PageCall; want: { kind: HrApiErrorKind; status: number } }]> = [
      ["an unknown key", { given: { baseUrl: shared.url, apiKey: "not_a_key", operation: "listLeaveTypes", args: [] }, want: { kind: "auth", status: 401 } }],
      ["a key without the permission", { given: { baseUrl: shared.url, apiKey: DEMO_KEY.org1LeaveView, operation: "listDepartments", args: [] }, want: { kind: "permission", status: 403 } }],
      ["a PageSize above the maximum", { given: { baseUrl: shared.url, apiKey: DEMO_KEY.org1Full, operation: "listLeaveRequests", args: [{ PageSize: 500 }] }, want: { kind: "validation", status: 400 } }],
      ["another organisation's department", { given: { baseUrl: shared.url, apiKey: DEMO_KEY.org2Full, operation: "getDepartment", args: [org1.departmentId] }, want: { kind: "not_found", status: 404 } }],
      ["a server that is not there", { given: { baseUrl: nowhere, apiKey: DEMO_KEY.org1Full, operation: "listLeaveTypes", args: [] }, want: { kind: "network", status: 0 } }],
    ];
    const seen: Record<string, unknown> = {};
    const wanted: Record<string, unknown> = {};
    for (const [name, { given, want }] of cases) {
      seen[name] = await failureInPage(given);
      wanted[name] = { isHrApiError: true, name: "HrApiError", ...want, retryAfter: undefined };
    }
    expect(seen, "what page script caught, per case").toEqual(wanted);
  });

  test("a 429 gives page script Retry-After: on the HrApiError and as a readable response header", async () => {
    const call: PageCall = { baseUrl: limited.url, apiKey: DEMO_KEY.org2Full, operation: "listLeaveTypes", args: [] };
    // The limit is 2 requests in any 60 s per key: two pass, the third is refused.
    await callInPage(call);
    await callInPage(call);
    const refused = await failureInPage(call);
    expect(refused, "the third call within the window").toMatchObject({ isHrApiError: true, kind: "rate_limited", status: 429 });
    const { retryAfter } = refused as SeenFailure;
    expect(Number.isInteger(retryAfter) && retryAfter! >= 1 && retryAfter! <= 60, `retryAfter ${retryAfter} is whole seconds within the 60 s window`).toBe(true);

    const raw = await page.evaluate(async ({ baseUrl, apiKey }) => {
      const client = window.hr.createClient({ baseUrl, apiKey, retry: false });
      const { response } = await client.raw.GET("/v1/leavetype/list", {});
      return { status: response.status, retryAfter: response.headers.get("Retry-After") };
    }, call);
    expect(raw.status, "raw status of a fourth call").toBe(429);
    expect(raw.retryAfter, "Retry-After as page script reads it (exposed by CORS)").toMatch(/^[1-9]\d*$/);
  });

  test("the page logged no error", () => {
    expect(pageErrors, "uncaught errors in the page").toEqual([]);
  });
});

function lowerKeys(headers: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), String(value)]));
}
