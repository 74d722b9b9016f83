// What npm run bench found, printed as ratios against its bars and written to docs/benchmarks.json
// (every figure and sample) and docs/benchmarks.md (the table the docs link to), so that no figure
// is typed into prose. The bars are issue 23's.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { BrowserBundleSize } from "../lib/browser-size.js";
import { JOURNAL_BUDGET_RSS_BAR_MB } from "./journal-budget.js";
import { JOURNAL_TARGET } from "./journal.js";
import { SHARED_STATE_AIM, SHARED_STATE_TARGET } from "./shared-state.js";
import type { StartupFigures } from "./startup.js";
import { sideBySideMarkdown, sideBySideRows, type SideBySide } from "./msw-table.js";

/** Issue 48's bars for serve (spawn 4.5x, 90 MB) and the commands that serve nothing (1.5x). */
export const STARTUP_BARS = {
  /** hr-mock serve, spawn to first 200, within this many times a bare server's spawn to first answer. */
  serveOverBare: 4.5,
  /** npm start in a clone, the same. */
  npmStartOverBare: 12,
  /** Each command that serves nothing, spawn to exit, within this many times `node -e 0`. */
  helpOverNoop: 1.5,
  /** The serving mock's resident memory after start, MB. */
  serveRssMb: 90,
  /** import("hr-service-mock") + the first startMock(), ms. */
  importAndStartMs: 500,
  /** node_modules of both packages installed from their tarballs, MB. */
  installMb: 25,
  /** The browser page's first chunk, gzipped, KB. */
  browserFirstChunkGzipKb: 300,
};

export interface Report {
  command: string;
  date: string;
  machine: { node: string; cpus: number; cpuModel: string; loadAverageBefore: number; loadAverageAfter?: number };
  figures: Record<string, number>;
  startup?: StartupFigures;
  browser?: BrowserBundleSize;
  msw?: SideBySide;
  throughput?: Record<string, Record<string, number>>;
}

interface Line {
  what: string;
  figure: string;
  ratio: string;
  bar: string;
  met: boolean;
}

const ms = (value: number) => `${value.toFixed(0)} ms`;

/** One line per bar, from what the run measured so far. */
function lines(report: Report): Line[] {
  const out: Line[] = [];
  const s = report.startup;
  if (report.figures.installMb !== undefined) {
    const mb = report.figures.installMb;
    out.push({ what: "npm install hr-service-mock hr-service-contract: node_modules", figure: `${mb.toFixed(1)} MB`, ratio: "", bar: `≤ ${STARTUP_BARS.installMb} MB`, met: mb <= STARTUP_BARS.installMb });
  }
  if (report.browser) {
    const { first, whole } = report.browser;
    const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
    out.push({ what: "browser page (createHandlers + setupWorker + createClient): first chunk, gzipped", figure: kb(first.gzipBytes), ratio: "", bar: `≤ ${STARTUP_BARS.browserFirstChunkGzipKb} KB`, met: first.gzipBytes / 1024 <= STARTUP_BARS.browserFirstChunkGzipKb });
    out.push({ what: `browser page: whole (${whole.files} files), gzipped; minified ${kb(whole.bytes)}`, figure: kb(whole.gzipBytes), ratio: "", bar: "none", met: true });
  }
  if (!s) return out;
  const serve = s.serveFirst200Ms / s.bareFirstAnswerMs;
  out.push({ what: "hr-mock serve, spawn to first 200 / bare node:http spawn to first answer", figure: `${ms(s.serveFirst200Ms)} / ${ms(s.bareFirstAnswerMs)}`, ratio: `${serve.toFixed(1)}x`, bar: `≤ ${STARTUP_BARS.serveOverBare}x`, met: serve <= STARTUP_BARS.serveOverBare });
  const npmStart = s.npmStartFirst200Ms / s.bareFirstAnswerMs;
  out.push({ what: "npm start in a clone, spawn to first 200 / bare node:http", figure: `${ms(s.npmStartFirst200Ms)} / ${ms(s.bareFirstAnswerMs)}`, ratio: `${npmStart.toFixed(1)}x`, bar: `≤ ${STARTUP_BARS.npmStartOverBare}x`, met: npmStart <= STARTUP_BARS.npmStartOverBare });
  for (const [command, value] of Object.entries(s.helpMs)) {
    const ratio = value / s.nodeNoopMs;
    out.push({ what: `hr-mock ${command}, spawn to exit / node -e 0`, figure: `${ms(value)} / ${ms(s.nodeNoopMs)}`, ratio: `${ratio.toFixed(1)}x`, bar: `≤ ${STARTUP_BARS.helpOverNoop}x`, met: ratio <= STARTUP_BARS.helpOverNoop });
  }
  out.push({ what: "resident memory of hr-mock serve at its first 200", figure: `${s.serveRssMb.toFixed(0)} MB`, ratio: "", bar: `≤ ${STARTUP_BARS.serveRssMb} MB`, met: s.serveRssMb <= STARTUP_BARS.serveRssMb });
  out.push({ what: 'in process: import("hr-service-mock") + first startMock()', figure: ms(s.importAndStartMs), ratio: "", bar: `≤ ${STARTUP_BARS.importAndStartMs} ms`, met: s.importAndStartMs <= STARTUP_BARS.importAndStartMs });
  return out;
}

