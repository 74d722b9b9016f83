// What the browser suites of the docs site stand on: the site built by `npm run docs`'s build
// function (once per run, test/support/docs-site.ts), as a folder (openSiteFiles) or served by the
// mock under /docs as users open it (openSite), the run's Chromium, and what a page shows once rendered (test/docs/site-visit.ts visits them).
import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { startMock, type RunningMock } from "../../mock/index.js";
import { repoRoot } from "../../scripts/build-docs.js";
import { loadGuides, type Guide } from "../../scripts/docs/guides.js";
import { listEvents, listOperations } from "../../scripts/docs/spec-facts.js";
import { connectChromium } from "../support/browser.js";
import { builtDocsSite } from "../support/docs-site.js";

export const readJson = (file: string) => JSON.parse(fs.readFileSync(path.join(repoRoot, file), "utf8"));
export const openapi = readJson("generated/openapi.json");
export const asyncapi = readJson("generated/asyncapi.json");
export const ARTIFACTS = path.join(repoRoot, "test-artifacts", "docs");

/**
 * How long a page may take to show what it should once loaded (client-side rendering): a last
 * resort, many times what a busy machine needs; the test that needs the text names what is missing.
 */
export const RENDER_WAIT_MS = 60_000;

/** The built site as a folder, with the run's Chromium: what a reader opening it from the file system has. */
export interface SiteFiles {
  dir: string;
  browser: Browser;
  guides: Guide[];
  /** Every page the build wrote: PAGES, then the guides. */
  files: string[];
  close(): Promise<void>;
}

export interface Site extends SiteFiles {
  mock: RunningMock;
  url: (file: string) => string;
  ownHost: string;
}

export async function openSiteFiles(): Promise<SiteFiles> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const [built, browser] = await Promise.all([builtDocsSite(), connectChromium()]);
  const guides = await loadGuides(repoRoot, { operations: listOperations(openapi), events: listEvents(asyncapi) });
  return { dir: built.dir, browser, guides, files: built.pages, close: () => browser.close() };
}

/** The site served by the mock under /docs, as users open it. */
export async function openSite(): Promise<Site> {
  const files = await openSiteFiles();
  const mock = await startMock({ port: 0, docsDir: files.dir, rateLimit: "off" });
  return {
    ...files,
    mock,
    url: (file) => `${mock.docsUrl}${file}`,
    ownHost: new URL(mock.url).host,
    async close() {
      await files.close();
      await mock.close();
    },
  };
}

/** The pages whose content a script renders in the browser, and a text each shows once it has. */
export function renderedText(file: string): string | undefined {
  // Redoc's title: its sidebar (with the tags) is folded away on a phone's width.
  if (file === "api.html") return String(openapi.info?.title ?? "");
  if (file === "events.html") return String(Object.values<any>(asyncapi.components.messages)[0]?.name ?? "");
  return undefined;
}

/** The pages this repository writes itself (its CSS, its markup), as against the two renderers'. */
export const isOwnPage = (file: string) => renderedText(file) === undefined;

/** Whitespace collapsed and Markdown code marks dropped: what a reader sees, comparable with innerText. */
export const visible = (text: string) => text.replace(/`/g, "").replace(/\s+/g, " ").trim();

/**
 * How often a wait for a rendered page reads the page again. At every animation frame (Playwright's
 * default), each read of a reference's whole text forced a layout of its large DOM, and the frames
 * it asked for kept Chromium drawing while the page rendered.
 */
export const POLL_MS = 100;

/**
 * Waits until the page shows every one of `texts`; answers its text then (innerText, read once more
 * cost a layout of a reference's whole page), or undefined when it never showed them all.
 */
export async function waitForTexts(page: Page, texts: string[]): Promise<string | undefined> {
  const shown = await page
    .waitForFunction(
      (wanted) => {
        const text = document.body.innerText;
        const collapsed = text.replace(/\s+/g, " ");
        return wanted.every((one) => collapsed.includes(one)) ? { text } : undefined;
      },
      texts.map(visible),
      { timeout: RENDER_WAIT_MS, polling: POLL_MS },
    )
    // The test that needs the text reports what is missing.
    .catch(() => undefined);
  return (await shown?.jsonValue())?.text;
}
