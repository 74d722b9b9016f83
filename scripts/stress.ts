// npm run stress: the mock's limits under abuse, on loopback only, each scenario bounded in time.
// Prints what it measured; a measurement, not a test.
//
//   npx tsx scripts/stress.ts [--requests 300]
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { connectionsScenario } from "./stress/connections.js";
import { webhooksScenario } from "./stress/webhooks.js";
import { DEMO_KEY } from "../mock/keys/demo-keys.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const PROBE = { path: "/v1/leavetype/list", headers: { authorization: `Bearer ${DEMO_KEY.org1Full}` } };

async function main(): Promise<void> {
  let requests: number;
  let triggers: number;
  let cycles: number;
  try {
    const { values } = parseArgs({
      strict: true,
      options: { requests: { type: "string", default: "300" }, triggers: { type: "string", default: "50000" }, cycles: { type: "string", default: "20000" }, help: { type: "boolean", short: "h" } },
    });
    if (values.help) {
      process.stdout.write(
        "Usage: npm run stress [-- --requests N --triggers N --cycles N]\nRuns the mock under abuse on loopback and prints what it measured (a few minutes):\n" +
          "  connections: 1,100 idle connections under ulimit -n 1024, --requests (300) of a working client beside them\n" +
          "  webhooks: --triggers (50000) events to 10 endpoints that are down, then --cycles (20000) endpoint adds and removes\n",
      );
      return;
    }
    requests = whole("--requests", values.requests!, 10, 100_000);
    triggers = whole("--triggers", values.triggers!, 1, 1_000_000);
    cycles = whole("--cycles", values.cycles!, 0, 1_000_000);
  } catch (error) {
    process.stderr.write(`stress: ${(error as Error).message}\n`);
    process.exitCode = 2;
    return;
  }

  process.stdout.write(`connections: 1,100 idle connections against the mock under ulimit -n 1024, ${requests} requests of a working client beside them\n`);
  const connections = await connectionsScenario(ROOT, PROBE, requests);
  if (typeof connections === "string") process.stdout.write(`  ${connections}\n`);
  else {
    process.stdout.write(`  idle connections opened ${connections.idleOpened}, closed by the mock to make room ${connections.idleClosedByMock}\n`);
    for (const [label, l] of [["new connection each", connections.fresh], ["one kept-alive connection", connections.keptAlive]] as const) {
      process.stdout.write(`  ${label}: ${l.requests - l.failures}/${l.requests} answered 200, p50 ${l.p50Ms.toFixed(1)} ms, p99 ${l.p99Ms.toFixed(1)} ms\n`);
    }
  }

  process.stdout.write(`webhooks: organisation 2 fires ${triggers} events to 10 endpoints that are down; organisation 1 fired 5 before; then ${cycles} endpoint adds and removes\n`);
  const w = await webhooksScenario(ROOT, PROBE, triggers, cycles);
  process.stdout.write(`  triggers answered 202: ${w.triggers - w.triggerFailures}/${w.triggers}\n`);
  process.stdout.write(`  resident memory: ${w.rssStartMb.toFixed(0)} MB at start, ${w.rssAfterTriggersMb.toFixed(0)} MB after the triggers, ${w.rssAfterCyclesMb.toFixed(0)} MB after the add/remove cycles\n`);
  process.stdout.write(`  organisation 1's delivery log still lists ${w.organisation1Kept} of its ${w.organisation1Fired} deliveries\n`);
  process.stdout.write(`  drop lines the mock printed: ${w.dropLines}\n`);
}

function whole(flag: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max) throw new Error(`${flag} must be a whole number from ${min} to ${max}, got "${text}"`);
  return value;
}

main().catch((error: unknown) => {
  process.stderr.write(`stress: ${(error as Error).message}\n`);
  process.exitCode = 1;
});
