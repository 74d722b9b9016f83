// Where a command's CPU goes, read from Linux's /proc while it runs: each process it started (found
// by parent links), labelled by what it runs, and each thread of the command's own process. A
// process that starts and ends between two readings is not seen (scripts/suite-cpu.ts says so).
import fs from "node:fs";
import path from "node:path";

/** Milliseconds per clock tick of /proc's times (USER_HZ is 100 on Linux). */
export const TICK_MS = 10;

export interface ProcStat {
  pid: number;
  comm: string;
  ppid: number;
  /** Its own user and system time, in clock ticks. */
  ticks: number;
}

/** /proc/<pid>/stat (or a task's): the name sits in parentheses and may itself hold spaces or parentheses. */
export function parseStat(text: string): ProcStat | undefined {
  const open = text.indexOf("(");
  const close = text.lastIndexOf(")");
  if (open < 1 || close < open) return undefined;
  // After the name: state, ppid, …, utime (the 12th), stime.
  const fields = text.slice(close + 2).split(" ");
  const [ppid, utime, stime] = [1, 11, 12].map((i) => Number(fields[i]));
  if (fields.length < 13 || ![ppid, utime, stime].every(Number.isFinite)) return undefined;
  return { pid: Number(text.slice(0, open).trim()), comm: text.slice(open + 1, close), ppid, ticks: utime + stime };
}

/** The processes below `root` (its children, theirs, and so on), from each process's parent. */
export function descendants(root: number, parentOf: Map<number, number>): Set<number> {
  const below = new Set<number>();
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, ppid] of parentOf) {
      if (!below.has(pid) && (ppid === root || below.has(ppid))) {
        below.add(pid);
        grew = true;
      }
    }
  }
  return below;
}

const WORD = /^[a-z][\w:.-]*$/i;

/**
 * What a process runs, for grouping: the program's name and, for node, the script and its first
 * word ("node hr-mock.js serve", "node -e"); a program that renames itself (npm) keeps the words
 * it chose. Paths and flags are left out, so the same command from different folders is one group.
 */
export function commandLabel(argv: string[], comm: string): string {
  if (argv.length === 0) return comm;
  // A renamed process (process.title) may put its whole title in the first argument.
  const words = argv.length === 1 ? argv[0].split(" ") : argv;
  const program = path.basename(words[0]);
  if (program !== "node") return [program, ...words.slice(1, 3).filter((word) => WORD.test(word))].slice(0, program === "npm" ? 3 : 1).join(" ");
  const rest = words.slice(1);
  const script = rest.findIndex((word) => !word.startsWith("-"));
  if (rest.includes("-e") || rest.includes("--eval") || script < 0) return "node -e";
  const next = rest[script + 1];
  return ["node", path.basename(rest[script]), ...(next && WORD.test(next) ? [next] : [])].join(" ");
}

/** Every process now, by pid (those that ended while being read are left out). */
export function readProcesses(): Map<number, ProcStat> {
  const all = new Map<number, ProcStat>();
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readStat(`/proc/${name}/stat`);
    if (stat) all.set(stat.pid, stat);
  }
  return all;
}

/** The threads of a process now, by thread id. */
export function readThreads(pid: number): Map<number, ProcStat> {
  const all = new Map<number, ProcStat>();
  let tids: string[] = [];
  try {
    tids = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return all; // it has ended
  }
  for (const tid of tids) {
    const stat = readStat(`/proc/${pid}/task/${tid}/stat`);
    if (stat) all.set(stat.pid, stat);
  }
  return all;
}

export function readStat(file: string): ProcStat | undefined {
  try {
    return parseStat(fs.readFileSync(file, "utf8"));
  } catch {
    return undefined; // it has ended
  }
}

/** A process's command line (empty once it has ended, or for a kernel thread). */
export function readArgv(pid: number): string[] {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter((word) => word !== "");
  } catch {
    return [];
  }
}

/** The machine's busy time over all its cores, in clock ticks (user, nice, system, irq, softirq). */
export function machineBusyTicks(): number {
  const [, user, nice, system, , , irq, softirq] = fs.readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).map(Number);
  return user + nice + system + irq + softirq;
}
