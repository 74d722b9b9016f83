// What keeping the state in Redis costs one replica (issue 30's bar: cached reads with
// --state redis:// at least 60 % of the throughput with memory state, aim 90 %): the mock with
// memory state and the same mock with --state redis:// on a redis-server the bench starts
// (Debian's, scripts/lib/redis-server.ts), side by side on GET /v1/leaverequest/list with a valid
// key, both with the rate limit off (answered from each replica's response cache after the first
// requests; the Redis replica admits them itself while Redis has not said the world changed, and
// sends their journal entries in batches), the two taking turns over the rounds, each one's best
// round reported. Beside them: the Redis commands per request, from INFO
// commandstats read before and after each measured run of the Redis replica, over the requests
// autocannon reports (commands a script runs are counted by Redis too); and which of them the
// mock sends and which run inside its scripts, from MONITOR over a short sequential sample
// afterwards (MONITOR slows Redis, so never during a measured run).
import { spawn } from "node:child_process";
import { startRedis, type RedisServer } from "../lib/redis-server.js";
import { measure, type LoadResult } from "./load.js";
import { startMockServer, type BenchServer, type Probe, type SideBySideOptions } from "./servers.js";

export type SharedStateOptions = SideBySideOptions;

export interface CommandCount {
  command: string;
  perRequest: number;
  /** Of those, the share MONITOR saw run inside a script (0 to 1); NaN when the sample had none. */
  inScripts: number;
}

export interface SharedStateCost {
  memory: LoadResult;
  redis: LoadResult;
  /** Throughput with Redis state over throughput with memory state. */
  ratio: number;
  /** The same, read from CPU time per request: the memory mock's over the Redis mock's plus redis-server's. */
  cpuRatio: number;
  /** redis-server's own CPU time per request of the Redis replica's measured runs, µs. */
  redisCpuUsPerRequest: number;
  /** Every Redis command per request over the measured runs, and each command's. */
  commands: { perRequest: number; requests: number; byCommand: CommandCount[] };
  /** Reads redis-server made from its clients per request (INFO stats total_reads_processed): round trips, once pipelining has grouped commands. */
  readsPerRequest: number;
  /** From the MONITOR sample: commands the mock sent (round trips, pipelined) and commands its scripts ran, per request. */
  sample: { requests: number; sentPerRequest: number; inScriptsPerRequest: number };
  redisVersion: string;
  /** How redis-server ran: its persistence settings. */
  redisSettings: string;
}

/** The bar and the aim: Redis state's share of memory state's throughput on cached reads. */
export const SHARED_STATE_TARGET = 0.6;
export const SHARED_STATE_AIM = 0.9;
/** Requests of the MONITOR sample. */
const SAMPLE_REQUESTS = 50;
/**
 * Redis's own default fsync for an append-only file: once a second. The tests run it with
 * `always` (nothing answered is lost to a SIGKILL); that is an operator's choice, not the mock's cost.
 */
const REDIS_ARGS = ["--appendfsync", "everysec"];

