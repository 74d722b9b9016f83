// npm run suite:cpu's reading of /proc (scripts/lib/process-cpu.ts): a process's times and parent
// from its stat line, the processes below the suite's, and the label that groups them by command.
import { describe, expect, it } from "vitest";
import { commandLabel, descendants, parseStat, readStat } from "../../scripts/lib/process-cpu.js";

// The fields after the name: state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime …
const stat = (pid: number, name: string, ppid: number, utime: number, stime: number) => `${pid} (${name}) S ${ppid} 1 1 0 -1 4194304 10 0 0 0 ${utime} ${stime} 0 0 20 0 1 0 100 1000 50`;

describe("a stat line", () => {
  const cases: Array<[string, { given: string; want: ReturnType<typeof parseStat> }]> = [
    ["a plain name", { given: stat(42, "node", 7, 150, 30), want: { pid: 42, comm: "node", ppid: 7, ticks: 180 } }],
    ["a name with spaces and parentheses (a renamed npm)", { given: stat(9, "npm (install) x", 1, 5, 5), want: { pid: 9, comm: "npm (install) x", ppid: 1, ticks: 10 } }],
    ["cut short", { given: "42 (node) S 7 1", want: undefined }],
    ["no name", { given: "", want: undefined }],
  ];
  it.each(cases)("%s", (_name, { given, want }) => expect(parseStat(given)).toEqual(want));

  it("of this very process reads as its own pid and a time that is running", () => {
    const self = readStat(`/proc/${process.pid}/stat`);
    expect(self?.pid, "the pid read from /proc/<pid>/stat").toBe(process.pid);
    expect(self?.ppid, "its parent").toBe(process.ppid);
    expect(self!.ticks, "the CPU this process has used, in ticks").toBeGreaterThan(0);
  });
});

describe("the processes below one", () => {
  // 1 ← 10 (vitest) ← 11 (npm) ← 12 (node), 10 ← 13 (chromium) ← 14 (renderer); 20 elsewhere.
  const parents = new Map([[10, 1], [11, 10], [12, 11], [13, 10], [14, 13], [20, 1], [21, 20]]);
  const cases: Array<[string, { root: number; want: number[] }]> = [
    ["children and theirs, however deep", { root: 10, want: [11, 12, 13, 14] }],
    ["none below a leaf", { root: 14, want: [] }],
    ["none of another tree's", { root: 20, want: [21] }],
  ];
  it.each(cases)("%s", (_name, { root, want }) => expect([...descendants(root, parents)].sort((a, b) => a - b)).toEqual(want));
});

describe("a command's label", () => {
  const cases: Array<[string, { argv: string[]; comm?: string; want: string }]> = [
    ["a program: its name, without the path or flags", { argv: ["/usr/lib/chromium/chromium-headless-shell", "--type=renderer", "--no-sandbox"], want: "chromium-headless-shell" }],
    ["node and its script's first word", { argv: ["/usr/bin/node", "/tmp/a/node_modules/.bin/hr-mock", "serve", "--port", "0"], want: "node hr-mock serve" }],
    ["node's flags before the script are passed over", { argv: ["node", "--expose-gc", "/x/mock/bin/hr-mock.js", "--help"], want: "node hr-mock.js" }],
    ["node with code on its command line", { argv: ["node", "--input-type=module", "-e", "console.log(1)"], want: "node -e" }],
    ["npm renamed to its title: the first words", { argv: ["npm install --prefer-offline msw@2.15.0"], want: "npm install" }],
    ["npm with a subcommand as arguments", { argv: ["npm", "pack", "--json"], want: "npm pack" }],
    ["a kernel thread or an ended process: its name", { argv: [], comm: "kworker/1:1", want: "kworker/1:1" }],
  ];
  it.each(cases)("%s", (_name, { argv, comm = "x", want }) => expect(commandLabel(argv, comm)).toBe(want));
});
