// The docs site where people read it: every page at a phone's width (375 px) scrolls only
// downwards and logs no console error, and widened to 1400 px no command of the site's own pages is
// cut off; then every link inside the site is followed: no link points at a missing page or anchor.
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openContext } from "../support/browser.js";
import { ARTIFACTS, isOwnPage, openSite, RENDER_WAIT_MS, visitPage, type Site } from "./site-support.js";

const PHONE = { width: 375, height: 800 };
const WIDE = { width: 1400, height: 900 };

interface Measure {
  /** How far the page scrolls sideways, in px (0: it does not). */
  sideways: number;
  /** The elements wider than the window, the widest first (what makes the page scroll). */
  overflowing: string[];
  /** Code blocks and tables whose content is wider than their box: cut off, or scrolling inside. */
  clipped: string[];
  links: Array<{ href: string; resolved: string }>;
  ids: string[];
}

/** What the page measures in the browser, at the width it was opened with. */
function measure(page: Page): Promise<Measure> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const describe = (element: Element) => {
      const text = (element.textContent ?? "").replace(/\s+/g, " ").trim().slice(0, 50);
      return `<${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ""}> "${text}"`;
    };
    const overflowing = [...document.body.querySelectorAll("*")]
      .map((element) => ({ element, right: element.getBoundingClientRect().right }))
      .filter(({ element, right }) => right > width + 1 && element.getClientRects().length > 0 && getComputedStyle(element).position !== "fixed")
      .sort((a, b) => b.right - a.right)
      .slice(0, 5)
      .map(({ element, right }) => `${describe(element)} reaches ${Math.round(right)} px`);
    const clipped = [...document.querySelectorAll("main pre, main table")]
      .filter((element) => element.scrollWidth > element.clientWidth + 1)
      .map((element) => `${describe(element)}: ${element.scrollWidth} px of content in ${element.clientWidth} px`);
    return {
      sideways: document.documentElement.scrollWidth - width,
      overflowing,
      clipped,
      links: [...document.querySelectorAll("a[href]")].map((a) => ({ href: a.getAttribute("href") ?? "", resolved: (a as HTMLAnchorElement).href })),
      ids: [...document.querySelectorAll("[id]")].map((element) => element.id),
    };
  });
}

let site: Site;
const phone = new Map<string, Measure & { consoleErrors: string[] }>();
const wide = new Map<string, Measure & { consoleErrors: string[] }>();

