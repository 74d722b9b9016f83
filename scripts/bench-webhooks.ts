/**
 * Benchmark of the mock's webhook engine (a measurement, not a test: figures move with the
 * machine; compare runs on the same one):
 *
 *   1. signed deliveries per second from the mock to a local receiver that verifies each one
 *      (src/webhooks createReceiver), target at least 2,000/s;
 *   2. trigger-to-receipt latency, p50 and p99, one event at a time (in-process trigger and
 *      through the control API), target p99 under 100 ms;
 *   3. signature verifications per second for a 1 KB body, target at least 100,000/s, measured
 *      by scripts/bench-verify.ts in its own process.
 *
 *   npx tsx scripts/bench-webhooks.ts [deliveries] [latency samples]
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { DEMO_KEY, startMock } from "../mock/index.js";
import type { RequestListener } from "node:http";
import { createReceiver, listen } from "../src/webhooks/node/index.js";

const DELIVERIES = Number(process.argv[2] ?? 20_000);
const LATENCY_SAMPLES = Number(process.argv[3] ?? 2_000);
const WARMUP = 1_000;
const BATCH = 100;
const TYPE = "payroll.paid"; // changes no record, so any number of events can be fired
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

for (const [name, value] of [["deliveries", DELIVERIES], ["latency samples", LATENCY_SAMPLES]] as const) {
  if (!Number.isSafeInteger(value) || value <= 0) {
    console.error(`bench-webhooks: ${name} must be a positive whole number, got "${value}"`);
    process.exit(2);
  }
}

const log = (line: string) => console.log(`bench-webhooks: ${line}`);

// ---- set-up: the mock, a verifying receiver, one endpoint ---------------------------------------

log(`node ${process.version}; starting the mock and a verifying receiver on 127.0.0.1`);
const mock = await startMock({ port: 0, rateLimit: "off" });
let received = 0;
let rejected = 0;
/** Receipt times of events nobody waits for yet, and the waiters of events not received yet (latency phase). */
const arrivedAt = new Map<string, number>();
const waiters = new Map<string, (at: number) => void>();
let timing = false;
let verifying: RequestListener = () => {};
const receiver = await listen((req, res) => verifying(req, res), { port: 0 });
const endpoint = await mock.webhooks.addEndpoint({ url: `${receiver.url}/hooks` });
verifying = createReceiver({
  secret: endpoint.secret,
  seenIdsLimit: 100_000,
  onEvent: (event) => {
    received++;
    if (!timing) return;
    const at = performance.now();
    const waiter = waiters.get(event.id);
    if (waiter) waiter(at);
    else arrivedAt.set(event.id, at);
  },
  onRejected: (rejection) => {
    rejected++;
    if (rejected <= 3) log(`REJECTED ${rejection.status} ${rejection.reason}: ${rejection.message}`);
  },
});
log(`endpoint ${endpoint.id} -> ${endpoint.url}; ${mock.webhooks.settings.concurrency} connections per endpoint, response timeout ${mock.webhooks.settings.responseTimeoutMs} ms`);

/** Resolves once the receiver has handled `count` events in all. */
function receivedAtLeast(count: number): Promise<void> {
  return new Promise((resolve) => {
    const check = () => (received >= count ? resolve() : setTimeout(check, 2));
    check();
  });
}

