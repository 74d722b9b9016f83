// The command lines of a differential run: what `hr-mock` prints and how it exits for help and for
// bad usage that stops before anything starts, run from each checkout with the same environment.
import { spawn } from "node:child_process";
import { resolve } from "node:path";

const COMMANDS = ["serve", "receive", "trigger", "resend", "scenario", "export", "proxy", "coverage", "diff"];

/** Argument lists that end without serving: help, and usage the mock refuses at its door. */
export const cliCases: string[][] = [
  ["--help"],
  ["nope"],
  ...COMMANDS.map((command) => [command, "--help"]),
  ["serve", "--port", "abc"],
  ["serve", "--port", "70000"],
  ["serve", "--seed", "1.5"],
  ["serve", "--today", "2026-02-30"],
  ["serve", "--scale", "0"],
  ["serve", "--scale", "1001"],
  ["serve", "--rate-limit", "-1"],
  ["serve", "--rate-limit", "2000000000"],
  ["serve", "--failure-status", "201"],
  ["serve", "--fail-rate", "2"],
  ["serve", "--latency", "x"],
  ["serve", "--journal-size", "100001"],
  ["serve", "--journal-memory", "0"],
  ["serve", "--drain", "601"],
  ["serve", "--log-format", "xml"],
  ["serve", "--keys", "/nonexistent/keys.json"],
  ["serve", "--data", "/nonexistent/data.yaml"],
  ["serve", "--webhook-url", "ftp://x"],
  ["serve", "--events", "nope"],
  ["serve", "--nope"],
  ["serve", "--port"],
  ["trigger"],
  ["trigger", "nope.event"],
  ["export", "--format", "nope"],
  ["coverage", "--min", "abc"],
];

export interface CliAnswer {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(checkout: string, args: string[]): Promise<CliAnswer> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [resolve(checkout, "mock/bin/hr-mock.js"), ...args], {
      cwd: checkout,
      stdio: ["ignore", "pipe", "pipe"],
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: "1" },
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk) => out.push(chunk));
    child.stderr.on("data", (chunk) => err.push(chunk));
    // A case that starts serving after all is stopped: its difference is in what it printed.
    const timer = setTimeout(() => child.kill("SIGINT"), 60_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      const clean = (text: string) => text.replaceAll(checkout, "<checkout>").replace(/hr-mock: building the mock from its sources[^\n]*\n/g, "");
      done({ code, stdout: clean(Buffer.concat(out).toString()), stderr: clean(Buffer.concat(err).toString()) });
    });
  });
}
