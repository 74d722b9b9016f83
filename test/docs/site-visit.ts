// Every page of the docs site visited once for all the browser checks of test/docs/site.test.ts: loaded
// at a phone's width (375 px) and measured, widened to 1400 px and measured again (as a window is
// resized), then read at a desktop's width (1280 px): the text it shows, its nav. A width's screenshot
// is taken only of a page that fails a check of that width (the reader's evidence, named in the
// failure): a screenshot of every page at 1280 px cost a quarter of the site's own pages' CPU. A page
// may be opened from a link into it (VisitPlan.entry): one load serves that link's check too.
// - One context for the whole site, as one reader's browser: the site's own pages in turn in one tab,
//   each reference (rendered by script) in a tab of its own, left open for the anchor walk. A fresh
//   context per page cost a renderer's start each, most of a page's CPU.
// - Requests to other hosts are refused by the context's route (nothing leaves the machine);
//   each tab records its console errors, failed requests and requests to other hosts for the page
//   it shows.
import fs from "node:fs";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { openContext } from "../support/browser.js";
import { ARTIFACTS, isOwnPage, renderedText, waitForTexts, type Site } from "./site-support.js";

export const PHONE = { width: 375, height: 800 };
export const DESKTOP = { width: 1280, height: 900 };
export const WIDE = { width: 1400, height: 900 };

export interface Measure {
  /** How far the page scrolls sideways, in px (0: it does not). */
  sideways: number;
  /** The elements wider than the window, the widest first (what makes the page scroll). */
  overflowing: string[];
  /** Code blocks and tables whose content is wider than their box: cut off, or scrolling inside. */
  clipped: string[];
  links: Array<{ href: string; resolved: string }>;
  ids: string[];
  /** The console errors logged until then. */
  consoleErrors: string[];
  /** Where the page was saved as it looked, when it scrolled sideways or cut a block of its own off. */
  screenshot?: string;
}

/** What happened while a page was shown: console errors, failed requests, requests to other hosts. */
export interface Recorded {
  consoleErrors: string[];
  failedRequests: string[];
  otherHosts: string[];
}

export interface PageVisit {
  /** Where the page was opened from: its own URL, or a link into it (VisitPlan.entry), and what its check found wrong. */
  entry: { url: string; problems: string[] };
  /** As loaded at 375 px. */
  phone: Measure;
  /** Widened from 375 to 1400 px. */
  wide: Measure;
  /** At 1280 px, with everything recorded during the whole visit; saved as test-artifacts/docs/<page>.png when VisitPlan.failsAt1280. */
  desktop: Desktop & { screenshot?: string };
}

/** What a page showed at 1280 px, with everything recorded during its visit. */
export interface Desktop extends Recorded {
  text: string;
  navLinks: string[];
  navigationProblems: string[];
  clickedIds: string[];
}

export interface VisitPlan {
  /**
   * For a page opened from a link into it (a reader following a shared link): the hash it is opened
   * at, and what the page must show once opened there (its problems). Other pages are opened by their URL.
   */
  entry(file: string): { hash: string; check(page: Page): Promise<string[]> } | undefined;
  /** The texts the page shows once rendered, all waited for at 1280 px before it is read (a renderer may draw a long page in steps). */
  shownTexts(file: string): string[];
  /** For a page a reader clicks through to see all it holds: the text shown that way, and the ids of the elements shown on the way. */
  clickThrough(file: string, page: Page, problems: string[]): Promise<{ text: string; ids: string[] }>;
  /** Whether a check at 1280 px fails on what the page showed (then it is saved as it looks). */
  failsAt1280(file: string, desktop: Desktop): boolean;
}

export interface SiteVisit {
  pages: Map<string, PageVisit>;
  /** The tab of each page rendered by script, open as the visit left it (for the anchor walk). */
  rendered: Map<string, Page>;
  /** A tab of the visit's context (the same route), for a page opened anew. */
  newTab(): Promise<Page>;
  close(): Promise<void>;
}