/** The page widened to `size`, once it has laid itself out again (a resize reaches its scripts before the next frames). */
async function resize(page: Page, size: { width: number; height: number }): Promise<void> {
  await page.setViewportSize(size);
  await page.waitForFunction((width) => window.innerWidth === width, size.width);
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

beforeAll(async () => {
  site = await openSite();
  // Each page is opened once, at a phone's width, then widened to 1400 px and measured again, as a
  // window is resized (site.test.ts opens every page at a desktop width).
  for (const file of site.files) {
    const visit = await visitPage(site, file, PHONE, async (page, seen) => {
      await page.screenshot({ path: path.join(ARTIFACTS, `375-${file.replace(/\.html$/, ".png")}`) });
      const atPhone = { ...(await measure(page)), consoleErrors: [...seen.consoleErrors] };
      await resize(page, WIDE);
      return { atPhone, atWide: await measure(page) };
    });
    phone.set(file, visit.atPhone);
    wide.set(file, { ...visit.atWide, consoleErrors: visit.consoleErrors });
  }
}, 600_000);

afterAll(() => site?.close());

const problemsByPage = (check: (file: string) => string[]) =>
  Object.fromEntries(site.files.map((file) => [file, check(file)]).filter(([, problems]) => problems.length > 0));

describe("at 375 px, a phone's width", () => {
  test("no page scrolls sideways", () => {
    const problems = problemsByPage((file) => {
      const { sideways, overflowing } = phone.get(file)!;
      return sideways > 0 ? [`scrolls ${sideways} px sideways`, ...overflowing] : [];
    });
    expect(problems, "pages wider than the phone's screen").toEqual({});
  });

  test("the site's own pages show every code block and table whole, wrapped to the width", () => {
    expect(problemsByPage((file) => (isOwnPage(file) ? phone.get(file)!.clipped : [])), "cut off at 375 px").toEqual({});
  });

  test("no page logs a console error", () => {
    expect(problemsByPage((file) => phone.get(file)!.consoleErrors), "console errors at 375 px").toEqual({});
  });
});

describe("at 1400 px", () => {
  test("no command or table of the site's own pages is cut off (the landing page's quick starts included)", () => {
    expect(problemsByPage((file) => (isOwnPage(file) ? wide.get(file)!.clipped : [])), "cut off at 1400 px").toEqual({});
  });

  test("no page scrolls sideways or logs a console error", () => {
    const problems = problemsByPage((file) => {
      const { sideways, overflowing, consoleErrors } = wide.get(file)!;
      return [...(sideways > 0 ? [`scrolls ${sideways} px sideways`, ...overflowing] : []), ...consoleErrors];
    });
    expect(problems).toEqual({});
  });
});

describe("every link inside the site", () => {
  /**
   * Each link of every page, by where it points: a page of the site (and an anchor in it), or
   * elsewhere. A link is followed as a new tab would open it, by its href: the reference's routes are
   * hash links ("api.html#/section/limits"), a root path ("/section/limits") leaves the site.
   */
  function targets(): { pages: Map<string, Set<string>>; broken: string[] } {
    const pages = new Map<string, Set<string>>();
    const broken: string[] = [];
    const docsRoot = new URL(site.url(""));
    for (const [from, { links }] of wide) {
      for (const { href, resolved } of links) {
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
        const ids = new Set(wide.get(file)!.ids);
        missing.push(...[...fragments].filter((fragment) => !ids.has(fragment)).map((fragment) => `${file}#${fragment}`));
        continue;
      }
      const context = await openContext(site.browser, { viewport: WIDE });
      try {
        const page = await context.newPage();
        await page.goto(site.url(file), { waitUntil: "load" });
        for (const fragment of fragments) {
          // The reference pages render by script; Redoc renders a route's section when the hash names it.
          await page.evaluate((hash) => (location.hash = hash), fragment);
          const id = file === "api.html" && fragment.startsWith("/") ? fragment.slice(1) : fragment;
          const found = await page
            .waitForFunction((wanted) => document.getElementById(wanted) !== null, id, { timeout: RENDER_WAIT_MS })
            .then(() => true)
            .catch(() => false);
          if (!found) missing.push(`${file}#${fragment}`);
        }
      } finally {
        await context.close();
      }
    }
    expect(missing, "links to anchors their page does not have").toEqual([]);
    expect([...pages.values()].reduce((sum, fragments) => sum + fragments.size, 0), "anchors linked").toBeGreaterThan(20);
  }, 180_000);

  test("a menu link of the API reference, opened in a new tab, shows its section", async () => {
    const links = wide.get("api.html")!.links.filter(({ href }) => href.startsWith("#/"));
    const chosen = [links.find(({ href }) => href.startsWith("#/section/")), links.find(({ href }) => /^#\/[a-z-]+$/.test(href))];
    expect(chosen.every(Boolean), `a section's and a tag's link among ${links.map((l) => l.href).slice(0, 10).join(" ")}`).toBe(true);
    const context = await site.browser.newContext({ viewport: WIDE });
    try {
      for (const { href, resolved } of chosen as { href: string; resolved: string }[]) {
        const page = await context.newPage();
        const answer = await page.goto(resolved, { waitUntil: "load" });
        expect(answer?.status(), `opening ${resolved}`).toBe(200);
        const shown = await page.waitForFunction((id) => document.getElementById(id) !== null, href.slice(2), { timeout: RENDER_WAIT_MS }).then(() => true, () => false);
        expect(shown, `${resolved} shows the section ${href.slice(2)}`).toBe(true);
        await page.close();
      }
    } finally {
      await context.close();
    }
  }, 60_000);
});
