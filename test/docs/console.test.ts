// The API reference's "Try it" console (scripts/docs/api-console.ts) in Chromium, from the file
// system and served by the mock under /docs: each operation's example request, as the panel fills
// it in, is answered in the page as the contract documents it; the rules a reader tries first
// (no key, a key without the permission, a value outside an enum, another organisation's record);
// nothing leaves the page in the in-page mode; the same form sent to a running mock answers the
// same; keyboard alone; a phone's width.
// Each load of the reference renders Redoc's whole page and, at its first panel, the console with
// Prism and a dataset: most of the file's CPU. So the reference loads once per way of opening it,
// the tests of one way share its page, in order (the checks that want a page no panel has opened
// yet come first), and the two ways run side by side.
import { pathToFileURL } from "node:url";
import path from "node:path";
import type { BrowserContext, Page, Request as PageRequest } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DEMO_KEY } from "../../mock/keys/demo-keys.js";
import { listOperations } from "../../scripts/docs/spec-facts.js";
import { openContext } from "../support/browser.js";
import { createOpenApiValidator } from "../support/openapi-validator.js";
import { openapi, openSite, type Site } from "./site-support.js";
import { DESKTOP, PHONE } from "./site-visit.js";

const validator = createOpenApiValidator(openapi);
const operations = listOperations(openapi);
/** The route of an operation in Redoc's hash router: its tag's slug, then its operationId in lower case. */
const routeOf = (operationId: string) => {
  const tag = operations.find((op) => op.operationId === operationId)!.tag ?? "";
  return `#/${tag.toLowerCase().replace(/[^a-z0-9]+/g, "-")}/${operationId.toLowerCase()}`;
};

interface Tried {
  status: number;
  body: any;
  headers: Headers;
}

interface TryOptions {
  /** A demo key, "(typed)" with `typedKey`, or "(none)"; default the panel's own choice. */
  key?: string;
  /** Field values to set (a choice's value, or "(other)" with `other`). */
  values?: Record<string, string>;
  other?: Record<string, string>;
  /** A base URL to send to instead of the page's mock. */
  baseUrl?: string;
}

/** A way of opening the reference: its page in this file's context, and its address. */
interface Reference {
  page: Page;
  url: () => string;
}

let site: Site;
let context: BrowserContext;
const served = { url: () => site.url("api.html") } as Reference;
const local = { url: () => pathToFileURL(path.join(site.dir, "api.html")).href } as Reference;
/** Every URL the context asked for (Redoc's own blob: workers aside), but those sent to a running mock on purpose. */
const requested: string[] = [];

beforeAll(async () => {
  site = await openSite();
  context = await openContext(site.browser, { viewport: DESKTOP });
  context.on("request", (request) => requested.push(request.url()));
  [served.page, local.page] = await Promise.all([context.newPage(), context.newPage()]);
}, 300_000);

afterAll(async () => {
  await context?.close();
  await site?.close();
});

/** Shows the reference at an operation, loading the page only when it shows another. */
async function navigateTo({ page, url }: Reference, operationId: string): Promise<void> {
  if (page.url().split("#")[0] !== url()) await page.goto(`${url()}${routeOf(operationId)}`);
  else await page.evaluate((hash) => (location.hash = hash), routeOf(operationId));
}

/** Opens the reference at an operation, its panel open. */
async function openPanel(reference: Reference, operationId: string): Promise<void> {
  await navigateTo(reference, operationId);
  const { page } = reference;
  const button = page.locator(`[id$="/${operationId.toLowerCase()}"] .hr-try-open`);
  await button.waitFor();
  if ((await button.getAttribute("aria-expanded")) !== "true") await button.click();
  await page.locator(`#hr-try-panel-${operationId} form.hr-try`).waitFor();
}

