// How long a page waits for the MSW handlers' first answer (npm run size -- --first-answer): the
// handlers and the client bundled as the browser test bundles them (scripts/lib/msw-bundle.ts,
// minified, code split as a project's build splits it: the handlers' chunks are fetched when
// first imported), served on 127.0.0.1 with MSW's worker script, opened in Debian's Chromium in
// fresh contexts (a fresh service worker each). Page script starts the worker and calls the client;
// other handlers (npm run bench -- --only msw, scripts/bench/msw-side-by-side.ts) go in the same page.
// Every call's outcome is kept ("ok" or the failed answer's status): a time says nothing without it;
// the times are the page's own clock from navigation: its script running, the worker started, the
// first answer, and the five answers after it. Wall-clock times: on a busy machine they grow with
// its load, so compare runs made side by side.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { chromium, type Page } from "playwright-core";
import { bundlePage } from "./msw-bundle.js";
import { DEMO_KEY } from "../../mock/keys/demo-keys.js";
import { defaultServerUrl } from "../../generated/routes.js";
import { CHROMIUM, CHROMIUM_ARGS, modulePage, serveStatic } from "./browser-page.js";

/** Our handlers, as the page entry imports them (see PageHandlers). */
export const OUR_HANDLERS: PageHandlers = {
  label: "hr-service-mock/msw",
  setup: `import { createHandlers } from "./mock/msw/index.ts";\nconst handlers = async () => createHandlers();`,
};

/** Some MSW handlers to open in the page: `setup` is module source defining `handlers()`, which answers them (maybe a promise); its imports resolve from the clone. */
export interface PageHandlers {
  label: string;
  setup: string;
}

/**
 * The page: `handlers` (their own code, whatever it does first) under the same worker and client
 * calls; with `quietMs`, after them the page waits that long without a request, then times another
 * organisation's first request (a key of organisation 2).
 */
export const pageEntry = (handlers: PageHandlers, quietMs?: number) => `
import { setupWorker } from "msw/browser";
import { createClient } from "./src/client/index.ts";
${handlers.setup}
const outcome = (call) => call.then(() => "ok", (error) => (error && error.status ? String(error.status) : String(error && error.name)));
window.firstAnswer = (async () => {
  const marks = { script: performance.now() };
  const worker = setupWorker(...(await handlers()));
  await worker.start({ quiet: true, onUnhandledRequest: "error", serviceWorker: { url: "/mockServiceWorker.js" } });
  marks.started = performance.now();
  const hr = createClient({ baseUrl: "${defaultServerUrl}", apiKey: "${DEMO_KEY.org1Full}", retry: false });
  marks.outcomes = [await outcome(hr.listLeaveRequests({ PageSize: 5 }))];
  marks.first = performance.now();
  // A profiled page (first-answer-profile.ts) waits here while its profile of the first answer is taken.
  if (window.afterFirstAnswer) await window.afterFirstAnswer(marks.first);
  marks.later = [];
  for (let page = 1; page <= 5; page++) {
    const sent = performance.now();
    marks.outcomes.push(await outcome(hr.listEmployees({ PageNumber: page })));
    marks.later.push(performance.now() - sent);
  }${
    quietMs === undefined
      ? ""
      : `
  await new Promise((resolve) => setTimeout(resolve, ${quietMs}));
  const other = createClient({ baseUrl: "${defaultServerUrl}", apiKey: "${DEMO_KEY.org2Full}", retry: false });
  const sent = performance.now();
  marks.otherOutcome = await outcome(other.listEmployees({ PageSize: 5 }));
  marks.other = performance.now() - sent;`
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
  /** Each call's outcome in order (the first, then the later ones): "ok", the failed answer's status, or the error's name. */
  outcomes: string[];
  /** With MeasureOptions.quietMs: another organisation's first request after the quiet spell, in milliseconds, and its outcome. */
  other?: number;
  otherOutcome?: string;
}

export interface MeasureOptions {
  /** Where the handlers' packages resolve from, when they are not the clone's. */
  nodePaths?: string[];
  /**
   * Called in each fresh page before it loads and once its first answer came (the page waits for
   * it), with the page: first-answer-profile.ts takes Chromium's CPU profile between the two.
   */
  around?: (page: Page) => Promise<() => Promise<void>>;
  /** Function and module names kept in the bundle (for a profile), its text otherwise minified as a build's. */
  keepNames?: boolean;
  /** After the later answers, wait this long without a request, then time another organisation's first request. */
  quietMs?: number;
}

/**
 * The first answer in `pages` fresh pages, one after another; `repoRoot` is the clone whose sources
 * are bundled, `handlers` ours unless given.
 */
export async function measureFirstAnswer(repoRoot: string, pages: number, handlers: PageHandlers = OUR_HANDLERS, options: MeasureOptions = {}): Promise<FirstAnswer[]> {
  const files = await bundlePage(pageEntry(handlers, options.quietMs), repoRoot, { nodePaths: options.nodePaths, keepNames: options.keepNames });
  const scripts = Object.fromEntries(Object.entries(files).map(([file, body]) => [file, { type: "text/javascript; charset=utf-8", body }]));
  const worker = readFileSync(createRequire(import.meta.url).resolve("msw/mockServiceWorker.js"), "utf8");
  const site = await serveStatic({ ...scripts, ...modulePage("first answer", files["/app.js"]!), "/mockServiceWorker.js": { type: "text/javascript; charset=utf-8", body: worker } });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    const runs: FirstAnswer[] = [];
    for (let i = 0; i < pages; i++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      if (options.around) {
        const afterFirst = await options.around(page);
        await page.exposeFunction("afterFirstAnswer", afterFirst);
      }
      await page.goto(`${site.url}/`);
      const run = await page.evaluate(() => (window as unknown as { firstAnswer?: Promise<FirstAnswer> }).firstAnswer);
      if (run === undefined) throw new Error(`${handlers.label}: the page's script did not run (window.firstAnswer was never set)`);
      runs.push(run);
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
