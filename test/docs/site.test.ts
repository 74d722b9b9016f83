// The docs site in a browser, as users open it: built by `npm run docs`'s build function, served by
// the mock under /docs, each page visited once in headless Chromium (Debian's, driven by
// playwright-core): loaded at a phone's width (375 px), widened to 1400 px, read at 1280 px
// (test/docs/site-visit.ts).
// - At 1280 px every page: no console error, no failed request, no request to another host, the
//   shared nav linking every page and guide; each reference shows everything its document holds,
//   each guide its sections. A page that fails any of these is saved as it looked under
//   test-artifacts/docs/ (as one failing at 375 or 1400 px is), and the failure names the file.
// - At 375 px every page scrolls only downwards and logs no console error, and no code block or
//   table of the site's own pages is cut off; widened to 1400 px, none scrolls sideways and no
//   command is cut off.
// - Every link inside the site is followed: no link points at a missing page or anchor.
// - The API reference is visited from its first menu link to a section, as a link opened in a new
//   tab; a tag's link is opened in a tab of its own: each shows its section.
// site-files.test.ts opens the site from the file system.
import fs from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { PAGES } from "../../scripts/docs/layout.js";
import { repoRoot } from "../../scripts/build-docs.js";
import { isOwnPage, openSite, POLL_MS, RENDER_WAIT_MS, visible, waitForTexts, type Site } from "./site-support.js";
import { visitSite, WIDE, type Desktop, type Measure, type PageVisit, type SiteVisit } from "./site-visit.js";
import { operations, wantedOf } from "./site-wanted.js";

let site: Site;
let visit: SiteVisit;

/**
 * Redoc 3 shows one tag at a time: the sidebar entry of each tag opens its operations. Each tag of
 * the spec is clicked as a reader would, and the text of every section is collected, with the ids
 * of its elements (the anchors its operations' links point at, for the anchor walk).
 */
const apiTags = () => [...new Set(operations.flatMap((operation) => operation.tags))];

async function visitApiSections(page: Page, problems: string[]): Promise<{ text: string; ids: string[] }> {
  const texts: string[] = [];
  const ids = new Set<string>();
  for (const tag of apiTags()) {
    const entry = page.getByRole("link", { name: tag, exact: true }).first();
    if ((await entry.count()) === 0) {
      problems.push(`no sidebar entry for the tag "${tag}"`);
      continue;
    }
    await entry.click();
    const summaries = operations.filter((operation) => operation.tags.includes(tag)).map((operation) => operation.summary);
    texts.push((await waitForTexts(page, summaries)) ?? (await page.evaluate(() => document.body.innerText)));
    for (const id of await page.evaluate(() => [...document.querySelectorAll("[id]")].map((element) => element.id))) ids.add(id);
  }
  return { text: texts.join("\n"), ids: [...ids] };
}

/**
 * The API reference is opened from the first of its prerendered menu links to a section, as a reader
 * opens a copied or shared link (in a new tab): the visit's one load of the 2.5 MB page checks that
 * the link shows its section, and everything else is read from that tab. A tag's link is opened in a
 * tab of its own (the test "a menu link … opened in a new tab").
 */
const SECTION_LINK = /href="(#\/section\/[^"]+)" data-discover="true"/;
/** Redoc's element for a route "#/section/scope" is id="section/scope". */
const shows = (page: Page, href: string) =>
  page
    .waitForFunction((id) => document.getElementById(id) !== null, href.slice(2), { timeout: RENDER_WAIT_MS, polling: POLL_MS })
    .then(() => true, () => false);

/** The checks of every page at 1280 px: each a page's problems, from what the visit read there. */
const AT_1280: Array<[string, (file: string, desktop: Desktop) => string[]]> = [
  ["logs no console error", (_file, desktop) => desktop.consoleErrors],
  ["has no failed request", (_file, desktop) => desktop.failedRequests],
  ["makes no request to another host", (_file, desktop) => desktop.otherHosts],
  [
    "shows what it is for: the references everything their documents hold, a guide its sections",
    (file, desktop) => {
      const want = wantedOf(file, site.guides);
      const shown = visible(desktop.text);
      if (want.texts.length === 0) return [`nothing to look for (is the spec empty?)`];
      const missing = want.texts.filter(({ text }) => !shown.includes(visible(text))).map(({ label }) => `not shown: ${label}`);
      return [...desktop.navigationProblems, ...missing];
    },
  ],
  [
    "has the site nav, linking every page and every guide relatively",
    (_file, desktop) => {
      const linked = new Set(desktop.navLinks);
      return [
        ...site.files.filter((target) => !linked.has(target)).map((target) => `no nav link to ${target}`),
        ...[...linked].filter((href) => !site.files.includes(href)).map((href) => `a nav link to ${href}, which is no page of the site`),
      ];
    },
  ],
];

