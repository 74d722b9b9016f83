/**
 * Benchmark: how many `Service-Signature` verifications per second one core does for a 1 KB
 * body (HMAC-SHA256 + header parsing + constant-time compare), plus sign() for comparison, and
 * the Web Crypto verifyAsync (awaited one at a time) as a ratio to the node:crypto verify.
 * A measurement, not a test: figures move with the machine; compare runs on the same one.
 *
 *   npx tsx scripts/bench-verify.ts [iterations]
 */
import { performance } from "node:perf_hooks";
import { sign, verify, verifyAsync } from "../src/webhooks/node/index.js";

const BODY_BYTES = 1024;
const WARMUP = 20_000;
const ITERATIONS = Number(process.argv[2] ?? 200_000);
const SECRET = "whsec_bench_MfKQ9r8GKYqrTwjUPD8ILPZIo2La";

if (!Number.isSafeInteger(ITERATIONS) || ITERATIONS <= 0) {
  console.error(`iterations must be a positive whole number, got "${process.argv[2]}"`);
  process.exit(2);
}

/** A JSON event body padded to exactly BODY_BYTES bytes, as the service would send it. */
function makeBody(): Buffer {
  const head = '{"id":"6f1c2b7e-9a4d-4c8e-b2f1-3d5a7e9c1b04","type":"leave.approved","apiVersion":"2026-10-15","data":{"pad":"';
  const tail = '"}}';
  return Buffer.from(head + "x".repeat(BODY_BYTES - head.length - tail.length) + tail, "utf8");
}

/** Runs fn `count` times and returns operations per second. */
function opsPerSecond(count: number, fn: () => unknown): number {
  const start = performance.now();
  for (let i = 0; i < count; i++) fn();
  return count / ((performance.now() - start) / 1000);
}

/** Runs the async fn `count` times, one after the other, and returns operations per second. */
async function asyncOpsPerSecond(count: number, fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < count; i++) await fn();
  return count / ((performance.now() - start) / 1000);
}

function report(label: string, ops: number): void {
  console.log(`${label.padEnd(44)} ${Math.round(ops).toLocaleString("en-US").padStart(10)} ops/s  ${(1e6 / ops).toFixed(2)} µs/op`);
}

const body = makeBody();
const timestamp = Math.floor(Date.now() / 1000);
const header = sign(body, SECRET, { timestamp });
const rotatingHeader = `${sign(body, "whsec_old_secret", { timestamp })},v1=${header.split("v1=")[1]}`;
const options = { now: timestamp };

console.log(`bench-verify: ${body.length}-byte body, node ${process.version}, ${ITERATIONS.toLocaleString("en-US")} iterations after ${WARMUP.toLocaleString("en-US")} warm-up`);
console.log("warming up…");
opsPerSecond(WARMUP, () => verify(body, header, SECRET, options));

const syncOps = opsPerSecond(ITERATIONS, () => verify(body, header, SECRET, options));
report("verify (1 secret, 1 v1, match)", syncOps);
report("verify (rotation: 2 v1 values, 2nd matches)", opsPerSecond(ITERATIONS, () => verify(body, rotatingHeader, SECRET, options)));
report("verify (string body, UTF-8 encoded per call)", opsPerSecond(ITERATIONS, () => verify(body.toString("utf8"), header, SECRET, options)));
report("sign", opsPerSecond(ITERATIONS, () => sign(body, SECRET, { timestamp })));

await asyncOpsPerSecond(WARMUP / 10, () => verifyAsync(body, header, SECRET, options));
const asyncOps = await asyncOpsPerSecond(ITERATIONS / 10, () => verifyAsync(body, header, SECRET, options));
report("verifyAsync (Web Crypto, 1 secret, match)", asyncOps);
console.log(`verifyAsync / verify: ${(asyncOps / syncOps).toFixed(2)} (same run; Web Crypto imports the key per call)`);
