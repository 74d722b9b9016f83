// npm run bench: the mock against Prism's own CLI mock of the same bundled spec (static, logging at
// error level) and a bare node:http server sending the same bytes, on one machine in one run:
// GET /v1/leaverequest/list with a valid key, autocannon at 10 connections, 2 s warm-up then 10 s.
// Also start-up (spawn to first 200) and resident memory at the default size and at --scale 10, and
// the mock with its response cache defeated: the same request with a new unknown parameter each time
// (validated and answered from the data on every request, at both sizes, so the --scale 10 ratio says
// something about the data and not only about the cache), and with a new SearchTerm each time
// (filtered over every leave request of the organisation), and a mixed workload of at least 4,000
// distinct URLs over all seven operations, every request a cache miss, at the default size and at
// --scale 10 (scripts/bench/mixed.ts), the two sizes taking turns over the rounds. First,
// in-process, what a sandbox costs: creating one, its first change, and the heap of each, beside
// generating a dataset (scripts/bench/sandboxes.ts).
// Before the servers, start-up and size as users meet them (scripts/bench/startup.ts): both packages
// are built, packed and installed from their tarballs into an empty temporary project, and the
// throughput rows run that installed `hr-mock` too.
// Every figure goes to docs/benchmarks.json and docs/benchmarks.md (scripts/bench/report.ts): the
// docs name those files rather than copying figures into prose.
// A measurement, not a test: absolute figures move with the machine; read the ratios.
//
// The servers take turns over --rounds rounds and each one's best round is reported: on a shared
// machine other processes only ever slow a run down.
//
// Last, the request journal's cost on the cached path, on against off (scripts/bench/journal.ts),
// and the journals' memory budget: 100 sandboxes each sent 1,100 requests with 12 KB URLs, the
// mock's resident set before and after (scripts/bench/journal-budget.ts). Then shared state: the
// cached read with --state redis:// against memory state on one replica, on a redis-server the
// bench starts, and the Redis commands per request (scripts/bench/shared-state.ts).
// Beside the browser page's size, the MSW handlers side by side with msw-auto-mock's and
// @mswjs/source's, sizes and first answers in Chromium, as ratios to ours (scripts/bench/msw-side-by-side.ts);
// `--only msw` runs that part alone (under a minute on 2 cores) and prints it without writing the
// report files, as every --only but startup does.
//
// `--only throughput` runs the throughput rows alone (cached, cache defeated, mixed uncached, at both
// sizes, beside Prism and bare node:http) and serve's start-up against bare node:http, on the clone's
// development bundle (the package's Node bundle, scripts/dev-bundle.ts) instead of packing: a few
// minutes. `--profile` profiles the mock under the mixed uncached load (scripts/bench/profile.ts).
//
//   npx tsx scripts/bench.ts [--seconds 10] [--warmup 2] [--connections 10] [--rounds 2] [--runs 5] [--only sandboxes|startup|serve|throughput|msw|journal|journal-memory|shared-state] [--profile [FILE]]
import { execFileSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { measure, type LoadResult } from "./bench/load.js";
import { mixedPaths } from "./bench/mixed.js";
import { measureSandboxes } from "./bench/sandboxes.js";
import { packAndInstall, sizeOf } from "./lib/packed-install.js";
import { printStartup, writeReport, type Report } from "./bench/report.js";
import { measureServeStartup, measureStartup } from "./bench/startup.js";
import { measureBrowserBundle } from "./lib/browser-size.js";
import { measureMswSideBySide, printMswSideBySide } from "./bench/msw-side-by-side.js";
import { measureJournal, printJournalCost } from "./bench/journal.js";
import { measureJournalBudget, printJournalBudget } from "./bench/journal-budget.js";
import { measureSharedState, printSharedState } from "./bench/shared-state.js";
import { startBareServer, startMockServer, startPrismServer, type BenchServer, type Probe } from "./bench/servers.js";
import { DEMO_KEY } from "../mock/keys/demo-keys.js";
import { profileMixed } from "./bench/profile.js";
import { devBundleCli } from "./bench/dev-bundle-cli.js";
import { journalFigures, printTable, sharedStateFigures, type Row } from "./bench/rows.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const PROBE: Probe = { path: "/v1/leaverequest/list", headers: { authorization: `Bearer ${DEMO_KEY.org1Full}` } };
// Issue 48's bars: the cached path at 80 % of bare node:http, the mixed uncached one at 25 % (aim 40 %).
const TARGETS = { overPrism: 2, ofBare: 0.8, p99Ms: 5, scale10: 0.8, mixedOfBare: 0.25, mixedScale10: 0.8 };
/** Fresh Chromium pages per set of MSW handlers (npm run size -- --first-answer opens as many). */
const MSW_PAGES = 3;
/** The mixed workload's least number of distinct URLs. */
const MIXED_URLS = 4000;


const HELP = `npm run bench [-- options]: the mock measured beside Prism's mock and a bare node:http server, in one run;
writes docs/benchmarks.json and docs/benchmarks.md.

  --seconds N       seconds measured per run (default 10)
  --warmup N        seconds of warm-up per run (default 2)
  --connections N   autocannon's connections (default 10)
  --rounds N        rounds, the servers taking turns; each one's best is reported (default 2)
  --runs N          start-up runs; medians reported (default 5)
  --only PART       run one part alone and print it; only startup writes the report files (its rows alone):
                      sandboxes       what a sandbox costs, in process
                      startup         sandboxes, then the packages packed and installed: start-up and size,
                                      the MSW handlers side by side (below) included
                      serve           serve's start-up and memory at the first 200 against bare node:http,
                                      and --help against node -e 0, on the clone's development bundle
                                      (no packing; --mock DIR measures another clone's): a minute or two
                      msw             the MSW handlers beside msw-auto-mock's and @mswjs/source's (npm
                                      installs them into a temporary folder for the run): browser
                                      bundle sizes and first / later answers in Chromium, ratios to ours
                      journal         the request journal's cost, on against off
                      journal-memory  the journals' memory budget
                      throughput      the throughput rows (cached, uncached, mixed uncached, --scale 10,
                                      Prism, bare node:http) and serve's start-up and memory at the
                                      first 200, on the clone's development bundle (no packing)
                      shared-state    --state redis:// against memory state
  --mock DIR        with --only throughput or serve: measure the mock of another clone (say the previous main,
                    run in turns with this one), from that clone's development bundle
  --profile         a CPU profile of the mock (from its sources) under the mixed uncached load
                    (--seconds, default 10 here too): writes prof/mixed-uncached.cpuprofile and prints
                    where the time goes by module and function; nothing else runs
  -h, --help        show this help`;

function settings() {
  try {
    const { values } = parseArgs({
      strict: true,
      allowPositionals: false,
      options: {
        seconds: { type: "string", default: "10" },
        warmup: { type: "string", default: "2" },
        connections: { type: "string", default: "10" },
        rounds: { type: "string", default: "2" },
        runs: { type: "string", default: "5" },
        only: { type: "string" },
        profile: { type: "boolean" },
        mock: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
    if (values.help) {
      console.log(HELP);
      process.exit(0);
    }
    const number = (flag: string, text: string) => {
      const value = Number(text);
      if (!Number.isInteger(value) || value < 1 || value > 600) throw new Error(`--${flag} must be a whole number from 1 to 600, got "${text}"`);
      return value;
    };
    return {
      seconds: number("seconds", values.seconds!),
      warmup: number("warmup", values.warmup!),
      connections: number("connections", values.connections!),
      rounds: number("rounds", values.rounds!),
      runs: number("runs", values.runs!),
      only: values.only === undefined ? undefined : only(values.only),
      profile: values.profile === true,
      mock: values.mock,
    };
  } catch (error) {
    console.error(`bench: ${(error as Error).message.split(/\.\s/)[0]}`);
    process.exit(2);
  }
}

const ONLY = ["sandboxes", "startup", "serve", "throughput", "msw", "journal", "journal-memory", "shared-state"] as const;

function only(text: string): (typeof ONLY)[number] {
  const found = ONLY.find((name) => name === text);
  if (found === undefined) throw new Error(`--only takes ${ONLY.map((name) => `"${name}"`).join(", ")}, got "${text}"`);
  return found;
}

const log = (line: string) => console.log(`bench: ${line}`);

/** What a sandbox costs at the default size (in-process, before any server starts). */
async function reportSandboxes(): Promise<void> {
  const cost = await measureSandboxes(50, log);
  const ms = (s: { median: number; max: number }) => `median ${s.median.toFixed(2)} ms, max ${s.max.toFixed(2)} ms`;
  console.log("");
  console.log(`sandbox, created (${cost.count}, createSandbox)   ${ms(cost.createMs)}; heap ${cost.createHeapMb.toFixed(3)} MB each`);
  console.log(`sandbox, first change (leave.approved)  ${ms(cost.firstChangeMs)}; heap ${cost.firstChangeHeapMb.toFixed(2)} MB each (a copy of one organisation's arrays and indexes)`);
  console.log(`generating a dataset (no copy on write) ${cost.generateMs.toFixed(0)} ms: a sandbox is created in ${((cost.createMs.median / cost.generateMs) * 100).toFixed(1)}% of it`);
  console.log("");
}

interface Contender {
  label: string;
  server: BenchServer;
  rssMb: number;
  best?: LoadResult;
}

async function main() {
  const options = settings();
  const report: Report = { command: `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(" ")}` : ""}`, date: new Date().toISOString(), machine: machine(), figures: {} };
  if (options.profile) {
    const lines = await profileMixed({ ...options, root: ROOT, probe: PROBE, file: join(ROOT, "prof", "mixed-uncached.cpuprofile"), log });
    return console.log(["", ...lines].join("\n"));
  }
  // Alone, the journal's benches run the clone's development bundle (the launcher): packing is for the full run.
  const launcher = { installedBin: join(ROOT, "mock", "bin", "hr-mock.js") };
  // The launcher builds its bundle when the sources changed, in the process it starts: built here first, so the figures are the mock's alone.
  if (options.only === "throughput") return throughputAlone(options);
  if (options.only === "serve") return serveAlone(options);
  if (options.only === "journal" || options.only === "journal-memory" || options.only === "shared-state") execFileSync(process.execPath, [launcher.installedBin, "--help"], { stdio: "ignore" });
  if (options.only === "journal") return printJournalCost(await measureJournal({ ...options, root: ROOT, probe: PROBE, entry: launcher, log }));
  if (options.only === "journal-memory") return printJournalBudget(await measureJournalBudget({ root: ROOT, probe: PROBE, entry: launcher, log }));
  if (options.only === "shared-state") return printSharedState(await measureSharedState({ ...options, root: ROOT, probe: PROBE, entry: launcher, log }));
  if (options.only === "msw") return printMswSideBySide(await measureMswSideBySide(ROOT, MSW_PAGES, log));
  await reportSandboxes();
  if (options.only === "sandboxes") return;
  const work = await mkdtemp(join(tmpdir(), "hr-mock-bench-"));
  const contenders: Contender[] = [];
  try {
    // The packages as users install them: built, packed, installed into an empty project.
    const installed = await packAndInstall(work, { app: ["contract", "mock"] }, log);
    const project = installed.projects.app;
    const installedBin = join(project, "node_modules", ".bin", "hr-mock");
    report.figures.installMb = sizeOf(join(project, "node_modules")) / 1024 / 1024;
    log(`node_modules of hr-service-contract + hr-service-mock: ${report.figures.installMb.toFixed(1)} MB`);
    log(`start-up: ${options.runs} runs, the contenders taking turns in each; medians reported`);
    report.startup = await measureStartup({ project, clone: ROOT, probe: PROBE, runs: options.runs, work, log });
    log("the browser page's bundle (npm run size: msw/browser + hr-service-mock/msw + the client, esbuild, minified, splitting on)…");
    report.browser = await measureBrowserBundle(ROOT);
    report.msw = await measureMswSideBySide(ROOT, MSW_PAGES, log);
    printStartup(report);
    printMswSideBySide(report.msw);
    if (options.only !== "startup") {
      await measureThroughput({ project, installedBin, work, options, contenders, report });
      printStartup(report);
      const journal = await measureJournal({ ...options, root: project, probe: PROBE, entry: { installedBin }, log });
      printJournalCost(journal);
      const budget = await measureJournalBudget({ root: project, probe: PROBE, entry: { installedBin }, log });
      printJournalBudget(budget);
      const shared = await measureSharedState({ ...options, root: project, probe: PROBE, entry: { installedBin }, log });
      printSharedState(shared);
      report.figures = { ...report.figures, ...journalFigures(journal, budget), ...sharedStateFigures(shared) };
    }
  } finally {
    log("stopping the servers…");
    await Promise.all(contenders.map((c) => c.server.stop()));
    await rm(work, { recursive: true, force: true });
  }
  report.machine.loadAverageAfter = loadavg()[0];
  const written = await writeReport(ROOT, report);
  log(`figures written to ${written.join(" and ")}`);
}

/** The servers under load (the rows kept from before start-up was measured here). */
async function measureThroughput(context: { project: string; installedBin: string; work: string; options: ReturnType<typeof settings>; contenders: Contender[]; report: Report }): Promise<void> {
  const { project, installedBin, work, options, contenders, report } = context;
  log(`GET ${PROBE.path} with a valid key, ${options.connections} connections, ${options.warmup} s warm-up + ${options.seconds} s per run`);
  log(`${options.rounds} rounds, the servers taking turns; each server's best round is reported (other processes on a shared machine only ever slow a run down)`);
  log(`Node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model.trim() ?? "unknown"}); load generator and servers share them`);
  const bodyFile = join(work, "body.json");
  const starts: [string, () => Promise<BenchServer>][] = [
    ["hr-mock (default data)", () => startMockServer(project, PROBE, [], undefined, { installedBin })],
    ["hr-mock (--scale 10)", () => startMockServer(project, PROBE, ["--scale", "10"], undefined, { installedBin })],
    ["Prism's mock server (static, errors=false, log level error)", () => startPrismServer(ROOT, PROBE)],
    ["bare node:http, same bytes", () => startBareServer(ROOT, PROBE, bodyFile)],
  ];
  for (const [label, start] of starts) {
    log(`starting ${label}…`);
    const server = await start();
    log(`${label} answered 200 after ${(server.startupMs / 1000).toFixed(2)} s`);
    contenders.push({ label, server, rssMb: Number.NaN });
    if (contenders.length === 1) {
      // The bare server sends exactly the bytes the mock sends for this request.
      const response = await fetch(server.url + PROBE.path, { headers: PROBE.headers });
      await writeFile(bodyFile, Buffer.from(await response.arrayBuffer()));
    }
  }
  for (let round = 1; round <= options.rounds; round++) {
    for (const contender of contenders) {
      log(`round ${round}/${options.rounds}: ${contender.label}, warming up ${options.warmup} s, measuring ${options.seconds} s…`);
      const load = await measure(
        { url: contender.server.url + PROBE.path, headers: PROBE.headers, connections: options.connections, warmupSeconds: options.warmup, seconds: options.seconds, serverCpuMs: contender.server.cpuMs },
        async () => {
          if (round === 1) contender.rssMb = await contender.server.rssMb();
        },
      );
      if (load.bad > 0) log(`warning: ${contender.label} gave ${load.bad} answers that were not 2xx (or failed)`);
      log(`  ${Math.round(load.requestsPerSecond).toLocaleString("en")} req/s, p99 ${load.p99Ms.toFixed(2)} ms`);
      if (!contender.best || load.requestsPerSecond > contender.best.requestsPerSecond) contender.best = load;
    }
  }
  const rows: Row[] = contenders.map((c) => ({ label: c.label, load: c.best!, startupMs: c.server.startupMs, rssMb: c.rssMb }));
  // An unknown parameter changes nothing but the URL, so the cache never answers.
  const uncached = await measureUncached(contenders[0], "hr-mock, cache defeated (new unknown parameter each request)", "?nocache=[<id>]", options);
  const uncachedScaled = await measureUncached(contenders[1], "hr-mock --scale 10, cache defeated (the same)", "?nocache=[<id>]", options);
  const searched = await measureUncached(contenders[0], "hr-mock, new SearchTerm each request (filters every request)", "?SearchTerm=[<id>]", options);
  const paths = await mixedPaths({ url: contenders[0].server.url, headers: PROBE.headers, atLeast: MIXED_URLS });
  log(`mixed workload: ${paths.length} distinct URLs over the seven operations, each request also made unique (nocache=[<id>])`);
  // Ids come from each server's own data: the --scale 10 dataset has other records, so the default's ids would all be 404s.
  const scaledPaths = await mixedPaths({ url: contenders[1].server.url, headers: PROBE.headers, atLeast: MIXED_URLS });
  // The two sizes take turns over the rounds, as the servers above do, and each one's best round is
  // reported: the bar compares them, and one round each put whatever the neighbours did into the ratio.
  let mixed: Row | undefined;
  let mixedScaled: Row | undefined;
  for (let round = 1; round <= options.rounds; round++) {
    const tag = `round ${round}/${options.rounds}: `;
    mixed = better(mixed, await measureMixed(contenders[0], "hr-mock, mixed uncached (all seven operations)", paths, options, tag));
    mixedScaled = better(mixedScaled, await measureMixed(contenders[1], "hr-mock --scale 10, mixed uncached (same mix, its own ids)", scaledPaths, options, tag));
  }
  if (!mixed || !mixedScaled) throw new Error("--rounds must be at least 1");
  printTable([...rows, uncached, uncachedScaled, searched, mixed, mixedScaled]);
  printRatios(rows[0], rows[1], rows[2], rows[3]);
  const rps = (r: Row) => r.load.requestsPerSecond;
  console.log(`uncached --scale 10 / default ${((rps(uncachedScaled) / rps(uncached)) * 100).toFixed(0)}%     (the data's size, without the cache; no target)`);
  console.log(`hr-mock uncached / Prism     ${(rps(uncached) / rps(rows[2])).toFixed(2)}x   (every request validated and answered from the data; no target)`);
  console.log(`hr-mock SearchTerm / Prism   ${(rps(searched) / rps(rows[2])).toFixed(2)}x   (every request also filtered over all leave requests; no target)`);
  const verdict = (ok: boolean) => (ok ? "met" : "MISSED");
  const mixedOfBare = rps(mixed) / rps(rows[3]);
  const mixedScale10 = rps(mixedScaled) / rps(mixed);
  console.log(`mixed uncached / bare        ${(mixedOfBare * 100).toFixed(0)}%     (target ≥ ${TARGETS.mixedOfBare * 100}%: ${verdict(mixedOfBare >= TARGETS.mixedOfBare)})`);
  // Throughput on a shared machine moves with the neighbours; CPU time per request much less.
  const cpu = (r: Row) => r.load.serverCpuUsPerRequest;
  console.log(`mixed uncached / bare, by CPU per request ${((cpu(rows[3]) / cpu(mixed)) * 100).toFixed(0)}%  (the same bar, read from each server's CPU time: ${cpu(rows[3]).toFixed(0)} and ${cpu(mixed).toFixed(0)} µs)`);
  console.log(`mixed --scale 10 / default   ${(mixedScale10 * 100).toFixed(0)}%     (target ≥ ${TARGETS.mixedScale10 * 100}%: ${verdict(mixedScale10 >= TARGETS.mixedScale10)})`);
  console.log(`mixed --scale 10 / default, by CPU per request ${((cpu(mixed) / cpu(mixedScaled)) * 100).toFixed(0)}%  (the same bar, read from CPU time: ${cpu(mixed).toFixed(0)} and ${cpu(mixedScaled).toFixed(0)} µs)`);
  console.log(`RSS after the mixed run: default ${mixed.rssMb.toFixed(0)} MB (target < 200 MB: ${verdict(mixed.rssMb < 200)}), --scale 10 ${mixedScaled.rssMb.toFixed(0)} MB`);
  report.throughput = Object.fromEntries([...rows, uncached, uncachedScaled, searched, mixed, mixedScaled].map((r) => [r.label, { requestsPerSecond: r.load.requestsPerSecond, p50Ms: r.load.p50Ms, p99Ms: r.load.p99Ms, cpuUsPerRequest: r.load.serverCpuUsPerRequest, startupMs: r.startupMs, rssMb: r.rssMb }]));
  report.figures = { ...report.figures, cachedOfBare: ofBare(rows[0], rows[3]), mixedOfBare, mixedScale10, scale10: rps(rows[1]) / rps(rows[0]) };
}

/** --only throughput: the throughput rows and serve's start-up on the clone's development bundle, printed, not written. */
async function throughputAlone(options: ReturnType<typeof settings>): Promise<void> {
  const installedBin = await devBundleCli(options.mock ?? ROOT);
  log(`the mock: the clone's development bundle (${installedBin})`);
  const work = await mkdtemp(join(tmpdir(), "hr-mock-bench-"));
  const contenders: Contender[] = [];
  const report: Report = { command: "", date: "", machine: machine(), figures: {} };
  try {
    const start = await measureServeStartup({ bin: installedBin, clone: ROOT, probe: PROBE, runs: options.runs, work, log });
    await measureThroughput({ project: ROOT, installedBin, work, options, contenders, report });
    console.log("");
    console.log(`cached / bare node:http ${((report.figures.cachedOfBare ?? Number.NaN) * 100).toFixed(0)}%`);
    printServeStartup(start, options.runs);
  } finally {
    await Promise.all(contenders.map((c) => c.server.stop()));
    await rm(work, { recursive: true, force: true });
  }
}

/** --only serve: serve's start-up and memory, and --help's, on the clone's development bundle, printed, not written. */
async function serveAlone(options: ReturnType<typeof settings>): Promise<void> {
  const installedBin = await devBundleCli(options.mock ?? ROOT);
  log(`the mock: the clone's development bundle (${installedBin})`);
  const work = await mkdtemp(join(tmpdir(), "hr-mock-bench-"));
  try {
    printServeStartup(await measureServeStartup({ bin: installedBin, clone: ROOT, probe: PROBE, runs: options.runs, work, log }), options.runs);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

function printServeStartup(start: Awaited<ReturnType<typeof measureServeStartup>>, runs: number): void {
  console.log(`hr-mock serve (development bundle), spawn to first 200 / bare node:http: ${start.serveMs.toFixed(0)} ms / ${start.bareMs.toFixed(0)} ms = ${(start.serveMs / start.bareMs).toFixed(1)}x (medians of ${runs})`);
  console.log(`resident memory of hr-mock serve at its first 200: ${start.rssMb.toFixed(0)} MB (median)`);
  console.log(`hr-mock --help (development bundle), spawn to exit / node -e 0: ${start.helpMs.toFixed(0)} ms / ${start.noopMs.toFixed(0)} ms = ${(start.helpMs / start.noopMs).toFixed(2)}x`);
}

function machine(): Report["machine"] {
  return { node: process.version, cpus: cpus().length, cpuModel: cpus()[0]?.model.trim() ?? "unknown", loadAverageBefore: loadavg()[0] };
}

const ofBare = (ours: Row, bare: Row) => ours.load.requestsPerSecond / bare.load.requestsPerSecond;

/** A mock with `query` holding [<id>], which autocannon makes unique per request: no answer can come from the response cache. */
async function measureUncached(mock: Contender, label: string, query: string, options: ReturnType<typeof settings>): Promise<Row> {
  log(`${label}, warming up ${options.warmup} s, measuring ${options.seconds} s…`);
  const load = await measure({
    url: `${mock.server.url}${PROBE.path}${query}`,
    headers: PROBE.headers,
    connections: options.connections,
    warmupSeconds: options.warmup,
    seconds: options.seconds,
    idReplacement: true,
    serverCpuMs: mock.server.cpuMs,
  });
  if (load.bad > 0) log(`warning: ${label} gave ${load.bad} answers that were not 2xx (or failed)`);
  log(`  ${Math.round(load.requestsPerSecond).toLocaleString("en")} req/s, p99 ${load.p99Ms.toFixed(2)} ms`);
  return { label, load, startupMs: mock.server.startupMs, rssMb: await mock.server.rssMb() };
}

/** A mock under the mixed workload: every request a distinct URL, none answered from the cache. */
async function measureMixed(mock: Contender, label: string, paths: string[], options: ReturnType<typeof settings>, tag = ""): Promise<Row> {
  log(`${tag}${label}, warming up ${options.warmup} s, measuring ${options.seconds} s…`);
  const load = await measure({ url: mock.server.url, headers: PROBE.headers, connections: options.connections, warmupSeconds: options.warmup, seconds: options.seconds, idReplacement: true, paths, serverCpuMs: mock.server.cpuMs });
  if (load.bad > 0) log(`warning: ${label} gave ${load.bad} answers that were not 2xx (or failed)`);
  log(`  ${Math.round(load.requestsPerSecond).toLocaleString("en")} req/s, p99 ${load.p99Ms.toFixed(2)} ms`);
  return { label, load, startupMs: mock.server.startupMs, rssMb: await mock.server.rssMb() };
}

/** The row of the round with the higher throughput; resident memory is the later round's (after every request so far). */
function better(best: Row | undefined, next: Row): Row {
  if (!best) return next;
  return next.load.requestsPerSecond > best.load.requestsPerSecond ? next : { ...best, rssMb: next.rssMb };
}

function printRatios(ours: Row, scaled: Row, prism: Row, bare: Row) {
  const rps = (r: Row) => r.load.requestsPerSecond;
  const verdict = (ok: boolean) => (ok ? "met" : "MISSED");
  const overPrism = rps(ours) / rps(prism);
  const ofBare = rps(ours) / rps(bare);
  const scale10 = rps(scaled) / rps(ours);
  console.log("");
  console.log(`hr-mock / Prism static      ${overPrism.toFixed(2)}x   (target ≥ ${TARGETS.overPrism}x: ${verdict(overPrism >= TARGETS.overPrism)})`);
  console.log(`hr-mock / bare node:http    ${(ofBare * 100).toFixed(0)}%     (target ≥ ${TARGETS.ofBare * 100}%: ${verdict(ofBare >= TARGETS.ofBare)})`);
  console.log(`hr-mock p99                 ${ours.load.p99Ms.toFixed(2)} ms (target < ${TARGETS.p99Ms} ms: ${verdict(ours.load.p99Ms < TARGETS.p99Ms)})`);
  console.log(`--scale 10 / default        ${(scale10 * 100).toFixed(0)}%     (target ≥ ${TARGETS.scale10 * 100}%: ${verdict(scale10 >= TARGETS.scale10)})`);
  if (ofBare > 0.9) console.log("note: hr-mock is at 90% of the bare server or above, so the load generator (autocannon, one thread on a shared CPU) is the limit here, not the servers; the two are equal within noise.");
  console.log(`start-up (spawn to first 200): default ${(ours.startupMs / 1000).toFixed(2)} s, --scale 10 ${(scaled.startupMs / 1000).toFixed(2)} s (target ≤ 2 s for the default data: ${verdict(ours.startupMs <= 2000)})`);
}

main().catch((error: unknown) => {
  console.error(`bench: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