async function readAnswer(page: Page, operationId: string): Promise<Tried> {
  const panel = page.locator(`#hr-try-panel-${operationId}`);
  await panel.locator(".hr-try-status").waitFor();
  const status = Number((await panel.locator(".hr-try-status").innerText()).split(" ")[0]);
  const bodyText = await panel.locator(".hr-try-body").innerText();
  const pairs = await panel.locator(".hr-try-headers dt, .hr-try-headers dd").allInnerTexts();
  const headers = new Headers();
  for (let i = 0; i + 1 < pairs.length; i += 2) headers.set(pairs[i]!, pairs[i + 1]!);
  let body: unknown = bodyText;
  try {
    body = JSON.parse(bodyText);
  } catch {
    // Shown as it came.
  }
  return { status, body, headers };
}

/** Fills the operation's panel in as `options` say (the rest as the panel filled it) and sends it. */
async function tryIt(reference: Reference, operationId: string, options: TryOptions = {}): Promise<Tried> {
  await openPanel(reference, operationId);
  const { page } = reference;
  const id = (name: string) => `#hr-try-${operationId}-${name}`;
  if (options.baseUrl) {
    await page.selectOption(id("target"), "url");
    await page.fill(id("base-url"), options.baseUrl);
  } else await page.selectOption(id("target"), "page");
  if (options.key !== undefined) await page.selectOption(id("key"), options.key);
  for (const [name, value] of Object.entries(options.values ?? {})) {
    const field = page.locator(id(`p-${name}`));
    if ((await field.evaluate((node) => node.tagName)) === "SELECT") await field.selectOption(value);
    else await field.fill(value);
  }
  for (const [name, value] of Object.entries(options.other ?? {})) await page.fill(id(`p-${name}-other`), value);
  // The answer shown before is cleared, so the one read is this request's.
  await page.locator(`#hr-try-panel-${operationId} .hr-try-answer`).evaluate((node: HTMLElement) => (node.replaceChildren(), (node.hidden = true)));
  await page.locator(`#hr-try-panel-${operationId} .hr-try-send`).click();
  return readAnswer(page, operationId);
}

/** Each operation's example and the rules a reader tries first, in `reference`. */
function answeredAsDocumented(reference: Reference): void {
  test.sequential.each(operations.map((op) => [op.operationId]))("%s: the example request, as the panel fills it in, is answered as the contract documents", async (operationId) => {
    const tried = await tryIt(reference, operationId);
    expect(validator.check(operationId, tried.status, tried.body, tried.headers), `${operationId}'s answer (status ${tried.status}) against the contract`).toEqual([]);
    // The examples' ids are records of organisation 1 in every dataset (developing-a-frontend.md): a success.
    expect(tried.status, `${operationId} answered ${tried.status}: ${JSON.stringify(tried.body).slice(0, 200)}`).toBe(200);
  }, 120_000);

  test.sequential.each<[string, { given: { operationId: string } & TryOptions; want: { status: number; message?: RegExp } }]>([
    ["no key", { given: { operationId: "listEmployees", key: "(none)" }, want: { status: 401 } }],
    ["the leave-only key on the employee list", { given: { operationId: "listEmployees", key: DEMO_KEY.org1LeaveView }, want: { status: 403 } }],
    ["a Status outside the enum", { given: { operationId: "listEmployees", key: DEMO_KEY.org1Full, values: { Status: "(other)" }, other: { Status: "Sleeping" } }, want: { status: 400, message: /Status/ } }],
    ["a LeaveStatus outside the enum", { given: { operationId: "listLeaveRequests", key: DEMO_KEY.org1Full, values: { LeaveStatus: "(other)" }, other: { LeaveStatus: "Snoozing" } }, want: { status: 400, message: /LeaveStatus/ } }],
  ])("%s is answered in the page as the contract says", async (_name, { given, want }) => {
    const { operationId, ...options } = given;
    const tried = await tryIt(reference, operationId, options);
    expect(tried.status, JSON.stringify(tried.body)).toBe(want.status);
    expect(tried.body?.isSuccessful, "the envelope says it failed").toBe(false);
    if (want.message) expect(tried.body?.message, "the message names the parameter").toMatch(want.message);
  }, 120_000);

  test.sequential("another organisation's department is a 404", async () => {
    const theirs = await tryIt(reference, "listDepartments", { key: DEMO_KEY.org2Full, values: { Companies: "", SearchTerm: "" } });
    const id = theirs.body?.data?.data?.[0]?.id;
    expect(id, `organisation 2's first department (${JSON.stringify(theirs.body).slice(0, 200)})`).toMatch(/^[0-9a-f-]{36}$/);
    const own = await tryIt(reference, "getDepartment", { key: DEMO_KEY.org2Full, values: { id } });
    expect(own.status, "organisation 2's key reads its own department").toBe(200);
    const other = await tryIt(reference, "getDepartment", { key: DEMO_KEY.org1Full, values: { id } });
    expect(other.status, JSON.stringify(other.body)).toBe(404);
  }, 120_000);
}

