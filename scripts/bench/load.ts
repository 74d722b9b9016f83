// Load through autocannon (programmatic): a warm-up, then a measured run whose latencies are kept
// at full resolution (autocannon's own histogram rounds to whole milliseconds).
import { createRequire } from "node:module";

interface AutocannonInstance extends PromiseLike<AutocannonResult> {
  on(event: "response", listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void): void;
  stop(): void;
}
interface AutocannonResult {
  requests: { total: number; average: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  duration: number;
}
type Autocannon = (options: Record<string, unknown>) => AutocannonInstance;

const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  total: number;
  /** Answers other than 2xx, errors and timeouts: a valid run has none. */
  bad: number;
  /**
   * The server's CPU time per answered request, in microseconds: what one request costs the server
   * whatever else the shared machine is doing (NaN without serverCpuMs).
   */
  serverCpuUsPerRequest: number;
}

export interface LoadOptions {
  url: string;
  headers: Record<string, string>;
  connections: number;
  warmupSeconds: number;
  seconds: number;
  /** autocannon replaces [<id>] in the URL with a fresh id per request (defeats response caches). */
  idReplacement?: boolean;
  /** Paths (under `url`'s origin) sent in turn instead of `url`'s own path. */
  paths?: string[];
  /** The server's CPU time so far (ms), read after the warm-up and after the run. */
  serverCpuMs?: () => Promise<number>;
}

export async function measure(options: LoadOptions, onWarm?: () => Promise<void>): Promise<LoadResult> {
  const base = {
    url: options.url,
    headers: options.headers,
    connections: options.connections,
    idReplacement: options.idReplacement ?? false,
    ...(options.paths ? { requests: options.paths.map((path) => ({ method: "GET", path })) } : {}),
  };
  await autocannon({ ...base, duration: options.warmupSeconds });
  if (onWarm) await onWarm();
  const cpuBefore = options.serverCpuMs ? await options.serverCpuMs() : Number.NaN;
  const latencies: number[] = [];
  const run = autocannon({ ...base, duration: options.seconds });
  run.on("response", (_client, statusCode, _bytes, responseTime) => {
    if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
  });
  const result = await run;
  const cpuAfter = options.serverCpuMs ? await options.serverCpuMs() : Number.NaN;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => (latencies.length === 0 ? Number.NaN : latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]);
  return {
    requestsPerSecond: result.requests.total / result.duration,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    total: result.requests.total,
    bad: result.non2xx + result.errors + result.timeouts,
    serverCpuUsPerRequest: ((cpuAfter - cpuBefore) * 1000) / result.requests.total,
  };
}
