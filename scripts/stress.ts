// npm run stress: the mock's limits under abuse, on loopback only, each scenario bounded in time.
// Prints what it measured; a measurement, not a test.
//
//   npx tsx scripts/stress.ts [--requests 300]
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { connectionsScenario } from "./stress/connections.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const PROBE = { path: "/v1/leavetype/list", headers: { authorization: "Bearer demo_org1_full" } };

async function main(): Promise<void> {
  let requests: number;
  try {
    const { values } = parseArgs({ strict: true, options: { requests: { type: "string", default: "300" }, help: { type: "boolean", short: "h" } } });
    if (values.help) {
      process.stdout.write("Usage: npm run stress [-- --requests N]\nRuns the mock under abuse on loopback and prints what it measured (about a minute).\n");
      return;
    }
    requests = Number(values.requests);
    if (!Number.isInteger(requests) || requests < 10 || requests > 100_000) throw new Error(`--requests must be a whole number from 10 to 100000, got "${values.requests}"`);
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
}

main().catch((error: unknown) => {
  process.stderr.write(`stress: ${(error as Error).message}\n`);
  process.exitCode = 1;
});
