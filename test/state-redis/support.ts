// What the shared-state suites share: replicas of one mock on one Redis (startMock twice in one
// process, as a load balancer would see two), a round-robin over them, and reads of the world's
// keys in Redis. Each suite starts its own redis-server (test/support/redis-server.ts).
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

/** Resolves once Redis has counted `requests` records in the world's journal (each replica sends its own with its admission). */
export async function recorded(redis: RedisServer, world: string, requests: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  let held = 0;
  while ((held = Number(await redis.cli("hget", `hrm:{w:${world}}:tally`, "r"))) < requests) {
    if (Date.now() > deadline) throw new Error(`Redis counted ${held} of the ${requests} requests sent to world ${world} within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

