// npm run suite:cpu [-- <vitest arguments>]: runs the test suite as `npm test` does (vitest run,
// its output as usual) and then prints where the CPU went: the vitest process's threads (its test
// workers, its main thread, V8's compiler and GC helpers) and every process the tests started,
// grouped by what it runs. The suite's time on a machine whose cores are all busy is about its CPU
// divided by the cores, so this says what a change to the suite saves. A measurement, not a test;
// Linux only (it reads /proc).
import { spawn } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { commandLabel, descendants, machineBusyTicks, readArgv, readProcesses, readThreads, TICK_MS, type ProcStat } from "./lib/process-cpu.js";
import { repoRoot } from "./lib/spec-document.js";

const HELP = `usage: npm run suite:cpu [-- <vitest arguments>]

Runs vitest run (what npm test runs) with the arguments given, then prints the CPU seconds of the
vitest process by thread and of every process the tests started, by command. Exits with vitest's
status. Linux only: it reads /proc.

  -h, --help   Show this help.`;

/** How often the processes are read: a process that lives less than this may go unseen. */
const SAMPLE_MS = 250;

interface Seen {
  /** The command line it was labelled from. */
  argv: string;
  label: string;
  ticks: number;
}

/** Each process's and each vitest thread's largest time so far (a time only grows). */
class Tally {
  readonly processes = new Map<number, Seen>();
  readonly threads = new Map<number, number>();
  constructor(private readonly root: number) {}

  sample(): void {
    const all = readProcesses();
    const parentOf = new Map([...all].map(([pid, stat]) => [pid, stat.ppid] as const));
    for (const pid of descendants(this.root, parentOf)) this.note(pid, all.get(pid)!);
    for (const [tid, stat] of readThreads(this.root)) this.threads.set(tid, Math.max(this.threads.get(tid) ?? 0, stat.ticks));
  }

  private note(pid: number, stat: ProcStat): void {
    // Labelled again when its command line changes: a fork that runs another program (node forks
    // node), a program that renames itself. An ended process has no command line left to read.
    const argv = readArgv(pid);
    const seen = this.processes.get(pid) ?? { argv: "", label: `${stat.comm} (ended before it was read)`, ticks: 0 };
    if (argv.length > 0 && argv.join("\0") !== seen.argv) Object.assign(seen, { argv: argv.join("\0"), label: commandLabel(argv, stat.comm) });
    seen.ticks = Math.max(seen.ticks, stat.ticks);
    this.processes.set(pid, seen);
  }
}

const seconds = (ticks: number) => ((ticks * TICK_MS) / 1000).toFixed(1).padStart(7);

function report(tally: Tally, busy: number, wallMs: number): string[] {
  const cores = os.cpus().length;
  const byLabel = new Map<string, { ticks: number; count: number }>();
  for (const { label, ticks } of tally.processes.values()) {
    const group = byLabel.get(label) ?? { ticks: 0, count: 0 };
    byLabel.set(label, { ticks: group.ticks + ticks, count: group.count + 1 });
  }
  const threads = [...tally.threads.values()].sort((a, b) => b - a);
  const vitest = threads.reduce((sum, ticks) => sum + ticks, 0);
  const children = [...byLabel.values()].reduce((sum, group) => sum + group.ticks, 0);
  return [
    `suite-cpu: ${(wallMs / 1000).toFixed(1)} s; the machine's ${cores} cores were busy ${seconds(busy).trim()} s of it (${((busy * TICK_MS * 100) / (wallMs * cores)).toFixed(0)} %), everything running included`,
    `${seconds(vitest + children)} s  seen: vitest and every process the tests started`,
    `${seconds(vitest)} s  vitest's own process, by thread (the test workers, its main thread, V8's helpers):`,
    `           ${threads.filter((ticks) => ticks * TICK_MS >= 100).map((ticks) => seconds(ticks).trim()).join(" ")}`,
    `${seconds(children)} s  the processes the tests started, by command:`,
    ...[...byLabel]
      .sort(([, a], [, b]) => b.ticks - a.ticks)
      .filter(([, group]) => group.ticks * TICK_MS >= 100)
      .map(([label, group]) => `  ${seconds(group.ticks)} s  ${label}${group.count > 1 ? ` (${group.count} processes)` : ""}`),
    `Read every ${SAMPLE_MS} ms: a process that lived less is not seen, and the busy time beyond what was seen is`,
    `theirs, other programs', and this command's own.`,
  ];
}

async function main(argv: string[]): Promise<number> {
  if (argv.includes("-h") || argv.includes("--help")) {
    console.log(HELP);
    return 0;
  }
  if (!fs.existsSync("/proc/self/stat")) throw new Error("it reads /proc, which this system does not have (Linux only)");
  const vitest = path.join(path.dirname(createRequire(import.meta.url).resolve("vitest/package.json")), "vitest.mjs");
  const busyBefore = machineBusyTicks();
  const started = performance.now();
  const child = spawn(process.execPath, [vitest, "run", ...argv], { cwd: repoRoot, stdio: "inherit" });
  const tally = new Tally(child.pid!);
  const timer = setInterval(() => tally.sample(), SAMPLE_MS);
  const status = await new Promise<number>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => resolve(code ?? 1));
  });
  clearInterval(timer);
  const wallMs = performance.now() - started;
  for (const line of report(tally, machineBusyTicks() - busyBefore, wallMs)) console.log(line);
  return status;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main(process.argv.slice(2)).then(
    (status) => process.exit(status),
    (error: unknown) => {
      console.error(`suite-cpu: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
      process.exit(2);
    },
  );
}
