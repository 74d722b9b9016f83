// How long a page waits for the MSW handlers' first answer (npm run size -- --first-answer): the
// handlers and the client bundled as the browser test bundles them (scripts/lib/msw-bundle.ts,
// minified, one file), served on 127.0.0.1 with MSW's worker script, opened in Debian's Chromium in
// fresh contexts (a fresh service worker each). Page script starts the worker and calls the client;
// the times are the page's own clock from navigation: its script running, the worker started, the
// first answer, and the five answers after it. Wall-clock times: on a busy machine they grow with
// its load, so compare runs made side by side.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { chromium } from "playwright-core";
import { bundleWithHandlers } from "./msw-bundle.js";
import { CHROMIUM, CHROMIUM_ARGS, modulePage, serveStatic } from "../../test/support/browser.js";

const ENTRY = `
import { setupWorker } from "msw/browser";
import { createHandlers } from "./mock/msw/index.ts";
import { createClient } from "./src/client/index.ts";
window.firstAnswer = (async () => {
  const marks = { script: performance.now() };
  const worker = setupWorker(...createHandlers());
  await worker.start({ quiet: true, onUnhandledRequest: "error", serviceWorker: { url: "/mockServiceWorker.js" } });
  marks.started = performance.now();
  const hr = createClient({ baseUrl: "http://127.0.0.1:4010", apiKey: "demo_org1_full", retry: false });
  await hr.listLeaveRequests({ PageSize: 5 });
  marks.first = performance.now();
  marks.later = [];
  for (let page = 1; page <= 5; page++) {
    const sent = performance.now();
    await hr.listEmployees({ PageNumber: page });
    marks.later.push(performance.now() - sent);
  }
  return marks;
})();
`;

export interface FirstAnswer {
  /** Milliseconds from navigation: the page's script running, the worker started, the first answer. */
  script: number;
  started: number;
  first: number;
  /** Each later answer's own time, in milliseconds. */
  later: number[];
}

/** The first answer in `pages` fresh pages, one after another; `repoRoot` is the clone whose sources are bundled. */
export async function measureFirstAnswer(repoRoot: string, pages: number): Promise<FirstAnswer[]> {
  const script = await bundleWithHandlers(ENTRY, repoRoot, { minify: true });
  const worker = readFileSync(createRequire(import.meta.url).resolve("msw/mockServiceWorker.js"), "utf8");
  const site = await serveStatic({ ...modulePage("first answer", script), "/mockServiceWorker.js": { type: "text/javascript; charset=utf-8", body: worker } });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    const runs: FirstAnswer[] = [];
    for (let i = 0; i < pages; i++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${site.url}/`);
      runs.push(await page.evaluate(() => (window as unknown as { firstAnswer: Promise<FirstAnswer> }).firstAnswer));
      await context.close();
    }
    return runs;
  } finally {
    await browser.close();
    await site.close();
  }
}

/** The median of some numbers. */
export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
