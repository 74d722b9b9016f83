// Stopping the mock as users stop things: `npm start & … kill $!` and the same with `npx hr-mock
// serve` send SIGTERM to npm, not to the mock. npm passes it to the shell it runs the script in;
// `npm start` execs node there (package.json), and under npx the mock sees its parent go
// (mock/bin/hr-mock.js). Either way the mock drains as on any SIGTERM (drain.test.ts) and its port is free again.
import { spawn } from "node:child_process";
import { connect } from "node:net";
import { beforeAll, describe, it } from "vitest";
import { repoRoot } from "../../scripts/lib/spec-document.js";
import { hrMockArgs } from "../support/hr-mock.js";

/** Whether something accepts connections on the port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

/** Last-resort limits, long enough for a machine with every core busy. */
const START_MS = 120_000;
const GONE_MS = 60_000;

// The launcher's development bundle is built before (the launcher's own build is test/clone/'s):
// here npm and npx start hr-mock as a user's second start does.
beforeAll(() => hrMockArgs(), 300_000);

const CASES: Array<[string, { command: string; args: string[] }]> = [
  ["npm start", { command: "npm", args: ["start", "--", "--port", "0"] }],
  ["npx hr-mock serve", { command: "npx", args: ["hr-mock", "serve", "--port", "0"] }],
];

// The two cases are independent processes on ports of their own: they run side by side.
describe.concurrent("SIGTERM to the npm process a user started", () => {
  // test.for hands each case its own expect, as concurrent tests need.
  it.for<(typeof CASES)[number]>(CASES)("%s: the mock stops, says so, and frees its port", { timeout: START_MS + GONE_MS + 30_000 }, async ([, { command, args }], { expect, onTestFinished }) => {
    // Its own process group, so that a failing case can end what it started (npm, its shell, the mock).
    const child = spawn(command, args, { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"], detached: true });
    onTestFinished(() => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // Already gone, as it should be.
      }
    });
    let stdout = "";
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    // stderr ends when its last writer, the mock, has gone.
    const stderrClosed = new Promise((resolve) => child.stderr.once("close", resolve));
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no API address within ${START_MS / 1000} s: ${stdout}${stderr}`)), START_MS);
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        stdout += chunk;
        const found = /API\s+http:\/\/127\.0\.0\.1:(\d+)/.exec(stdout);
        if (found) clearTimeout(timer), resolve(Number(found[1]));
      });
      child.once("exit", (code) => reject(new Error(`${command} exited (${code}) before serving: ${stderr.trim()}`)));
    });
    // An answer, not only a connection: the banner is printed just before the mock hooks its
    // signals, and an answer comes from a later turn of its event loop, after that.
    const answer = await fetch(`http://127.0.0.1:${port}/docs/`);
    await answer.arrayBuffer();
    expect(await listening(port), "the mock listens before the signal").toBe(true);

    child.kill("SIGTERM");
    await exited;
    // The mock may outlive npm by the moment it takes to see its parent go and to close: its stderr
    // closes when it has gone (a last-resort limit names what never came).
    await Promise.race([
      stderrClosed,
      new Promise((_resolve, reject) => setTimeout(() => reject(new Error(`the mock did not exit within ${GONE_MS / 1000} s of SIGTERM to ${command}: ${stderr.trim()}`)), GONE_MS).unref()),
    ]);
    expect(await listening(port), `the mock still serves on port ${port} after SIGTERM to ${command}`).toBe(false);
    expect(stderr, `the mock's own stop lines (npm exited with ${await exited}; its output: ${stdout.slice(-300)})`).toMatch(/hr-mock: SIGTERM: draining for 5 s: [^\n]*\nhr-mock: no more connections taken; finishing \d+ requests? in flight\nhr-mock: stopped\.\n/);
  });
});
