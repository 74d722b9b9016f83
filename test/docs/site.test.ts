// The docs site in a browser, as users open it: built by `npm run docs`'s build function, served by
// the mock under /docs, each page loaded in headless Chromium (Debian's, driven by playwright-core).
// Every page: no console error, no failed request, no request to another host, the shared nav;
// each reference shows everything its document holds. A screenshot of each page is saved under
// test-artifacts/docs/.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startMock, type RunningMock } from "../../mock/index.js";
import { DEMO_KEYS } from "../../mock/keys/demo-keys.js";
import { buildDocs, repoRoot } from "../../scripts/build-docs.js";
import { PAGES, type PageId } from "../../scripts/docs/layout.js";
import { compareContracts } from "../../mock/diff/compare.js";
import { launchChromium } from "../support/browser.js";

const ARTIFACTS = path.join(repoRoot, "test-artifacts", "docs");
const VIEWPORT = { width: 1280, height: 900 };
/** How long a page may take to show what it should once loaded (client-side rendering). */
const RENDER_WAIT_MS = 15_000;

const readJson = (file: string) => JSON.parse(fs.readFileSync(path.join(repoRoot, file), "utf8"));
const openapi = readJson("generated/openapi.json");
const asyncapi = readJson("generated/asyncapi.json");

/** Whitespace collapsed and Markdown code marks dropped: what a reader sees, comparable with innerText. */
const visible = (text: string) => text.replace(/`/g, "").replace(/\s+/g, " ").trim();

/** Every `x-assumption` sentence of a document, found by walking it (independent of the page's own code). */
function assumptionSentences(doc: unknown): string[] {
  const found = new Set<string>();
  const walk = (node: unknown) => {
    if (node === null || typeof node !== "object") return;
    const mark = (node as Record<string, unknown>)["x-assumption"];
    if (typeof mark === "string") found.add(mark.trim());
    for (const child of Object.values(node)) walk(child);
  };
  walk(doc);
  return [...found];
}

const HTTP_METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);
const operations = Object.entries<Record<string, any>>(openapi.paths).flatMap(([route, item]) =>
  Object.entries(item)
    .filter(([method]) => HTTP_METHODS.has(method))
    .map(([method, operation]) => ({ route, method, summary: String(operation.summary ?? operation.operationId), tags: (operation.tags ?? []) as string[] })),
);
const messages = Object.entries<Record<string, any>>(asyncapi.components.messages).map(([key, message]) => ({
  name: String(message.name ?? key),
  title: message.title as string | undefined,
  example: (message.examples?.[0] ?? {}) as { name?: string; headers?: Record<string, string>; payload?: { id?: string; data?: Record<string, unknown> } },
}));
const deliveryHeaders = Object.keys(asyncapi.components.schemas.WebhookHeaders.properties);

/** The releases recorded in contract-releases/, read here apart from the page's own code. */
const releases = fs
  .readdirSync(path.join(repoRoot, "contract-releases"), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && /^\d+\.\d+\.\d+/.test(entry.name))
  .map((entry) => {
    const dir = path.join(repoRoot, "contract-releases", entry.name);
    const read = (file: string) => JSON.parse(fs.readFileSync(path.join(dir, file), "utf8"));
    return { version: entry.name, date: String(read("release.json").date), openapi: read("openapi.json"), asyncapi: read("asyncapi.json") };
  })
  .sort((a, b) => a.version.localeCompare(b.version, undefined, { numeric: true }));
const lastRelease = releases.at(-1);
/** What changed since the last release, as npm run diff says it: the page must show every line. */
const unreleased = lastRelease ? compareContracts({ label: "last", ...lastRelease }, { label: "working tree", openapi, asyncapi }).changes : [];

interface Wanted {
  /** What the page must show, as the failure message names it. */
  what: string;
  texts: Array<{ label: string; text: string }>;
}

const WANTED: Record<PageId, Wanted> = {
  index: {
    what: "each audience's quick start",
    texts: [
      { label: "frontend quick start", text: "npx hr-mock serve" },
      { label: "CI quick start", text: "npx hr-contract --base-url URL --api-key KEY" },
      ...["Frontend developer", "Integration developer", "CI maintainer", "Reader"].map((text) => ({ label: `audience ${text}`, text })),
    ],
  },
  api: {
    what: "every operation of generated/openapi.json",
    texts: operations.map((operation) => ({ label: `${operation.method.toUpperCase()} ${operation.route}`, text: operation.summary })),
  },
  events: {
    what: "every message (event type) of generated/asyncapi.json with its headers, payload fields and example",
    texts: [
      ...deliveryHeaders.map((header) => ({ label: `delivery header ${header}`, text: header })),
      ...messages.flatMap((message) => [
        { label: `event type ${message.name}`, text: message.name },
        ...(message.title ? [{ label: `title of ${message.name}`, text: message.title }] : []),
        ...(message.example.name ? [{ label: `example of ${message.name}`, text: message.example.name }] : []),
        ...(message.example.payload?.id ? [{ label: `example payload id of ${message.name}`, text: message.example.payload.id }] : []),
        ...(message.example.headers?.["Service-Signature"] ? [{ label: `example signature of ${message.name}`, text: message.example.headers["Service-Signature"] }] : []),
        ...Object.keys(message.example.payload?.data ?? {}).map((field) => ({ label: `data field ${field} of ${message.name}`, text: field })),
      ]),
    ],
  },
  assumptions: {
    what: "every x-assumption of both documents",
    texts: [...new Set([...assumptionSentences(openapi), ...assumptionSentences(asyncapi)])].map((sentence) => ({
      label: sentence.slice(0, 60),
      text: sentence,
    })),
  },
  keys: {
    what: "every demo key of mock/keys",
    texts: DEMO_KEYS.flatMap((key) => [
      { label: `key ${key.key}`, text: key.key },
      { label: `label of ${key.key}`, text: key.label },
    ]),
  },
  changelog: {
    what: "every recorded release of contract-releases/ and each change since the last",
    texts: [
      { label: "the unreleased section", text: "Unreleased" },
      ...releases.map((release) => ({ label: `release ${release.version}`, text: `${release.version} — ${release.date}` })),
      ...unreleased.map((change) => ({ label: `unreleased change ${change.id.slice(0, 60)}`, text: `${change.place} ${change.what}` })),
    ],
  },
};

interface Visit {
  consoleErrors: string[];
  failedRequests: string[];
  otherHosts: string[];
  /** Text shown by the page (for the API reference: by each of its sections, visited through the sidebar). */
  text: string;
  navLinks: Array<{ label: string; href: string; resolved: string }>;
  navigationProblems: string[];
}

let site: string;
let mock: RunningMock;
let browser: Browser;
const visits = new Map<PageId, Visit>();

/** Opens one page in a fresh context and records everything the tests judge. */
async function visitPage(id: PageId, url: string, ownHost: string): Promise<Visit> {
  const context: BrowserContext = await browser.newContext({ viewport: VIEWPORT });
  const visit: Visit = { consoleErrors: [], failedRequests: [], otherHosts: [], text: "", navLinks: [], navigationProblems: [] };
  const isOtherHost = (raw: string) => {
    const target = new URL(raw);
    if (target.protocol === "data:" || target.protocol === "blob:" || target.protocol === "about:") return false;
    return target.protocol === "file:" ? ownHost !== "" : target.host !== ownHost;
  };
  context.on("request", (request) => {
    if (isOtherHost(request.url())) visit.otherHosts.push(request.url());
  });
  // Nothing leaves the machine even when a page tries: the attempt is recorded above, then refused.
  await context.route("**/*", (route) => (isOtherHost(route.request().url()) ? route.abort("blockedbyclient") : route.continue()));
  const page = await context.newPage();
  page.on("console", (message) => {
    if (message.type() === "error") visit.consoleErrors.push(`${message.text()} (${message.location().url || "page"})`);
  });
  page.on("pageerror", (error) => visit.consoleErrors.push(`uncaught: ${error.message}`));
  page.on("requestfailed", (request) => visit.failedRequests.push(`${request.url()}: ${request.failure()?.errorText ?? "failed"}`));
  page.on("response", (response) => {
    if (response.status() >= 400) visit.failedRequests.push(`${response.url()}: HTTP ${response.status()}`);
  });
  try {
    const response = await page.goto(url, { waitUntil: "networkidle" });
    if (response && !response.ok()) visit.failedRequests.push(`${url}: HTTP ${response.status()}`);
    // Redoc opens on the overview (operations come per tag, below); the other pages show their first wanted text.
    await waitForTexts(page, id === "api" ? apiTags().slice(0, 1) : WANTED[id].texts.slice(0, 1).map((t) => t.text));
    await page.screenshot({ path: path.join(ARTIFACTS, `${id}.png`), fullPage: true });
    visit.navLinks = await page.$$eval("#site-nav a", (links) =>
      links.map((link) => ({ label: link.textContent ?? "", href: link.getAttribute("href") ?? "", resolved: (link as HTMLAnchorElement).href })),
    );
    visit.text = await page.evaluate(() => document.body.innerText);
    if (id === "api") visit.text += "\n" + (await visitApiSections(page, visit));
    // Late requests (images, fonts, telemetry) count too.
    await page.waitForLoadState("networkidle");
  } finally {
    await context.close();
  }
  return visit;
}

async function waitForTexts(page: Page, texts: string[]): Promise<void> {
  await page
    .waitForFunction(
      (wanted) => {
        const shown = document.body.innerText.replace(/\s+/g, " ");
        return wanted.every((text) => shown.includes(text));
      },
      texts.map(visible),
      { timeout: RENDER_WAIT_MS },
    )
    // The test that needs the text reports what is missing.
    .catch(() => undefined);
}

/**
 * Redoc 3 shows one tag at a time: the sidebar entry of each tag opens its operations. Each tag of
 * the spec is clicked as a reader would, and the text of every section is collected.
 */
const apiTags = () => [...new Set(operations.flatMap((operation) => operation.tags))];

async function visitApiSections(page: Page, visit: Visit): Promise<string> {
  const tags = apiTags();
  const texts: string[] = [];
  for (const tag of tags) {
    const entry = page.getByRole("link", { name: tag, exact: true }).first();
    if ((await entry.count()) === 0) {
      visit.navigationProblems.push(`no sidebar entry for the tag "${tag}"`);
      continue;
    }
    await entry.click();
    await waitForTexts(
      page,
      operations.filter((operation) => operation.tags.includes(tag)).map((operation) => operation.summary),
    );
    texts.push(await page.evaluate(() => document.body.innerText));
  }
  return texts.join("\n");
}

beforeAll(async () => {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  // Built apart from site/ so the test leaves the reader's copy alone; the mock serves it the same way.
  site = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "docs-site-")), "site");
  await buildDocs({ outDir: site });
  mock = await startMock({ port: 0, docsDir: site, rateLimit: "off" });
  browser = await launchChromium();
  const ownHost = new URL(mock.url).host;
  for (const page of PAGES) visits.set(page.id, await visitPage(page.id, `${mock.docsUrl}${page.file}`, ownHost));
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await mock?.close();
  if (site) fs.rmSync(path.dirname(site), { recursive: true, force: true });
});

const visitOf = (id: PageId): Visit => {
  const visit = visits.get(id);
  if (!visit) throw new Error(`${id}: the page was not visited`);
  return visit;
};

const CASES = PAGES.map((page) => [page.file, { id: page.id, want: WANTED[page.id] }] as const);

describe.each(CASES)("%s, served by the mock under /docs", (file, { id, want }) => {
  test("logs no console error", () => {
    expect(visitOf(id).consoleErrors, `${file}: console errors`).toEqual([]);
  });

  test("has no failed request", () => {
    expect(visitOf(id).failedRequests, `${file}: failed requests`).toEqual([]);
  });

  test("makes no request to another host", () => {
    expect(visitOf(id).otherHosts, `${file}: requests to other hosts`).toEqual([]);
  });

  test(`shows ${want.what}`, () => {
    const visit = visitOf(id);
    const shown = visible(visit.text);
    const missing = want.texts.filter(({ text }) => !shown.includes(visible(text))).map(({ label }) => label);
    expect(visit.navigationProblems, `${file}: could not open every section`).toEqual([]);
    expect(want.texts.length, `${file}: nothing to look for (is the spec empty?)`).toBeGreaterThan(0);
    expect(missing, `${file}: not shown (${missing.length} of ${want.texts.length})`).toEqual([]);
  });

  test("has the site nav, linking every page relatively", () => {
    const links = visitOf(id).navLinks;
    expect(
      links.map((link) => ({ label: link.label, href: link.href, resolved: link.resolved })),
      `${file}: nav links`,
    ).toEqual(PAGES.map((page) => ({ label: page.label, href: page.file, resolved: `${mock.docsUrl}${page.file}` })));
  });
});

test("the site works from the file system: each nav link of the landing page opens its page", async () => {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const opened: string[] = [];
  try {
    const page = await context.newPage();
    const start = pathToFileURL(path.join(site, "index.html")).href;
    for (const target of PAGES) {
      await page.goto(start);
      await page.getByRole("link", { name: target.label, exact: true }).first().click();
      await page.waitForLoadState("load");
      const current = new URL(page.url());
      opened.push(`${target.label} → ${path.basename(current.pathname)}`);
    }
  } finally {
    await context.close();
  }
  expect(opened, "nav links followed from file://…/index.html").toEqual(PAGES.map((page) => `${page.label} → ${page.file}`));
});