export async function measureSharedState(options: SharedStateOptions): Promise<SharedStateCost> {
  const { log, probe } = options;
  log("shared state: starting redis-server (Debian's, a free loopback port, append-only, fsync every second)…");
  const redis = await startRedis({ args: REDIS_ARGS });
  const servers: [string, BenchServer][] = [];
  try {
    const redisVersion = /redis_version:(\S+)/.exec(await redis.cli("INFO", "server"))?.[1] ?? "unknown";
    const redisSettings = (await redis.cli("CONFIG", "GET", "append*")).split("\n").reduce((out, word, i, all) => (i % 2 === 0 && /^(appendonly|appendfsync)$/.test(word) ? [...out, `${word} ${all[i + 1]}`] : out), [] as string[]).join(", ");
    log(`shared state: starting hr-mock (memory state) and hr-mock --state ${redis.url} (${typeof options.entry === "string" ? options.entry : options.entry.installedBin})…`);
    servers.push(["memory state", await startMockServer(options.root, probe, [], undefined, options.entry)]);
    servers.push(["--state redis://", await startMockServer(options.root, probe, ["--state", redis.url], undefined, options.entry)]);
    const best = new Map<string, LoadResult>();
    const calls = new Map<string, number>();
    let requests = 0;
    let redisCpuUs = 0;
    let reads = 0;
    for (let round = 1; round <= options.rounds; round++) {
      for (const [label, server] of servers) {
        const shared = label !== "memory state";
        log(`round ${round}/${options.rounds}: ${label}, warming up ${options.warmup} s, measuring ${options.seconds} s…`);
        let before: Map<string, number> | undefined;
        let cpuBefore = 0;
        let readsBefore = 0;
        const load = await measure({ url: server.url + probe.path, headers: probe.headers, connections: options.connections, warmupSeconds: options.warmup, seconds: options.seconds, serverCpuMs: server.cpuMs }, async () => {
          if (!shared) return;
          before = commandStats(await redis.cli("INFO", "commandstats"));
          cpuBefore = redisCpuUsOf(await redis.cli("INFO", "cpu"));
          readsBefore = readsOf(await redis.cli("INFO", "stats"));
        });
        if (before) {
          const after = commandStats(await redis.cli("INFO", "commandstats"));
          redisCpuUs += redisCpuUsOf(await redis.cli("INFO", "cpu")) - cpuBefore;
          // The INFO readings between are the bench's own reads (three).
          reads += readsOf(await redis.cli("INFO", "stats")) - readsBefore - 3;
          for (const [command, count] of after) calls.set(command, (calls.get(command) ?? 0) + count - (before.get(command) ?? 0));
          requests += load.total;
        }
        if (load.bad > 0) log(`warning: ${label} gave ${load.bad} answers that were not 2xx (or failed)`);
        log(`  ${Math.round(load.requestsPerSecond).toLocaleString("en")} req/s, p99 ${load.p99Ms.toFixed(2)} ms, ${load.serverCpuUsPerRequest.toFixed(0)} µs CPU per request`);
        const kept = best.get(label);
        if (!kept || load.requestsPerSecond > kept.requestsPerSecond) best.set(label, load);
      }
    }
    // The readings themselves are commands of their own: INFO is not the mock's.
    calls.delete("info");
    log(`shared state: which commands the mock sends and which its scripts run (MONITOR over ${SAMPLE_REQUESTS} requests, one at a time)…`);
    const sample = await monitorSample(redis, servers[1][1], probe);
    const memory = best.get("memory state")!;
    const shared = best.get("--state redis://")!;
    const redisCpuUsPerRequest = redisCpuUs / requests;
    const total = [...calls.values()].reduce((sum, n) => sum + n, 0);
    const byCommand = [...calls]
      .filter(([, n]) => n > 0)
      .map(([command, n]) => ({ command, perRequest: n / requests, inScripts: sample.inScripts(command) }))
      .sort((a, b) => b.perRequest - a.perRequest || a.command.localeCompare(b.command));
    return {
      memory,
      redis: shared,
      ratio: shared.requestsPerSecond / memory.requestsPerSecond,
      cpuRatio: memory.serverCpuUsPerRequest / (shared.serverCpuUsPerRequest + redisCpuUsPerRequest),
      redisCpuUsPerRequest,
      commands: { perRequest: total / requests, requests, byCommand },
      readsPerRequest: reads / requests,
      sample: { requests: SAMPLE_REQUESTS, sentPerRequest: sample.sent / SAMPLE_REQUESTS, inScriptsPerRequest: sample.scripted / SAMPLE_REQUESTS },
      redisVersion,
      redisSettings,
    };
  } finally {
    await Promise.all(servers.map(([, server]) => server.stop()));
    await redis.close();
  }
}

/** INFO commandstats as calls per command (lower case; a subcommand as "client|setname"). */
export function commandStats(info: string): Map<string, number> {
  const calls = new Map<string, number>();
  for (const found of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) calls.set(found[1].toLowerCase(), Number(found[2]));
  return calls;
}

/** redis-server's CPU time so far (user and system, of all its threads), µs, from INFO cpu. */
function redisCpuUsOf(info: string): number {
  const seconds = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, "m").exec(info)?.[1] ?? Number.NaN);
  return (seconds("used_cpu_user") + seconds("used_cpu_sys")) * 1e6;
}

/** Reads redis-server has made from its clients so far (INFO stats). */
function readsOf(info: string): number {
  return Number(/^total_reads_processed:(\d+)/m.exec(info)?.[1] ?? Number.NaN);
}

/**
 * MONITOR (through redis-cli) while the mock answers SAMPLE_REQUESTS requests one after another; the
 * sample ends at an ECHO the bench sends after the last answer, so every command of theirs is in.
 * A line of MONITOR names where its command came from: "[0 lua]" inside a script, else the client.
 */