/** What the page measures in the browser, at the width it shows. */
function measure(page: Page): Promise<Omit<Measure, "consoleErrors">> {
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

/**
 * The page resized to `size`. A page with script is measured once it has laid itself out again (a
 * resize reaches its scripts before the next frames). A page without script has nothing that
 * reacts to a resize but its layout, which reading a size forces: waiting for its frames drew
 * each width of each page for nothing the checks read.
 */
async function resize(page: Page, size: { width: number; height: number }, scripted: boolean): Promise<void> {
  await page.setViewportSize(size);
  await page.waitForFunction((width) => window.innerWidth === width, size.width);
  if (scripted) await nextFrames(page);
}

/** Two frames later: what the page's scripts did until now is drawn. */
const nextFrames = (page: Page) => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

const artifact = (name: string) => path.join(ARTIFACTS, name);

/** Measured at the width the page shows; saved as `<width>-<page>.png` when a check of that width will fail. */
async function measureAt(file: string, page: Page, recorded: Recorded): Promise<Measure> {
  const measured = { ...(await measure(page)), consoleErrors: [...recorded.consoleErrors] };
  if (measured.sideways <= 0 && !(isOwnPage(file) && measured.clipped.length > 0)) return measured;
  const screenshot = artifact(`${page.viewportSize()?.width}-${file.replace(/\.html$/, ".png")}`);
  await page.screenshot({ path: screenshot });
  return { ...measured, screenshot };
}

interface Tab {
  page: Page;
  /** Loads a page of the site (at `hash`) at the tab's width and waits for it to show its content; records what happens until the next load. */
  load(file: string, hash?: string): Promise<Recorded>;
  /** Once no request of the page is on its way (late ones, as a font, are recorded too). */
  settled(): Promise<void>;
}

async function openTab(site: Site, context: BrowserContext, isOtherHost: (url: string) => boolean): Promise<Tab> {
  const page = await context.newPage();
  let record: Recorded = { consoleErrors: [], failedRequests: [], otherHosts: [] };
  const onTheirWay = new Set<unknown>();
  let whenSettled = () => {};
  const done = (request: unknown) => {
    onTheirWay.delete(request);
    if (onTheirWay.size === 0) whenSettled();
  };
  page.on("request", (request) => {
    onTheirWay.add(request);
    if (isOtherHost(request.url())) record.otherHosts.push(request.url());
  });
  page.on("requestfinished", done);
  page.on("requestfailed", (request) => {
    record.failedRequests.push(`${request.url()}: ${request.failure()?.errorText ?? "failed"}`);
    done(request);
  });
  page.on("response", (response) => {
    if (response.status() >= 400) record.failedRequests.push(`${response.url()}: HTTP ${response.status()}`);
  });
  page.on("console", (message) => {
    if (message.type() === "error") record.consoleErrors.push(`${message.text()} (${message.location().url || "page"})`);
  });
  page.on("pageerror", (error) => record.consoleErrors.push(`uncaught: ${error.message}`));
  return {
    page,
    async load(file, hash = "") {
      const mine: Recorded = (record = { consoleErrors: [], failedRequests: [], otherHosts: [] });
      const response = await page.goto(site.url(file) + hash, { waitUntil: "load" });
      if (response && !response.ok()) mine.failedRequests.push(`${file}: HTTP ${response.status()}`);
      const wanted = renderedText(file);
      if (wanted) await waitForTexts(page, [wanted]);
      return mine;
    },
    settled: () => (onTheirWay.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => (whenSettled = resolve))),
  };
}

/** Visits every page of the site once; the references' tabs stay open until close(). */
export async function visitSite(site: Site, plan: VisitPlan): Promise<SiteVisit> {
  // The screenshots of problems are this run's only: none left from an earlier one.
  for (const name of fs.readdirSync(ARTIFACTS)) if (name.endsWith(".png")) fs.rmSync(artifact(name));
  const context = await openContext(site.browser, { viewport: PHONE });
  const isOtherHost = (raw: string) => {
    const target = new URL(raw);
    if (target.protocol === "data:" || target.protocol === "blob:" || target.protocol === "about:") return false;
    return target.protocol === "file:" || target.host !== site.ownHost;
  };
  await context.route("**/*", (route) => (isOtherHost(route.request().url()) ? route.abort("blockedbyclient") : route.continue()));
  const own = await openTab(site, context, isOtherHost);
  const pages = new Map<string, PageVisit>();
  const rendered = new Map<string, Page>();
  for (const file of site.files) {
    const tab = isOwnPage(file) ? own : await openTab(site, context, isOtherHost);
    // The tab in use is brought to the front: resizing and screenshots wait for its animation frames.
    await tab.page.bringToFront();
    if (tab === own) await tab.page.setViewportSize(PHONE);
    const entry = plan.entry(file);
    const recorded = await tab.load(file, entry?.hash);
    const opened = { url: site.url(file) + (entry?.hash ?? ""), problems: entry ? await entry.check(tab.page) : [] };
    const scripted = await tab.page.evaluate(() => document.scripts.length > 0);
    const phone = await measureAt(file, tab.page, recorded);
    await resize(tab.page, WIDE, scripted);
    const wide = await measureAt(file, tab.page, recorded);
    await resize(tab.page, DESKTOP, scripted);
    const wanted = plan.shownTexts(file);
    const shownOnceAll = wanted.length > 0 ? await waitForTexts(tab.page, wanted) : undefined;
    const navLinks = await tab.page.$$eval("#site-nav a", (links) => links.map((link) => link.getAttribute("href") ?? ""));
    const navigationProblems: string[] = [];
    const shown = shownOnceAll ?? (await tab.page.evaluate(() => document.body.innerText));
    const clicked = await plan.clickThrough(file, tab.page, navigationProblems);
    const text = [shown, clicked.text].join("\n");
    // Late requests count too. A page without script, once laid out at every width, asks for
    // nothing more than what is on its way; one with script may, until the network has been idle.
    if (scripted) await tab.page.waitForLoadState("networkidle");
    else await tab.settled();
    if (tab !== own) rendered.set(file, tab.page);
    // The recorded lists go on filling while the tab stays open (a reference's, for the anchor walk).
    const desktop: PageVisit["desktop"] = { ...recorded, text, navLinks, navigationProblems, clickedIds: clicked.ids };
    if (plan.failsAt1280(file, desktop)) {
      desktop.screenshot = artifact(file.replace(/\.html$/, ".png"));
      await nextFrames(tab.page); // a renderer may still be drawing what the last click showed
      await tab.page.screenshot({ path: desktop.screenshot });
    }
    pages.set(file, { entry: opened, phone, wide, desktop });
  }
  return { pages, rendered, newTab: () => context.newPage(), close: () => context.close() };
}
