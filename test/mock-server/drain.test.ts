// Stopping without losing a request, as a rolling restart needs: on SIGTERM GET /_mock/ready answers
// 503 at once while the mock keeps serving for --drain, every answer carrying Connection: close;
// then it takes no more connections, finishes the requests in flight, closes kept-alive
// connections and ends with status 0, each step one line. A second signal stops at once; Ctrl-C
// does not wait the drain period. The signals, the drain's clock and the exit are injected, so all
// but the last test run in process; the last is the bin itself, signalled for real.
import { spawn } from "node:child_process";
import { EventEmitter } from "node:events";
import http from "node:http";
import type { Socket } from "node:net";
import { afterAll, describe, expect, test } from "vitest";
import { DEMO_KEY, startMock, type RunningMock } from "../../mock/index.js";
import { stopOnSignals, type SignalSource, type StopSignal } from "../../mock/cli/stop-signals.js";
import { repoRoot } from "../../scripts/lib/spec-document.js";
import { hrMockArgs } from "../support/hr-mock.js";

const started: RunningMock[] = [];
afterAll(async () => {
  await Promise.all(started.map((m) => m.close()));
});

async function aMock(): Promise<RunningMock> {
  const mock = await startMock({ port: 0, seed: 3, scale: 0.2, today: "2026-11-23", rateLimit: "off", authThrottle: "off" });
  started.push(mock);
  return mock;
}

/** A clock the test moves: the drain's sleep resolves when the test says so. */
function heldClock() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const asked: number[] = [];
  return { asked, release, sleep: (ms: number) => (asked.push(ms), released) };
}

/** Lines written, and a promise for the first line matching a pattern (an event, not a wait). */
function lineLog() {
  const lines: string[] = [];
  const waiting: { pattern: RegExp; resolve: () => void }[] = [];
  return {
    lines,
    write(line: string) {
      lines.push(line);
      for (const w of waiting.filter((w) => w.pattern.test(line))) w.resolve();
    },
    said: (pattern: RegExp) => (lines.some((l) => pattern.test(l)) ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ pattern, resolve }))),
  };
}

function get(url: string, init: RequestInit = {}): Promise<{ status: number; connection: string | null; body: any }> {
  return fetch(url, init).then(async (r) => ({ status: r.status, connection: r.headers.get("connection"), body: await r.json() }));
}

/** A GET on a kept-alive connection of `agent`, and the socket it went on. */
function keptAlive(url: string, agent: http.Agent): Promise<{ status: number; socket: Socket }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent, headers: { authorization: `Bearer ${DEMO_KEY.org1Full}` } }, (response) => {
      response.resume().on("end", () => resolve({ status: response.statusCode ?? 0, socket: request.socket as Socket }));
    });
    request.on("error", reject);
  });
}

test("SIGTERM: unready at once, still serving through the drain, then no new connections, the request in flight finished, the idle kept-alive connection closed, status 0", async () => {
  const mock = await aMock();
  const signals = new EventEmitter() as EventEmitter & SignalSource;
  const clock = heldClock();
  const log = lineLog();
  const exits: number[] = [];
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  // A request the test holds open across the end of the drain (a mounted route answers when told).
  let arrived!: () => void;
  const inFlight = new Promise<void>((resolve) => (arrived = resolve));
  let answer!: () => void;
  const answerNow = new Promise<void>((resolve) => (answer = resolve));
  mock.mount("/_slow/", async (_req, res) => {
    arrived();
    await answerNow;
    res.end("done");
  });

  const idle = await keptAlive(`${mock.url}/v1/department/list?PageSize=1`, agent);
  expect(idle.status).toBe(200);
  const idleClosed = new Promise<void>((resolve) => idle.socket.once("close", () => resolve()));
  const stopped = stopOnSignals(mock, { drainMs: 5000, write: log.write, signals, exit: (status) => exits.push(status), sleep: clock.sleep });

  signals.emit("SIGTERM", "SIGTERM");
  expect(log.lines).toEqual(["hr-mock: SIGTERM: draining for 5 s: GET /_mock/ready answers 503, requests are still served (a second signal stops at once)"]);
  expect(clock.asked, "the drain period asked of the clock").toEqual([5000]);
  const [ready, health, api] = await Promise.all([
    get(`${mock.url}/_mock/ready`),
    get(`${mock.url}/_mock/health`),
    get(`${mock.url}/v1/department/list?PageSize=1`, { headers: { authorization: `Bearer ${DEMO_KEY.org1Full}` } }),
  ]);
  expect([ready.status, ready.body.message]).toEqual([503, "Not ready: this replica is stopping; it serves what reaches it during its drain, then closes."]);
  expect(health.status, "still alive").toBe(200);
  expect([api.status, api.connection], "the API still answers, asking the client to go elsewhere next").toEqual([200, "close"]);
  expect(mock.readiness()).toMatchObject({ ready: false, stopping: true });

  const slow = fetch(`${mock.url}/_slow/x`).then(async (r) => ({ status: r.status, body: await r.text() }));
  await inFlight;
  clock.release();
  await log.said(/^hr-mock: no more connections taken/);
  expect(log.lines[1]).toBe("hr-mock: no more connections taken; finishing 1 request in flight");
  await idleClosed;
  await expect(fetch(`${mock.url}/_mock/health`), "a new connection once the drain is over").rejects.toThrow();
  answer();
  expect(await slow, "the request in flight, answered").toEqual({ status: 200, body: "done" });
  expect(await stopped, "the exit status").toBe(0);
  expect(log.lines.slice(2)).toEqual(["hr-mock: stopped."]);
  expect(exits, "nothing stopped the process at once").toEqual([]);
  agent.destroy();
});