/** The start-up summary on stdout. */
export function printStartup(report: Report): void {
  const rows = lines(report);
  if (!rows.length) return;
  console.log("");
  console.log(`start-up and size (medians of ${report.startup?.runs ?? 0} runs, the packages installed from their tarballs):`);
  const width = Math.max(...rows.map((r) => r.what.length));
  for (const r of rows) console.log(`  ${r.what.padEnd(width)}  ${r.figure.padStart(17)}  ${r.ratio.padStart(6)}  ${r.bar === "none" ? "(no target)" : `(target ${r.bar}: ${r.met ? "met" : "MISSED"})`}`);
  console.log("");
}

function markdown(report: Report): string {
  const out = [
    "# Benchmarks",
    "",
    `Written by \`${report.command}\` on ${report.date.slice(0, 10)} (scripts/bench.ts); do not edit by hand.`,
    `Node ${report.machine.node}, ${report.machine.cpus} CPUs (${report.machine.cpuModel}), load average ${report.machine.loadAverageBefore.toFixed(1)} at the start${report.machine.loadAverageAfter === undefined ? "" : ` and ${report.machine.loadAverageAfter.toFixed(1)} at the end`}: a shared machine, so read the ratios.`,
    "Every sample is in benchmarks.json.",
    "",
    "## Start-up and size",
    "",
    `Medians of ${report.startup?.runs ?? 0} runs; both packages packed and installed from their tarballs into an empty project.`,
    "",
    "| measured | figure | ratio | target | |",
    "| --- | ---: | ---: | --- | --- |",
    ...lines(report).map((r) => `| ${r.what} | ${r.figure} | ${r.ratio} | ${r.bar} | ${r.bar === "none" ? "" : r.met ? "met" : "missed"} |`),
    "",
  ];
  if (report.msw) {
    out.push(
      "## MSW handlers side by side",
      "",
      `msw/browser + the handlers + the client, bundled alike (esbuild, minified, splitting on) and opened in the same Chromium page, ${report.msw.pages} fresh pages each; medians, and each peer's ratio to ours. The answers column counts every call's outcome (ok, or the failed answer's status).`,
      "",
      ...sideBySideMarkdown(sideBySideRows(report.msw.ours, report.msw.peers)),
      "",
    );
  }
  if (report.throughput) {
    out.push("## Throughput", "", "GET /v1/leaverequest/list with a valid key; each server's best round.", "", "| server | req/s | p50 ms | p99 ms | CPU µs/req | RSS MB |", "| --- | ---: | ---: | ---: | ---: | ---: |");
    for (const [label, t] of Object.entries(report.throughput)) out.push(`| ${label} | ${Math.round(t.requestsPerSecond)} | ${t.p50Ms.toFixed(2)} | ${t.p99Ms.toFixed(2)} | ${t.cpuUsPerRequest.toFixed(0)} | ${t.rssMb.toFixed(0)} |`);
    const f = report.figures;
    const pct = (value: number | undefined) => (value === undefined ? "" : `${(value * 100).toFixed(0)} %`);
    out.push("", "| ratio | figure |", "| --- | ---: |", `| cached / bare node:http | ${pct(f.cachedOfBare)} |`, `| mixed uncached / bare node:http | ${pct(f.mixedOfBare)} |`, `| --scale 10 / default (cached) | ${pct(f.scale10)} |`, `| mixed --scale 10 / default | ${pct(f.mixedScale10)} |`, "");
  }
  const f = report.figures;
  if (f.journalRatio !== undefined && f.journalBudgetRssAfterMb !== undefined) {
    const grown = f.journalBudgetRssAfterMb - f.journalBudgetRssStartMb;
    out.push(
      "## Request journal",
      "",
      "| measured | figure | target | |",
      "| --- | ---: | --- | --- |",
      `| journal on / off, cached GET (throughput) | ${(f.journalRatio * 100).toFixed(0)} % | ≥ ${JOURNAL_TARGET * 100} % | ${f.journalRatio >= JOURNAL_TARGET ? "met" : "missed"} |`,
      `| 100 sandboxes x 1,100 requests with 12 KB URLs: RSS added, at rest after ${f.journalBudgetRestSeconds.toFixed(0)} s idle (${f.journalBudgetRssStartMb.toFixed(0)} to ${f.journalBudgetRssAfterMb.toFixed(0)} MB) | ${grown.toFixed(0)} MB | ≤ ${JOURNAL_BUDGET_RSS_BAR_MB} MB | ${grown <= JOURNAL_BUDGET_RSS_BAR_MB ? "met" : "missed"} |`,
      `| the same: RSS right after the requests, before V8 collected | ${f.journalBudgetRssRightAfterMb.toFixed(0)} MB | none | |`,
      `| the same: heap after full collections | ${f.journalBudgetHeapAfterMb.toFixed(0)} MB | none | |`,
      "",
    );
  }
  if (f.sharedStateRatio !== undefined) {
    const commands = Object.entries(f).filter(([name]) => name.startsWith("sharedStateCommand:"));
    out.push(
      "## Shared state (--state redis://)",
      "",
      "One replica, GET /v1/leaverequest/list with a valid key (cached), memory state against Redis state on one redis-server; each one's best round.",
      "",
      "| measured | figure | target | |",
      "| --- | ---: | --- | --- |",
      `| Redis / memory state, cached GET (throughput) | ${(f.sharedStateRatio * 100).toFixed(0)} % | ≥ ${SHARED_STATE_TARGET * 100} % (aim ${SHARED_STATE_AIM * 100} %) | ${f.sharedStateRatio >= SHARED_STATE_TARGET ? "met" : "missed"} |`,
      `| the same, by CPU per request (mock and redis-server together) | ${(f.sharedStateCpuRatio * 100).toFixed(0)} % | none | |`,
      `| p99, memory / Redis state | ${f.sharedStateMemoryP99Ms.toFixed(2)} / ${f.sharedStateRedisP99Ms.toFixed(2)} ms | none | |`,
      `| Redis commands per request (INFO commandstats; a script's own commands included) | ${f.sharedStateCommandsPerRequest.toFixed(2)} | none | |`,
      `| of them sent by the mock (MONITOR sample) | ${f.sharedStateSentPerRequest.toFixed(2)} | none | |`,
      `| round trips per request (redis-server's reads, pipelined) | ${f.sharedStateReadsPerRequest.toFixed(2)} | none | |`,
      "",
      `Commands per request: ${commands.map(([name, value]) => `${name.slice("sharedStateCommand:".length)} ${value.toFixed(2)}`).join(", ")}.`,
      "",
    );
  }
  return `${out.join("\n")}\n`;
}

/** docs/benchmarks.json and docs/benchmarks.md; answers their paths. */
export async function writeReport(root: string, report: Report): Promise<string[]> {
  const dir = join(root, "docs");
  await mkdir(dir, { recursive: true });
  const json = join(dir, "benchmarks.json");
  const md = join(dir, "benchmarks.md");
  await writeFile(json, `${JSON.stringify({ ...report, bars: STARTUP_BARS }, null, 2)}\n`);
  await writeFile(md, markdown(report));
  return ["docs/benchmarks.json", "docs/benchmarks.md"];
}