/** Fires `count` events in batches, yielding to I/O between batches so deliveries interleave. */
async function fire(count: number): Promise<void> {
  for (let done = 0; done < count; ) {
    const n = Math.min(BATCH, count - done);
    for (let i = 0; i < n; i++) await mock.trigger(TYPE);
    done += n;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

// ---- 1. throughput ------------------------------------------------------------------------------

log(`warming up with ${WARMUP.toLocaleString("en-US")} deliveries…`);
await fire(WARMUP);
await receivedAtLeast(WARMUP);

log(`throughput: ${DELIVERIES.toLocaleString("en-US")} deliveries of ${TYPE}, each signed, sent, verified and handled…`);
const before = received;
const started = performance.now();
const progress = setInterval(() => {
  log(`  received ${(received - before).toLocaleString("en-US")} of ${DELIVERIES.toLocaleString("en-US")} after ${((performance.now() - started) / 1000).toFixed(1)} s`);
}, 1000);
await fire(DELIVERIES);
await receivedAtLeast(before + DELIVERIES);
clearInterval(progress);
const throughputSeconds = (performance.now() - started) / 1000;
const perSecond = DELIVERIES / throughputSeconds;
log(`  ${DELIVERIES.toLocaleString("en-US")} verified in ${throughputSeconds.toFixed(2)} s`);
await mock.webhooks.idle();

// ---- 2. latency ---------------------------------------------------------------------------------

/** Fires events one at a time and measures from the trigger call to the receiver's onEvent. */
async function sample(label: string, count: number, fireOne: () => Promise<string>): Promise<number[]> {
  log(`latency (${label}): ${count.toLocaleString("en-US")} events, one at a time…`);
  timing = true;
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    const id = await fireOne();
    // The event may arrive before the trigger's answer does.
    const at = arrivedAt.get(id) ?? (await new Promise<number>((resolve) => waiters.set(id, resolve)));
    arrivedAt.delete(id);
    waiters.delete(id);
    times.push(at - t0);
  }
  timing = false;
  return times;
}

const inProcess = await sample("mock.trigger in-process", LATENCY_SAMPLES, async () => (await mock.trigger(TYPE)).event.id);
const controlSamples = Math.max(1, Math.floor(LATENCY_SAMPLES / 4));
const viaControl = await sample("POST /_mock/webhooks/events", controlSamples, async () => {
  const response = await fetch(`${mock.url}/_mock/webhooks/events`, {
    method: "POST",
    headers: { authorization: `Bearer ${DEMO_KEY.org1WebhooksAdmin}`, "content-type": "application/json" },
    body: JSON.stringify({ type: TYPE }),
  });
  const answer = (await response.json()) as { data: { event: { id: string } } };
  return answer.data.event.id;
});

// ---- 3. verifications per second (scripts/bench-verify.ts) --------------------------------------

log("verifications: running scripts/bench-verify.ts in its own process…");
const verifyRun = spawnSync(process.execPath, ["--import", "tsx", path.join(root, "scripts", "bench-verify.ts")], { cwd: root, encoding: "utf8" });
for (const line of verifyRun.stdout.trim().split("\n")) log(`  ${line}`);
const verifyLine = /verify \(1 secret, 1 v1, match\)\s+([\d,]+) ops\/s/.exec(verifyRun.stdout);
const verifications = verifyLine ? Number(verifyLine[1].replace(/,/g, "")) : NaN;
if (verifyRun.status !== 0 || !verifyLine) log(`  bench-verify failed (${verifyRun.status}): ${verifyRun.stderr.trim().split("\n")[0] ?? ""}`);

// ---- report -------------------------------------------------------------------------------------

await mock.close();
await receiver.close();

const lost = DELIVERIES + WARMUP + LATENCY_SAMPLES + controlSamples - received;
const ms = (x: number) => `${x.toFixed(2)} ms`;
const rate = (x: number) => `${Math.round(x).toLocaleString("en-US")} /s`;
const rows: Array<[string, string, string, boolean | undefined]> = [
  [`signed deliveries per second, verified (${DELIVERIES.toLocaleString("en-US")})`, rate(perSecond), "≥ 2,000 /s", perSecond >= 2_000],
  [`trigger → receipt p50, in-process (${LATENCY_SAMPLES.toLocaleString("en-US")})`, ms(percentile(inProcess, 50)), "", undefined],
  [`trigger → receipt p99, in-process (${LATENCY_SAMPLES.toLocaleString("en-US")})`, ms(percentile(inProcess, 99)), "< 100 ms", percentile(inProcess, 99) < 100],
  [`trigger → receipt p50, control API (${controlSamples.toLocaleString("en-US")})`, ms(percentile(viaControl, 50)), "", undefined],
  [`trigger → receipt p99, control API (${controlSamples.toLocaleString("en-US")})`, ms(percentile(viaControl, 99)), "< 100 ms", percentile(viaControl, 99) < 100],
  ["signature verifications per second, 1 KB body", Number.isFinite(verifications) ? rate(verifications) : "n/a", "≥ 100,000 /s", Number.isFinite(verifications) ? verifications >= 100_000 : false],
];
const widths = [0, 1, 2].map((i) => Math.max(...rows.map((r) => String(r[i]).length), ["measure", "result", "target"][i].length));
const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 3)).join(" | ")} |`;
console.log("");
console.log(line(["measure", "result", "target", "met"]));
console.log(`|${[...widths, 3].map((w) => "-".repeat(w + 2)).join("|")}|`);
for (const [measure, result, target, met] of rows) console.log(line([measure, result, target, met === undefined ? "" : met ? "yes" : "NO"]));
console.log("");
console.log(`deliveries rejected by the receiver: ${rejected}; events not received: ${lost}`);
if (rejected > 0 || lost !== 0) process.exitCode = 1;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
