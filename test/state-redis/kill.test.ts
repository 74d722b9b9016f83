// A delivery waiting for its retry when its replica dies (SIGKILL) is attempted by another replica
// at its time: none is lost, none is sent twice. The killed replica is a child process (the one
// case that needs one), alone until it dies, so that it makes the first attempt; the survivor then
// starts in this process, as a replica replacing it would, and takes the retry.
import { spawn } from "node:child_process";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { RunningMock } from "../../mock/index.js";
import { repoRoot } from "../../scripts/lib/spec-document.js";
import { startRedis, type RedisServer } from "../support/redis-server.js";
import { bundledEntry } from "../support/bundled-entry.js";
import { TestReceiver } from "../webhooks-engine/support.js";
import { startReplicas } from "./support.js";

/**
 * The retry schedule at this scale: at once, then 1.5 s later (the spec's 5 s), time for the
 * survivor to start (on a slow machine it starts later and attempts at once). The child freezes
 * once its retry is scheduled, so only the survivor can take the retry, however late the kill.
 */
const TIME_SCALE = 0.3;

let redis: RedisServer;
let survivor: RunningMock;
let receiver: TestReceiver;

beforeAll(async () => {
  redis = await startRedis();
  receiver = await new TestReceiver().start();
});

afterAll(async () => {
  await survivor?.close();
  await receiver?.close();
  await redis?.close();
});

/** Runs the child until it says its event waits for a retry, kills it then, and answers the event's id. */
function runAndKill(script: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, redis.url, receiver.url, String(TIME_SCALE)], { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stderr.on("data", (chunk: Buffer) => (err += chunk));
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk;
      const waiting = /^waiting (\S+)$/m.exec(out);
      if (waiting && !child.killed) {
        child.kill("SIGKILL");
        child.once("exit", () => resolve(waiting[1]));
      }
    });
    child.once("exit", (code, signal) => {
      if (signal !== "SIGKILL") reject(new Error(`the child replica exited (${code}) before its event waited for a retry: ${err.trim().slice(-600)}`));
    });
  });
}

test("killed with a retry waiting, its delivery is attempted by the surviving replica at its time, once", async () => {
  // The first attempt fails, the retry succeeds.
  receiver.answer = (request) => (request.number === 1 ? { kind: "status", status: 503 } : { kind: "status", status: 200 });
  const eventId = await runAndKill(await bundledEntry("test/state-redis/replica-child.ts"));
  // The only replica alive from now on: whatever is attempted, it attempts.
  ({ replicas: [survivor] } = await startReplicas(redis, { webhooks: { timeScale: TIME_SCALE } }, [{}]));
  await receiver.until(() => receiver.requestsFor(eventId).length >= 2, `the retry of event ${eventId}`);
  await survivor.webhooks.idle();
  expect(receiver.requestsFor(eventId).length, "sent twice in all: the failed attempt and its retry, never a third").toBe(2);
  const [entry] = await survivor.webhooks.deliveries({ eventId });
  expect([entry.state, entry.attempts.map((a) => a.status)], "the log, through the survivor").toEqual(["succeeded", [503, 200]]);
  const delay = Date.parse(entry.attempts[1].startedAt) - Date.parse(entry.attempts[0].nextRetryAt!);
  expect(delay, "not before its time").toBeGreaterThanOrEqual(-50);
});
