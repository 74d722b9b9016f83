// What the shared-state suites share: replicas of one mock on one Redis (startMock twice in one
// process, as a load balancer would see two), a round-robin over them, and reads of the world's
// keys in Redis. Each suite starts its own redis-server (test/support/redis-server.ts).
import { createHash } from "node:crypto";
import { connect } from "node:net";
import { startMock, type RunningMock, type StartMockOptions } from "../../mock/index.js";
import type { RedisServer } from "../support/redis-server.js";

export const SEED = 7;
export const TODAY = "2026-11-23";

/** Replicas (two by default) started with the same URL and flags (and each its `own`); their error lines collected. */
export async function startReplicas(redis: { url: string }, options: StartMockOptions = {}, own: StartMockOptions[] = [{}, {}]): Promise<{ replicas: RunningMock[]; lines: string[] }> {
  const lines: string[] = [];
  const replicas: RunningMock[] = [];
  for (const [i, mine] of own.entries()) {
    replicas.push(await startMock({ port: 0, seed: SEED, today: TODAY, scale: 0.2, state: redis.url, authThrottle: "off", onError: (line) => lines.push(`replica ${i + 1}: ${line}`), ...options, ...mine }));
  }
  return { replicas, lines };
}

/** A load balancer's view: each call goes to the next replica in turn. */
export function roundRobin(replicas: readonly RunningMock[]): { next(): RunningMock; get(path: string, key: string): Promise<Answer> } {
  let turn = 0;
  const next = () => replicas[turn++ % replicas.length];
  return { next, get: (path, key) => send(next(), "GET", path, key) };
}

export interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

export async function send(mock: RunningMock, method: string, path: string, key: string, body?: unknown): Promise<Answer> {
  const response = await fetch(mock.url + path, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // left as text: the assertion shows it
  }
  return { status: response.status, body: parsed, headers: response.headers };
}

/** The bytes Redis holds for a world's keys (MEMORY USAGE summed over them). */
export async function worldBytes(redis: RedisServer, world: string): Promise<number> {
  const keys = (await redis.cli("--scan", "--pattern", `hrm:{w:${world}}:*`)).split("\n").filter(Boolean);
  let bytes = 0;
  for (const key of keys) bytes += Number(await redis.cli("memory", "usage", key, "samples", "0"));
  return bytes;
}

/** Resolves once Redis has counted `requests` records in the world's journal (each replica sends its own a little after answering). */
export async function recorded(redis: RedisServer, world: string, requests: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  let held = 0;
  while ((held = Number(await redis.cli("hget", `hrm:{w:${world}}:tally`, "r"))) < requests) {
    if (Date.now() > deadline) throw new Error(`Redis counted ${held} of the ${requests} requests sent to world ${world} within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Counts the calls of a Lua script Redis runs from now on: MONITOR on a socket of its own, read line
 * by line. (ioredis's monitor() loses lines that arrive in the same read as MONITOR's +OK: it enters
 * monitoring only a microtask later, and reports each such line as a "Command queue state error".)
 * count() answers once MONITOR has shown a PING sent after everything before it: Redis shows
 * commands in the order it runs them, so no call made before count() is still on its way.
 */
export async function scriptCalls(redis: RedisServer, lua: string): Promise<{ count(): Promise<number>; stop(): void }> {
  const sha = createHash("sha1").update(lua).digest("hex");
  const called = `] "evalsha" "${sha}"`;
  const monitor = connect({ port: redis.port, host: "127.0.0.1" });
  let calls = 0;
  let unread = "";
  let seen = (_line: string) => {};
  await new Promise<void>((resolve, reject) => {
    monitor.once("error", reject);
    monitor.setEncoding("utf8").on("data", (chunk: string) => {
      unread += chunk;
      for (let end = unread.indexOf("\r\n"); end >= 0; end = unread.indexOf("\r\n")) {
        const line = unread.slice(0, end);
        unread = unread.slice(end + 2);
        if (line === "+OK") resolve();
        else if (line.startsWith("-")) reject(new Error(`Redis refused MONITOR: ${line.slice(1)}`));
        else if (line.toLowerCase().includes(called)) calls++;
        seen(line);
      }
    });
    monitor.write("MONITOR\r\n");
  });
  let marks = 0;
  return {
    count: () =>
      new Promise<number>((resolve, reject) => {
        const mark = `count-${++marks}`;
        const timer = setTimeout(() => reject(new Error(`MONITOR did not show the PING ${mark} within 30 s`)), 30_000);
        seen = (line) => line.toLowerCase().includes(`"ping" "${mark}"`) && (clearTimeout(timer), resolve(calls));
        const ping = connect({ port: redis.port, host: "127.0.0.1" }, () => ping.end(`*2\r\n$4\r\nPING\r\n$${mark.length}\r\n${mark}\r\n`));
        ping.on("error", reject).resume();
      }),
    stop: () => void monitor.destroy(),
  };
}