describe("the second signal, and Ctrl-C", () => {
  const cases: [string, { signals: StopSignal[]; want: { lines: RegExp[]; exits: number[]; slept: number[] } }][] = [
    ["SIGTERM, then SIGTERM: at once, 143", { signals: ["SIGTERM", "SIGTERM"], want: { lines: [/draining for 5 s/, /^hr-mock: SIGTERM again: stopping at once/], exits: [143], slept: [5000] } }],
    ["SIGTERM, then Ctrl-C: at once, 130", { signals: ["SIGTERM", "SIGINT"], want: { lines: [/draining for 5 s/, /^hr-mock: SIGINT again: stopping at once/], exits: [130], slept: [5000] } }],
    ["Ctrl-C: no drain period, the lines of a terminal", { signals: ["SIGINT"], want: { lines: [/^hr-mock: SIGINT, stopping…$/, /^hr-mock: stopped\.$/], exits: [], slept: [] } }],
  ];
  test.each(cases)("%s", async (_name, { signals: sent, want }) => {
    const mock = await aMock();
    const signals = new EventEmitter() as EventEmitter & SignalSource;
    const clock = heldClock();
    const log = lineLog();
    const exits: number[] = [];
    const stopped = stopOnSignals(mock, { drainMs: 5000, write: log.write, signals, exit: (status) => exits.push(status), sleep: clock.sleep });
    for (const signal of sent) signals.emit(signal, signal);
    if (exits.length === 0) expect(await stopped).toBe(0);
    expect(log.lines.length, log.lines.join("\n")).toBe(want.lines.length);
    want.lines.forEach((pattern, i) => expect(log.lines[i]).toMatch(pattern));
    expect(exits).toEqual(want.exits);
    expect(clock.asked).toEqual(want.slept);
    clock.release();
  });
});

/** Long enough for a loaded machine to send its two requests of the drain within it. */
const BIN_DRAIN_S = 5;

test("the bin, signalled for real: SIGTERM drains (ready 503, the API answering), then it exits 0 and frees its port", { timeout: 180_000 }, async ({ onTestFinished }) => {
  const child = spawn(process.execPath, [...(await hrMockArgs()), "serve", "--port", "0", "--drain", String(BIN_DRAIN_S), "--scale", "0.2"], { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] });
  onTestFinished(() => void child.kill("SIGKILL"));
  let stdout = "";
  let stderr = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      const found = /API\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
      if (found && /Ctrl-C stops/.test(stdout)) resolve(found[1]);
    });
    child.once("exit", (code) => reject(new Error(`hr-mock exited (${code}) before serving: ${stderr}`)));
  });
  const draining = new Promise<void>((resolve) =>
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      if (stderr.includes(`draining for ${BIN_DRAIN_S} s`)) resolve();
    }),
  );
  expect((await get(`${url}/_mock/ready`)).status, "ready before the signal").toBe(200);
  child.kill("SIGTERM");
  await draining;
  const [ready, api] = await Promise.all([get(`${url}/_mock/ready`), get(`${url}/v1/department/list?PageSize=1`, { headers: { authorization: `Bearer ${DEMO_KEY.org1Full}` } })]);
  expect([ready.status, api.status], "during the drain: unready, serving").toEqual([503, 200]);
  expect(await exited, `the exit status; stderr: ${stderr}`).toBe(0);
  expect(stderr).toMatch(new RegExp(`hr-mock: SIGTERM: draining for ${BIN_DRAIN_S} s: .*\\nhr-mock: no more connections taken; finishing \\d+ requests? in flight\\nhr-mock: stopped\\.\\n$`));
  await expect(fetch(`${url}/_mock/health`), "the port, free").rejects.toThrow();
});

test("the drain's patience is the request timeout of the mock's connection limits: a request that never finishes is cut then, and the drain ends", async () => {
  const mock = await startMock({ port: 0, seed: 3, scale: 0.2, today: "2026-11-23", rateLimit: "off", connectionLimits: { requestTimeoutMs: 200 } });
  started.push(mock);
  let arrived!: () => void;
  const inFlight = new Promise<void>((resolve) => (arrived = resolve));
  mock.mount("/_never/", () => arrived());
  const hanging = fetch(`${mock.url}/_never/x`).then(
    (r) => `answered ${r.status}`,
    (error: Error) => `cut: ${error.message}`,
  );
  await inFlight;
  await mock.drain();
  expect(await hanging, "the request that never finished").toMatch(/^cut: /);
});
