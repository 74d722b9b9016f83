// The docs site in a browser, as users open it: built by `npm run docs`'s build function, served by
// the mock under /docs, each page loaded in headless Chromium (Debian's, driven by playwright-core)
// at 1280 px. Every page: no console error, no failed request, no request to another host, the
// shared nav linking every page and guide; each reference shows everything its document holds, each
// guide its sections. A screenshot of each page is saved under test-artifacts/docs/.
// site-layout.test.ts checks the widths (375 px, 1400 px) and follows every link.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { PAGES } from "../../scripts/docs/layout.js";
import { openContext } from "../support/browser.js";
import { ARTIFACTS, openSite, visible, visitPage, waitForTexts, type Site, type Visit } from "./site-support.js";
import { operations, wantedOf } from "./site-wanted.js";

const VIEWPORT = { width: 1280, height: 900 };

let site: Site;
const visits = new Map<string, Visit & { text: string; navLinks: string[]; navigationProblems: string[] }>();

/**
 * Redoc 3 shows one tag at a time: the sidebar entry of each tag opens its operations. Each tag of
 * the spec is clicked as a reader would, and the text of every section is collected.
 */
const apiTags = () => [...new Set(operations.flatMap((operation) => operation.tags))];

async function visitApiSections(page: Page, problems: string[]): Promise<string> {
  const texts: string[] = [];
  for (const tag of apiTags()) {
    const entry = page.getByRole("link", { name: tag, exact: true }).first();
    if ((await entry.count()) === 0) {
      problems.push(`no sidebar entry for the tag "${tag}"`);
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
  site = await openSite();
  for (const file of site.files) {
    const visit = await visitPage(site, file, VIEWPORT, async (page) => {
      const navigationProblems: string[] = [];
      const wanted = wantedOf(file, site.guides).texts.slice(0, 1).map((t) => t.text);
      if (file !== "api.html") await waitForTexts(page, wanted);
      await page.screenshot({ path: path.join(ARTIFACTS, file.replace(/\.html$/, ".png")) });
      const navLinks = await page.$$eval("#site-nav a", (links) => links.map((link) => link.getAttribute("href") ?? ""));
      let text = await page.evaluate(() => document.body.innerText);
      if (file === "api.html") text += "\n" + (await visitApiSections(page, navigationProblems));
      return { text, navLinks, navigationProblems };
    }, { settle: true });
    visits.set(file, visit);
  }
}, 300_000);

afterAll(() => site?.close());

const visitOf = (file: string) => {
  const visit = visits.get(file);
  if (!visit) throw new Error(`${file}: the page was not visited`);
  return visit;
};

test("the site has every page of PAGES and a page per guide", () => {
  expect(site.files).toEqual([...PAGES.map((page) => page.file), ...site.guides.map((guide) => guide.file)]);
  expect(site.guides.length, "guides").toBeGreaterThanOrEqual(9);
});

describe("every page, served by the mock under /docs at 1280 px", () => {
  /** One test over every page: the problems of each page that has any, by file. */
  const each = (name: string, problemsOf: (file: string) => string[]) =>
    test(name, () => {
      const problems = Object.fromEntries(site.files.map((file) => [file, problemsOf(file)]).filter(([, found]) => found.length > 0));
      expect(problems, `pages where: ${name}, fails`).toEqual({});
    });

  each("logs no console error", (file) => visitOf(file).consoleErrors);
  each("has no failed request", (file) => visitOf(file).failedRequests);
  each("makes no request to another host", (file) => visitOf(file).otherHosts);

  each("shows what it is for: the references everything their documents hold, a guide its sections", (file) => {
    const visit = visitOf(file);
    const want = wantedOf(file, site.guides);
    const shown = visible(visit.text);
    if (want.texts.length === 0) return [`nothing to look for (is the spec empty?)`];
    const missing = want.texts.filter(({ text }) => !shown.includes(visible(text))).map(({ label }) => `not shown: ${label}`);
    return [...visit.navigationProblems, ...missing];
  });

  each("has the site nav, linking every page and every guide relatively", (file) => {
    const linked = new Set(visitOf(file).navLinks);
    return [
      ...site.files.filter((target) => !linked.has(target)).map((target) => `no nav link to ${target}`),
      ...[...linked].filter((href) => !site.files.includes(href)).map((href) => `a nav link to ${href}, which is no page of the site`),
    ];
  });
});

test("the site works from the file system: each nav link of the landing page opens its page", async () => {
  const context = await openContext(site.browser, { viewport: VIEWPORT });
  const opened: string[] = [];
  try {
    const page = await context.newPage();
    const start = pathToFileURL(path.join(site.dir, "index.html")).href;
    for (const file of site.files.filter((f) => f !== "index.html")) {
      await page.goto(start);
      // The guides sit in the nav's Guides list, which a click opens, as a reader's would.
      if (site.guides.some((guide) => guide.file === file)) await page.locator("#site-nav .site-guides summary").click();
      // Where the click leads, once the browser has committed to it (that the page then shows what
      // it should is the visits' test above; here, only that the link works from file://).
      await Promise.all([page.waitForURL((url) => url.protocol === "file:" && url.pathname.endsWith(`/${file}`), { waitUntil: "commit" }), page.locator(`#site-nav .site-links a[href="${file}"]`).click()]);
      const reached = fileURLToPath(page.url());
      opened.push(`${file} → ${path.basename(reached)}${fs.existsSync(reached) ? "" : " (no such file)"}`);
    }
  } finally {
    await context.close();
  }
  expect(opened, "nav links followed from file://…/index.html").toEqual(site.files.filter((f) => f !== "index.html").map((file) => `${file} → ${file}`));
}, 300_000);