beforeAll(async () => {
  site = await openSite();
  const sectionLink = fs.readFileSync(path.join(site.dir, "api.html"), "utf8").match(SECTION_LINK)?.[1];
  visit = await visitSite(site, {
    entry: (file) =>
      file !== "api.html"
        ? undefined
        : sectionLink
          ? { hash: sectionLink, check: async (page) => ((await shows(page, sectionLink)) ? [] : [`the section ${sectionLink.slice(2)} is not shown`]) }
          : { hash: "", check: async () => ['no prerendered menu link to a section (href="#/section/…" data-discover="true") in api.html'] },
    // The API reference shows its operations only once their tag is clicked (visitApiSections).
    shownTexts: (file) => (file === "api.html" ? [] : wantedOf(file, site.guides).texts.map(({ text }) => text)),
    clickThrough: async (file, page, problems) => (file === "api.html" ? visitApiSections(page, problems) : { text: "", ids: [] }),
    failsAt1280: (file, desktop) => AT_1280.some(([, check]) => check(file, desktop).length > 0),
  });
}, 600_000);

afterAll(async () => {
  await visit?.close();
  await site?.close();
});

const visitOf = (file: string): PageVisit => {
  const visited = visit.pages.get(file);
  if (!visited) throw new Error(`${file}: the page was not visited`);
  return visited;
};

/** A page's problems, with where it was saved as it looked when there are any. */
const seeing = (problems: string[], screenshot: string | undefined) =>
  problems.length > 0 && screenshot ? [...problems, `as it looked: ${path.relative(repoRoot, screenshot)}`] : problems;

test("the site has every page of PAGES and a page per guide", () => {
  expect(site.files).toEqual([...PAGES.map((page) => page.file), ...site.guides.map((guide) => guide.file)]);
  expect(site.guides.length, "guides").toBeGreaterThanOrEqual(9);
});

describe("every page, served by the mock under /docs at 1280 px", () => {
  // One test per check over every page: the problems of each page that has any, by file.
  test.each(AT_1280)("%s", (name, check) => {
    const problems = Object.fromEntries(
      site.files.map((file) => [file, seeing(check(file, visitOf(file).desktop), visitOf(file).desktop.screenshot)]).filter(([, found]) => found.length > 0),
    );
    expect(problems, `pages where: ${name}, fails`).toEqual({});
  });
});

const problemsByPage = (check: (file: string) => string[]) =>
  Object.fromEntries(site.files.map((file) => [file, check(file)]).filter(([, problems]) => problems.length > 0));

const scrolling = ({ sideways, overflowing }: Measure) => (sideways > 0 ? [`scrolls ${sideways} px sideways`, ...overflowing] : []);

describe("at 375 px, a phone's width", () => {
  test("no page scrolls sideways", () => {
    const problems = problemsByPage((file) => seeing(scrolling(visitOf(file).phone), visitOf(file).phone.screenshot));
    expect(problems, "pages wider than the phone's screen").toEqual({});
  });

  test("the site's own pages show every code block and table whole, wrapped to the width", () => {
    const problems = problemsByPage((file) => (isOwnPage(file) ? seeing(visitOf(file).phone.clipped, visitOf(file).phone.screenshot) : []));
    expect(problems, "cut off at 375 px").toEqual({});
  });

  test("no page logs a console error", () => {
    expect(problemsByPage((file) => visitOf(file).phone.consoleErrors), "console errors at 375 px").toEqual({});
  });
});

describe("at 1400 px", () => {
  test("no command or table of the site's own pages is cut off (the landing page's quick starts included)", () => {
    const problems = problemsByPage((file) => (isOwnPage(file) ? seeing(visitOf(file).wide.clipped, visitOf(file).wide.screenshot) : []));
    expect(problems, "cut off at 1400 px").toEqual({});
  });

  test("no page scrolls sideways or logs a console error", () => {
    const problems = problemsByPage((file) => {
      const { wide } = visitOf(file);
      return [...seeing(scrolling(wide), wide.screenshot), ...wide.consoleErrors];
    });
    expect(problems).toEqual({});
  });
});

