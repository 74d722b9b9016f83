// npm run size: what the MSW handlers cost a browser page. Bundles what a frontend's development
// build holds to mock the API in the browser (msw/browser's setupWorker, hr-service-mock/msw's
// createHandlers with the bundled spec, the typed client) with the settings of
// scripts/lib/msw-bundle.ts, minified, code splitting on, and prints the first chunk (the entry and
// every chunk it imports statically: what the page loads before it runs) and the whole (with the
// chunks loaded on first use), each raw and gzipped, and the largest packages in each.
// A measurement, not a test. npm run bench records the same figures (scripts/bench/report.ts).
// With --first-answer it also opens the handlers in Chromium in three fresh pages and prints the
// time from navigation to their first answer, and the answers after it (scripts/lib/first-answer.ts);
// with --profile, where that wait's CPU time goes, by phase (scripts/lib/first-answer-profile.ts).
import { pathToFileURL } from "node:url";
import { measureBrowserBundle, type BrowserBundleSize } from "./lib/browser-size.js";
import { repoRoot } from "./lib/spec-document.js";
import { measureFirstAnswer, median } from "./lib/first-answer.js";
import { medianPhases, profileFirstAnswer } from "./lib/first-answer-profile.js";

const TOP = 12;

const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;

export function printBrowserSize(size: BrowserBundleSize): void {
  const part = (name: string, p: BrowserBundleSize["first"]) => {
    console.log(`${name}: ${p.files} file(s), ${kb(p.bytes)} minified, ${kb(p.gzipBytes)} gzipped`);
    for (const [pkg, bytes] of p.byPackage.slice(0, TOP)) console.log(`  ${kb(bytes).padStart(7)}  ${pkg}`);
  };
  console.log("MSW handlers + setupWorker + client, browser bundle (esbuild, minified, splitting on)");
  part("first chunk (the entry and what it imports statically)", size.first);
  part("whole (with the chunks loaded on first use)", size.whole);
}

const PAGES = 3;
/** How long the page waits without a request before asking for another organisation. */
const QUIET_MS = 1500;

const HELP = `npm run size [-- options]: what the MSW handlers cost a browser page (msw/browser's setupWorker,
hr-service-mock/msw's createHandlers, the typed client; esbuild, minified, code split): the first
chunk and the whole, raw and gzipped, and the largest packages in each.

  --first-answer  also open the handlers in Chromium in ${PAGES} fresh pages: the time from navigation
                  to their first answer, the answers after it, and organisation 2's first request
                  after ${QUIET_MS / 1000} s without requests
  --profile       also profile ${PAGES} fresh pages to their first answer (an unminified build): where
                  that wait's CPU time goes, by phase
  -h, --help      show this help`;

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes("--help") || args.includes("-h")) return void console.log(HELP);
  const unknown = args.find((arg) => arg !== "--first-answer" && arg !== "--profile");
  if (unknown !== undefined) throw new Error(`unknown argument ${unknown}; npm run size [-- --first-answer] [--profile] (see --help)`);
  console.error("size: bundling msw/browser + hr-service-mock/msw + the client (esbuild, minified, splitting on)");
  printBrowserSize(await measureBrowserBundle(repoRoot));
  if (args.includes("--profile")) await printProfile();
  if (!args.includes("--first-answer")) return;
  console.error(`size: opening the handlers in Chromium, ${PAGES} fresh pages`);
  const runs = await measureFirstAnswer(repoRoot, PAGES, undefined, { quietMs: QUIET_MS });
  const ms = (n: number) => `${Math.round(n)} ms`;
  console.log(`first answer in Chromium (from navigation, ${PAGES} fresh pages; wall-clock, so compare runs made side by side):`);
  for (const run of runs) console.log(`  script ${ms(run.script)}, worker started ${ms(run.started)}, first answer ${ms(run.first)}, later ${run.later.map((n) => Math.round(n)).join("/")} ms; organisation 2's first request after ${QUIET_MS / 1000} s without requests ${run.otherOutcome === "ok" ? ms(run.other ?? 0) : `failed: ${run.otherOutcome}`}`);
  console.log(`  median first answer ${ms(median(runs.map((run) => run.first)))}; median later answer ${ms(median(runs.flatMap((run) => run.later)))}`);
}

async function printProfile(): Promise<void> {
  console.error(`size: profiling the handlers' first answer in Chromium, ${PAGES} fresh pages (an unminified build, names kept)`);
  const { first, phases } = await profileFirstAnswer(repoRoot, PAGES);
  console.log(`where the first answer's wait goes (CPU profile from navigation to the first answer, median of ${PAGES} pages; unminified, first answers ${first.map(Math.round).join("/")} ms):`);
  for (const [name, ms] of medianPhases(phases)) console.log(`  ${`${Math.round(ms)} ms`.padStart(7)}  ${name}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main().catch((error: unknown) => {
    console.error(`size: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
    process.exit(1);
  });
}