async function monitorSample(redis: RedisServer, server: BenchServer, probe: Probe): Promise<{ sent: number; scripted: number; inScripts(command: string): number }> {
  const marker = `hr-mock-bench-sample-end-${process.pid}`;
  const monitor = spawn("redis-cli", ["-p", String(redis.port), "MONITOR"], { stdio: ["ignore", "pipe", "pipe"] });
  let text = "";
  monitor.stdout.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
  try {
    await until(monitor, () => /^OK$/m.test(text), "MONITOR to start");
    const start = text.length;
    for (let i = 0; i < SAMPLE_REQUESTS; i++) {
      const answer = await fetch(server.url + probe.path, { headers: probe.headers });
      await answer.arrayBuffer();
      if (answer.status !== 200) throw new Error(`the Redis replica answered ${answer.status} in the MONITOR sample`);
    }
    await redis.cli("ECHO", marker);
    await until(monitor, () => text.includes(marker), "MONITOR to show the sample's end");
    const lines = text.slice(start, text.indexOf(marker)).split("\n").filter((line) => /^\d+\.\d+ \[/.test(line));
    const byCommand = new Map<string, { sent: number; scripted: number }>();
    let sent = 0;
    let scripted = 0;
    for (const line of lines) {
      const fromScript = /^\S+ \[\d+ lua\]/.test(line);
      const command = /\] "([^"]+)"/.exec(line)?.[1]?.toLowerCase() ?? "?";
      const count = byCommand.get(command) ?? { sent: 0, scripted: 0 };
      if (fromScript) count.scripted++, scripted++;
      else count.sent++, sent++;
      byCommand.set(command, count);
    }
    return {
      sent,
      scripted,
      inScripts: (command) => {
        const count = byCommand.get(command);
        return count ? count.scripted / (count.sent + count.scripted) : Number.NaN;
      },
    };
  } finally {
    monitor.kill();
  }
}

function until(monitor: ReturnType<typeof spawn>, done: () => boolean, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error(`redis-cli gave no sign of ${what} within 30 s`)), 30_000);
    const check = () => done() && finish();
    const gone = (code: number | null) => finish(new Error(`redis-cli MONITOR exited (${code}) before ${what}`));
    const finish = (error?: Error) => {
      clearTimeout(timer);
      monitor.stdout?.off("data", check);
      monitor.off("exit", gone);
      if (error) reject(error);
      else resolve();
    };
    monitor.stdout?.on("data", check);
    monitor.once("exit", gone);
    check();
  });
}

export function printSharedState(cost: SharedStateCost): void {
  const rps = (r: LoadResult) => Math.round(r.requestsPerSecond).toLocaleString("en");
  const verdict = cost.ratio >= SHARED_STATE_TARGET ? "met" : "MISSED";
  const aim = cost.ratio >= SHARED_STATE_AIM ? "reached" : "not reached";
  console.log("");
  console.log(`shared state, one replica, cached GET (redis-server ${cost.redisVersion}: ${cost.redisSettings}):`);
  console.log(`  memory state            ${rps(cost.memory)} req/s, p99 ${cost.memory.p99Ms.toFixed(2)} ms, ${cost.memory.serverCpuUsPerRequest.toFixed(0)} µs CPU/req`);
  console.log(`  --state redis://        ${rps(cost.redis)} req/s, p99 ${cost.redis.p99Ms.toFixed(2)} ms, ${cost.redis.serverCpuUsPerRequest.toFixed(0)} µs CPU/req (+ redis-server ${cost.redisCpuUsPerRequest.toFixed(0)} µs)`);
  console.log(`  redis / memory          ${(cost.ratio * 100).toFixed(0)}%  (target ≥ ${SHARED_STATE_TARGET * 100}%: ${verdict}; aim ${SHARED_STATE_AIM * 100}%: ${aim}); by CPU per request, mock and redis-server together, ${(cost.cpuRatio * 100).toFixed(0)}%`);
  console.log(`  Redis commands per request: ${cost.commands.perRequest.toFixed(2)} (INFO commandstats over ${cost.commands.requests.toLocaleString("en")} requests; the commands scripts run included)`);
  for (const c of cost.commands.byCommand) {
    const where = Number.isNaN(c.inScripts) ? "not in the sample" : c.inScripts === 1 ? "inside a script" : c.inScripts === 0 ? "sent by the mock" : `${(c.inScripts * 100).toFixed(0)}% inside a script`;
    console.log(`    ${c.command.padEnd(18)} ${c.perRequest.toFixed(3)}  (${where})`);
  }
  console.log(`  round trips per request: ${cost.readsPerRequest.toFixed(2)} (redis-server's reads from its clients, INFO stats; pipelining groups the commands of ${(1 / cost.readsPerRequest).toFixed(1)} requests in one)`);
  console.log(`  MONITOR over ${cost.sample.requests} requests one at a time: ${cost.sample.sentPerRequest.toFixed(2)} commands sent by the mock per request, ${cost.sample.inScriptsPerRequest.toFixed(2)} run inside its scripts`);
}