describe("every link inside the site", () => {
  /**
   * Each link of every page (as measured at 1400 px), by where it points: a page of the site (and
   * an anchor in it), or elsewhere. A link is followed as a new tab would open it, by its href: the
   * reference's routes are hash links ("api.html#/section/limits"), a root path ("/section/limits")
   * leaves the site.
   */
  function targets(): { pages: Map<string, Set<string>>; broken: string[] } {
    const pages = new Map<string, Set<string>>();
    const broken: string[] = [];
    const docsRoot = new URL(site.url(""));
    for (const from of site.files) {
      for (const { href, resolved } of visitOf(from).wide.links) {
        const url = new URL(resolved);
        if (url.origin !== docsRoot.origin) continue; // another site or mailto: not inside this one
        let file: string;
        const fragment = decodeURIComponent(url.hash.slice(1));
        if (url.pathname.startsWith(docsRoot.pathname)) file = url.pathname.slice(docsRoot.pathname.length) || "index.html";
        else {
          broken.push(`${from}: ${href} leaves the site (${url.pathname})`);
          continue;
        }
        if (!site.files.includes(file)) broken.push(`${from}: ${href} points at ${file}, which is no page of the site`);
        else if (!pages.has(file)) pages.set(file, new Set());
        // Redoc's "/" route is the reference's overview, the page's top.
        if (fragment && fragment !== "/" && site.files.includes(file)) pages.get(file)!.add(fragment);
      }
    }
    return { pages, broken };
  }

  test("points at a page the site has", () => {
    const { pages, broken } = targets();
    expect(broken, "links to pages the site does not have").toEqual([]);
    expect(pages.size, "pages linked").toBe(site.files.length);
  });

  test("points at an anchor its page has, once the page has rendered", async () => {
    const { pages } = targets();
    const missing: string[] = [];
    for (const [file, fragments] of pages) {
      if (isOwnPage(file)) {
        // Static pages: the ids measured when the page was opened.
        const ids = new Set(visitOf(file).wide.ids);
        missing.push(...[...fragments].filter((fragment) => !ids.has(fragment)).map((fragment) => `${file}#${fragment}`));
        continue;
      }
      // The reference pages render by script, in the tab their visit left open. An anchor the page
      // showed when it was measured, or while its tags were clicked through, is there; Redoc renders
      // another route's section once the hash names it (sorted, a tag's operations follow the tag,
      // which renders them all).
      const seen = new Set([...visitOf(file).wide.ids, ...visitOf(file).desktop.clickedIds]);
      const page = visit.rendered.get(file)!;
      await page.bringToFront();
      const present = (id: string) => document.getElementById(id) !== null;
      for (const fragment of [...fragments].sort()) {
        const id = file === "api.html" && fragment.startsWith("/") ? fragment.slice(1) : fragment;
        if (seen.has(id) || (await page.evaluate(present, id))) continue;
        await page.evaluate((hash) => (location.hash = hash), fragment);
        const found = await page
          .waitForFunction(present, id, { timeout: RENDER_WAIT_MS, polling: POLL_MS })
          .then(() => true)
          .catch(() => false);
        if (!found) missing.push(`${file}#${fragment}`);
      }
    }
    expect(missing, "links to anchors their page does not have").toEqual([]);
    expect([...pages.values()].reduce((sum, fragments) => sum + fragments.size, 0), "anchors linked").toBeGreaterThan(20);
  }, 180_000);

  test("a menu link of the API reference, opened in a new tab, shows its section", async () => {
    const links = visitOf("api.html").wide.links.filter(({ href }) => href.startsWith("#/"));
    // A section's link: the one the visit opened the reference from (one load of the page for both).
    const { entry } = visitOf("api.html");
    const section = links.find(({ resolved }) => resolved === entry.url);
    expect(section, `the page was opened at ${entry.url}, one of its menu links among ${links.map((l) => l.href).slice(0, 10).join(" ")}`).toBeDefined();
    expect(entry.problems, `opening ${entry.url}`).toEqual([]);
    // A tag's link, in a tab of its own.
    const tag = links.find(({ href }) => /^#\/[a-z-]+$/.test(href));
    expect(tag, `a tag's link among ${links.map((l) => l.href).slice(0, 10).join(" ")}`).toBeDefined();
    const { href, resolved } = tag!;
    const page = await visit.newTab();
    try {
      await page.setViewportSize(WIDE);
      const answer = await page.goto(resolved, { waitUntil: "load" });
      expect(answer?.status(), `opening ${resolved}`).toBe(200);
      expect(await shows(page, href), `${resolved} shows the section ${href.slice(2)}`).toBe(true);
    } finally {
      await page.close();
    }
  }, 60_000);
});
