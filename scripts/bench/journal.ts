// What the request journal costs (issue 22's bar: at most 10 % of the cached path's throughput):
// the mock with its journal at the default bound against the same mock with --journal-size 0, side
// by side on GET /v1/leaverequest/list with a valid key (answered from the response cache after
// the first requests), the two taking turns over the rounds, each one's best round reported, and
// the ratio of the two. Then, in process, the heap with the demo world's journal full and after
// twenty times as many requests again: a journal at its bound holds memory flat.
import { mockLimits } from "../../generated/control-facts.js";
import { DEMO_KEY, startMock } from "../../mock/index.js";
import { heapMb } from "./heap.js";
import { measure, type LoadResult } from "./load.js";
import { startMockServer, type BenchServer, type SideBySideOptions } from "./servers.js";

export type JournalBenchOptions = SideBySideOptions;

export interface JournalCost {
  on: LoadResult;
  off: LoadResult;
  /** Throughput with the journal over throughput without (1 = free). */
  ratio: number;
  /** The same, read from the servers' CPU time per request. */
  cpuRatio: number;
  heap: { fullMb: number; afterMb: number; requests: number };
}

/** The bar: recording may cost the cached path at most this share of its throughput. */
export const JOURNAL_TARGET = 0.9;

export async function measureJournal(options: JournalBenchOptions): Promise<JournalCost> {
  const { log } = options;
  const servers: [string, BenchServer][] = [];
  try {
    log(`starting hr-mock with its journal (default ${mockLimits.journalPerWorld} per world) and hr-mock --journal-size 0 (${options.entry})…`);
    servers.push(["journal on", await startMockServer(options.root, options.probe, [], undefined, options.entry)]);
    servers.push(["journal off", await startMockServer(options.root, options.probe, ["--journal-size", "0"], undefined, options.entry)]);
    const best = new Map<string, LoadResult>();
    for (let round = 1; round <= options.rounds; round++) {
      for (const [label, server] of servers) {
        log(`round ${round}/${options.rounds}: ${label}, warming up ${options.warmup} s, measuring ${options.seconds} s…`);
        const load = await measure({ url: server.url + options.probe.path, headers: options.probe.headers, connections: options.connections, warmupSeconds: options.warmup, seconds: options.seconds, serverCpuMs: server.cpuMs });
        if (load.bad > 0) log(`warning: ${label} gave ${load.bad} answers that were not 2xx (or failed)`);
        log(`  ${Math.round(load.requestsPerSecond).toLocaleString("en")} req/s, ${load.serverCpuUsPerRequest.toFixed(0)} µs CPU per request, RSS ${(await server.rssMb()).toFixed(0)} MB`);
        const before = best.get(label);
        if (!before || load.requestsPerSecond > before.requestsPerSecond) best.set(label, load);
      }
    }
    const on = best.get("journal on")!;
    const off = best.get("journal off")!;
    const heap = await heapAtBound(log);
    return { on, off, ratio: on.requestsPerSecond / off.requestsPerSecond, cpuRatio: off.serverCpuUsPerRequest / on.serverCpuUsPerRequest, heap };
  } finally {
    await Promise.all(servers.map(([, server]) => server.stop()));
  }
}


/** The heap with the default world's journal full, and after twenty times its bound in more requests. */
async function heapAtBound(log: (line: string) => void): Promise<JournalCost["heap"]> {
  const mock = await startMock({ port: 0, today: "2026-11-02", rateLimit: "off" });
  try {
    const send = async (count: number) => {
      // Distinct URLs (a new PageNumber each), so entries are not all alike; 20 at a time.
      for (let sent = 0; sent < count; sent += 20) {
        await Promise.all(
          Array.from({ length: Math.min(20, count - sent) }, async (_, i) => {
            const answer = await fetch(`${mock.url}/v1/leaverequest/list?PageSize=1&PageNumber=${((sent + i) % 500) + 1}`, { headers: { authorization: `Bearer ${DEMO_KEY.org1Full}` } });
            await answer.arrayBuffer();
          }),
        );
      }
    };
    const bound = mockLimits.journalPerWorld;
    log(`in process: filling the demo world's journal (${bound} requests)…`);
    await send(bound * 2);
    const fullMb = heapMb();
    const more = bound * 20;
    log(`in process: ${more.toLocaleString("en")} more requests at the bound…`);
    await send(more);
    const afterMb = heapMb();
    const held = (await mock.requests()).length;
    if (held !== bound) throw new Error(`the journal holds ${held} requests, expected its bound ${bound}`);
    return { fullMb, afterMb, requests: more };
  } finally {
    await mock.close();
  }
}

export function printJournalCost(cost: JournalCost): void {
  const rps = (r: LoadResult) => Math.round(r.requestsPerSecond).toLocaleString("en");
  const verdict = cost.ratio >= JOURNAL_TARGET ? "met" : "MISSED";
  console.log("");
  console.log(`journal on (${mockLimits.journalPerWorld} per world)   ${rps(cost.on)} req/s, p99 ${cost.on.p99Ms.toFixed(2)} ms, ${cost.on.serverCpuUsPerRequest.toFixed(0)} µs CPU/req`);
  console.log(`journal off (--journal-size 0) ${rps(cost.off)} req/s, p99 ${cost.off.p99Ms.toFixed(2)} ms, ${cost.off.serverCpuUsPerRequest.toFixed(0)} µs CPU/req`);
  console.log(`journal on / off               ${(cost.ratio * 100).toFixed(0)}%  (target ≥ ${JOURNAL_TARGET * 100}%: ${verdict}); by CPU per request ${(cost.cpuRatio * 100).toFixed(0)}%`);
  console.log(`heap with the journal full ${cost.heap.fullMb.toFixed(1)} MB, after ${cost.heap.requests.toLocaleString("en")} more requests ${cost.heap.afterMb.toFixed(1)} MB (${(cost.heap.afterMb - cost.heap.fullMb >= 0 ? "+" : "") + (cost.heap.afterMb - cost.heap.fullMb).toFixed(1)} MB)`);
}
