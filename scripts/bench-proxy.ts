// npm run bench:proxy: what hr-mock proxy costs, side by side in one run: the mixed workload of the
// main bench (distinct URLs over all seven operations, scripts/bench/mixed.ts) sent to the mock
// directly, through a bare node:http reverse proxy that checks nothing (scripts/bench/bare-proxy.mjs),
// and through hr-mock proxy, which holds every exchange to the contract; reported as ratios, each in
// its own process, from the sources through tsx. Then the proxy's memory over a long run of that
// workload: it checks and drops each exchange, so its heap after a full garbage collection should
// stay level while the exchanges it counted keep growing (for this part the proxy runs in this
// process, startProxy, so its heap can be read; node needs --expose-gc, which npm run bench:proxy
// gives). A measurement, not a test: read the ratios and the trend, not the absolute figures.
//
//   npm run bench:proxy -- [--seconds 10] [--rounds 6] [--connections 10]
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { measure, type LoadResult } from "./bench/load.js";
import { mixedPaths } from "./bench/mixed.js";
import { startMockServer, type BenchServer } from "./bench/servers.js";
import { DEMO_KEY, startProxy } from "../mock/index.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const HEADERS = { authorization: `Bearer ${DEMO_KEY.org1Full}` };
const PROBE = { path: "/v1/leavetype/list", headers: HEADERS };
const log = (line: string) => console.log(`bench-proxy: ${line}`);

const { values } = parseArgs({ options: { seconds: { type: "string", default: "10" }, rounds: { type: "string", default: "6" }, connections: { type: "string", default: "10" } } });
const [seconds, rounds, connections] = [values.seconds, values.rounds, values.connections].map(Number);
if (![seconds, rounds, connections].every((n) => Number.isInteger(n) && n >= 1 && n <= 600)) {
  console.error("bench-proxy: --seconds, --rounds and --connections take whole numbers from 1 to 600");
  process.exit(2);
}

/** A child process printing its address on stdout; stopped with SIGTERM. */
async function child(name: string, args: string[], address: RegExp): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const process_ = spawn(process.execPath, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  const url = await new Promise<string>((resolve, reject) => {
    process_.stdout.on("data", (chunk) => {
      out += chunk;
      const found = address.exec(out)?.[1];
      if (found) resolve(found);
    });
    process_.on("exit", (code) => reject(new Error(`${name} exited with ${code} before listening: ${out}`)));
  });
  return { url, pid: process_.pid!, stop: () => new Promise((resolve) => (process_.once("exit", () => resolve()), process_.kill("SIGTERM"))) };
}

async function rssMb(pid: number): Promise<number> {
  const { readFile } = await import("node:fs/promises");
  const kb = /VmRSS:\s+(\d+)\s+kB/.exec(await readFile(`/proc/${pid}/status`, "utf8"))?.[1];
  return kb ? Number(kb) / 1024 : Number.NaN;
}

async function main() {
  log(`Node ${process.version}; the mock, a bare proxy and hr-mock proxy each in its own process, from the sources (tsx)`);
  const mock: BenchServer = await startMockServer(ROOT, PROBE, []);
  const bare = await child("bare proxy", ["scripts/bench/bare-proxy.mjs", "0", mock.url], /listening on (\d+)/);
  const bareUrl = `http://127.0.0.1:${bare.url}`;
  const proxy = await child("hr-mock proxy", ["--import", "tsx", "mock/cli.ts", "proxy", "--upstream", mock.url, "--port", "0"], /^hr-mock proxy: (http:\/\/\S+) -> /m);
  try {
    const paths = await mixedPaths({ url: mock.url, headers: HEADERS, atLeast: 4000 });
    log(`mixed workload: ${paths.length} distinct URLs, ${connections} connections, 2 s warm-up + ${seconds} s per target`);
    const results: [string, LoadResult][] = [];
    for (const [label, url] of [["the mock, directly", mock.url], ["through a bare node:http proxy", bareUrl], ["through hr-mock proxy", proxy.url]] as const) {
      const load = await measure({ url: url + "/", headers: HEADERS, connections, warmupSeconds: 2, seconds, paths });
      if (load.bad > 0) log(`warning: ${label}: ${load.bad} answers were not 2xx`);
      results.push([label, load]);
      log(`${label.padEnd(32)} ${Math.round(load.requestsPerSecond).toString().padStart(6)} req/s, p50 ${load.p50Ms.toFixed(2)} ms, p99 ${load.p99Ms.toFixed(2)} ms`);
    }
    const [direct, viaBare, viaProxy] = results.map(([, r]) => r.requestsPerSecond);
    log(`resident memory after these runs: hr-mock proxy ${(await rssMb(proxy.pid)).toFixed(1)} MB, bare proxy ${(await rssMb(bare.pid)).toFixed(1)} MB`);
    log(`ratios: hr-mock proxy / direct ${(viaProxy / direct).toFixed(2)}, hr-mock proxy / bare proxy ${(viaProxy / viaBare).toFixed(2)}, bare proxy / direct ${(viaBare / direct).toFixed(2)}`);

    log(`memory over a long run: ${rounds} rounds of ${seconds} s of the mixed workload through hr-mock proxy, in this process`);
    const gc = (globalThis as { gc?: () => void }).gc;
    if (!gc) log("warning: node runs without --expose-gc: the heap is read without a full collection first");
    const inProcess = await startProxy({ upstream: mock.url, port: 0, log: () => undefined });
    try {
      for (let round = 0; round <= rounds; round++) {
        if (round > 0) await measure({ url: inProcess.url + "/", headers: HEADERS, connections, warmupSeconds: 1, seconds, paths });
        await inProcess.idle();
        gc?.();
        const report = inProcess.report();
        const heap = process.memoryUsage().heapUsed / 1024 / 1024;
        log(`  after round ${round}: heap ${heap.toFixed(1)} MB after a full collection, ${report.exchanges.total} exchanges checked, ${report.violations.total} violations`);
      }
    } finally {
      await inProcess.close();
    }
  } finally {
    await Promise.all([proxy.stop(), bare.stop(), mock.stop()]);
  }
}

main().catch((error: unknown) => {
  console.error(`bench-proxy: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