// The two ways side by side (each describe runs beside the other), the tests of each in order.
describe("served by the mock under /docs", { concurrent: true }, () => {
  test.sequential("each operation shows its example request as curl before any panel opens, and the console is not loaded until one opens", async () => {
    const { page } = served;
    const shown: string[] = [];
    const loaded: string[] = [];
    const record = (request: PageRequest) => loaded.push(request.url());
    page.on("request", record);
    try {
      // A fresh load, which the tests after this one use.
      await page.goto(`${served.url()}${routeOf(operations[0]!.operationId)}`);
      for (const { operationId } of operations) {
        await page.evaluate((hash) => (location.hash = hash), routeOf(operationId));
        const section = page.locator(`[id$="/${operationId.toLowerCase()}"]`).first();
        await section.locator(".hr-try-open").waitFor();
        const text = await section.innerText();
        const route = operations.find((op) => op.operationId === operationId)!.path.replace(/\{[^}]+\}.*$/, "");
        shown.push(`${operationId}: ${text.includes(`curl 'http://127.0.0.1:4010${route}`) && text.includes("Authorization: Bearer") ? "curl shown" : "no curl"}`);
      }
    } finally {
      page.off("request", record);
    }
    expect(shown).toEqual(operations.map(({ operationId }) => `${operationId}: curl shown`));
    expect(loaded.filter((url) => url.endsWith("/api-console.js")), "api-console.js fetched with no panel open").toEqual([]);
  }, 120_000);

  test.sequential("the panel works by keyboard alone: Tab to Try it, Enter, Tab to Send, Enter", async () => {
    const { page } = served;
    // Before any test opens this operation's panel, which Enter would close.
    await navigateTo(served, "listLeaveTypes");
    const section = page.locator('[id$="/listleavetypes"]');
    expect(await section.locator(".hr-try-open").getAttribute("aria-expanded"), "listLeaveTypes' panel, closed before the test").toBe("false");
    await section.locator('[data-testid="middle-panel"] h2 a').first().focus();
    const focusedIs = (selector: string) => page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector);
    const tabTo = async (selector: string, most: number) => {
      for (let i = 0; i < most && !(await focusedIs(selector)); i++) await page.keyboard.press("Tab");
      return focusedIs(selector);
    };
    expect(await tabTo(".hr-try-open", 6), "Try it is reached by Tab from the operation's heading").toBe(true);
    await page.keyboard.press("Enter");
    await page.locator("#hr-try-panel-listLeaveTypes form.hr-try").waitFor();
    expect(await tabTo(".hr-try-send", 20), "Send is reached by Tab through the form").toBe(true);
    await page.keyboard.press("Enter");
    const status = page.locator("#hr-try-panel-listLeaveTypes .hr-try-status");
    await status.waitFor();
    expect(await status.innerText()).toMatch(/^200/);
  }, 120_000);

  answeredAsDocumented(served);

  test.sequential("sent to a running mock, the same form gets the same answer as in the page", async () => {
    const values = { Status: "Active", PageSize: "5" };
    const inPage = await tryIt(served, "listEmployees", { values });
    const toMock: string[] = [];
    const record = (request: PageRequest) => void (request.url().startsWith(`${site.mock.url}/v1/`) && toMock.push(request.url()));
    served.page.on("request", record);
    const sent = await tryIt(served, "listEmployees", { values, baseUrl: site.mock.url }).finally(() => served.page.off("request", record));
    // Out of the list the last test reads: these left the page on purpose.
    for (const url of toMock) if (requested.includes(url)) requested.splice(requested.indexOf(url), 1);
    expect(sent.status).toBe(200);
    expect(sent.body, "the running mock's answer and the page's (same data, seed and rules)").toEqual(inPage.body);
    expect(toMock, "the request went to the mock").toContain(`${site.mock.url}/v1/employee/list?Status=Active&PageSize=5&PageNumber=1`);
  }, 120_000);

  test.sequential("the copy buttons give the request as filled in, with the key chosen", async () => {
    const { page } = served;
    await tryIt(served, "listEmployees", { key: DEMO_KEY.org1EmployeeView, values: { Status: "Inactive", PageSize: "7", PageNumber: "" } });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(site.mock.url).origin });
    const panel = page.locator("#hr-try-panel-listEmployees");
    await panel.locator(".hr-try-sample-curl .hr-try-copy").click();
    await panel.locator(".hr-try-sample-curl .hr-try-copied", { hasText: "Copied" }).waitFor();
    const curl = await page.evaluate(() => navigator.clipboard.readText());
    expect(curl).toBe(`curl 'http://127.0.0.1:4010/v1/employee/list?Status=Inactive&PageSize=7' \\\n  -H 'Authorization: Bearer ${DEMO_KEY.org1EmployeeView}'`);
    await panel.locator(".hr-try-sample-client .hr-try-copy").click();
    await panel.locator(".hr-try-sample-client .hr-try-copied", { hasText: "Copied" }).waitFor();
    const call = await page.evaluate(() => navigator.clipboard.readText());
    expect(call).toContain(`apiKey: "${DEMO_KEY.org1EmployeeView}"`);
    expect(call).toContain(`hr.listEmployees({ Status: "Inactive", PageSize: 7 })`);
  }, 120_000);

  test.sequential("at 375 px the panel fits: the page does not scroll sideways", async () => {
    const { page } = served;
    await page.setViewportSize(PHONE);
    try {
      await tryIt(served, "listLeaveRequests");
      const measure = await page.evaluate(() => {
        const form = document.querySelector("#hr-try-panel-listLeaveRequests form")!.getBoundingClientRect();
        return { sideways: document.documentElement.scrollWidth - document.documentElement.clientWidth, right: Math.round(form.right), width: document.documentElement.clientWidth };
      });
      expect(measure.sideways, "how far the page scrolls sideways").toBe(0);
      expect(measure.right, "the panel's right edge within the window").toBeLessThanOrEqual(measure.width);
    } finally {
      await page.setViewportSize(DESKTOP);
    }
  }, 120_000);
});

describe("opened from the file system (file://)", { concurrent: true }, () => answeredAsDocumented(local));

test("in the page, nothing is requested beyond the site's own files", () => {
  const own = [pathToFileURL(site.dir).href, `${new URL(site.url("")).origin}/docs/`];
  const elsewhere = requested.filter((url) => !own.some((prefix) => url.startsWith(prefix)) && !/^(blob|data):/.test(url));
  expect(elsewhere, "requests outside the site's files while the console answered in the page").toEqual([]);
  expect(requested.filter((url) => url.endsWith("/api-console.js")).length, "the console's script, loaded once per page").toBeGreaterThan(0);
});
