// The journals' memory budget (issue 31): a mock with 100 sandboxes, each sent 1,100 requests whose
// URLs are 12 KB long (a long unknown parameter: answered 200, and never from the response cache,
// each URL being new), ten at a time across the sandboxes. The mock runs as users run it (hr-mock
// serve, its own process). Its resident set is read at the start, right after the requests (with
// the garbage V8 has not collected yet: under load it lets the heap grow to a few times what is
// live), and at rest: once the mock has idled long enough for V8's memory reducer to collect and
// compact (within a minute here). A collection forced at once compacts far less, so the bench waits.
// The heap in use after full collections (heap-probe.mjs) says what is live. The bar: at rest, the
// requests leave the resident set within 150 MB of where it started.
import { Agent, request } from "node:http";
import { mockLimits } from "../../generated/control-facts.js";
import { DEMO_KEY } from "../../mock/keys/demo-keys.js";
import { startMockServer, type BenchServer, type MockEntry, type Probe } from "./servers.js";

export interface JournalBudgetOptions {
  root: string;
  probe: Probe;
  entry: MockEntry;
  log: (line: string) => void;
  /** Sandboxes, requests per sandbox, URL length: the scenario by default. */
  sandboxes?: number;
  requests?: number;
  urlLength?: number;
}

export interface JournalBudgetCost {
  sandboxes: number;
  requests: number;
  urlLength: number;
  /** Resident set (MB): at the start, right after the requests, and at rest after them. */
  rss: { startMb: number; rightAfterMb: number; afterMb: number };
  /** Seconds of idling before the resident set came to rest. */
  restSeconds: number;
  /** The heap in use after full collections (MB): at the start and after the requests. */
  heap: { startMb: number; afterMb: number };
  /** Requests per second the mock answered them at (a figure of the run, not a bar). */
  requestsPerSecond: number;
}

/** The bar: what the requests may add to the mock's resident set at rest, MB. */
export const JOURNAL_BUDGET_RSS_BAR_MB = 150;
const IN_FLIGHT = 10;
/** How long the resident set must hold, once it has fallen, to be at rest; and the longest wait. */
const REST_MS = 10_000;
const MAX_IDLE_MS = 90_000;

export async function measureJournalBudget(options: JournalBudgetOptions): Promise<JournalBudgetCost> {
  const { log, sandboxes: count = 100, requests: perSandbox = 1100, urlLength = 12 * 1024 } = options;
  log(`journals' memory: starting hr-mock (journals share ${mockLimits.journalMemoryMb} MB by default; URLs kept to ${mockLimits.journalUrlBytes} bytes)…`);
  const server = await startMockServer(options.root, options.probe, [], undefined, options.entry, "heap");
  try {
    const heapStartMb = await server.heapMb!();
    const startMb = await server.rssMb();
    const keys = await createSandboxes(server, count);
    const total = count * perSandbox;
    log(`journals' memory: ${total.toLocaleString("en")} requests with ${urlLength.toLocaleString("en")}-character URLs over ${count} sandboxes, ${IN_FLIGHT} at a time…`);
    const started = performance.now();
    await sendAll(server.url, keys, perSandbox, urlLength, log);
    const seconds = (performance.now() - started) / 1000;
    const rightAfterMb = await server.rssMb();
    log(`journals' memory: idling until the resident set comes to rest (at most ${MAX_IDLE_MS / 1000} s)…`);
    const rest = await atRest(server);
    const heapAfterMb = await server.heapMb!();
    return {
      sandboxes: count,
      requests: perSandbox,
      urlLength,
      rss: { startMb, rightAfterMb, afterMb: rest.rssMb },
      restSeconds: rest.seconds,
      heap: { startMb: heapStartMb, afterMb: heapAfterMb },
      requestsPerSecond: total / seconds,
    };
  } finally {
    await server.stop();
  }
}

/** The resident set read every second until, having fallen, it holds for REST_MS; or what it is after MAX_IDLE_MS. */
async function atRest(server: BenchServer): Promise<{ rssMb: number; seconds: number }> {
  const started = performance.now();
  let rssMb = await server.rssMb();
  let fell = false;
  let heldSince = started;
  while (performance.now() - started < MAX_IDLE_MS) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const now = await server.rssMb();
    if (Math.abs(now - rssMb) > 1) {
      fell ||= now < rssMb;
      rssMb = now;
      heldSince = performance.now();
    } else if (fell && performance.now() - heldSince >= REST_MS) break;
  }
  return { rssMb, seconds: (performance.now() - started) / 1000 };
}

/** Each sandbox's key with both permissions of organisation 1. */
async function createSandboxes(server: BenchServer, count: number): Promise<string[]> {
  const keys: string[] = [];
  for (let i = 0; i < count; i++) {
    const answer = await fetch(`${server.url}/_mock/sandboxes`, {
      method: "POST",
      headers: { authorization: `Bearer ${DEMO_KEY.org1WebhooksAdmin}`, "content-type": "application/json" },
      body: JSON.stringify({ label: `journal budget #${i + 1}` }),
    });
    const body = (await answer.json()) as { data?: { keys: { key: string; demoKey: string }[] }; message?: string };
    const key = body.data?.keys.find((k) => k.demoKey === DEMO_KEY.org1Full)?.key;
    if (answer.status !== 201 || key === undefined) throw new Error(`creating sandbox ${i + 1} answered ${answer.status}: ${body.message ?? "no org1Full key"}`);
    keys.push(key);
  }
  return keys;
}

/** Every request, round robin over the sandboxes, IN_FLIGHT at a time on kept-alive connections; any answer but 200 stops the run. */
async function sendAll(base: string, keys: readonly string[], perSandbox: number, urlLength: number, log: (line: string) => void): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
  const { hostname, port } = new URL(base);
  const total = keys.length * perSandbox;
  let next = 0;
  const worker = async () => {
    while (next < total) {
      const n = next++;
      const status = await get(agent, hostname, Number(port), urlOf(n, urlLength), keys[n % keys.length]);
      if (status !== 200) throw new Error(`request ${n + 1} answered ${status}`);
      if ((n + 1) % 20_000 === 0) log(`journals' memory: ${(n + 1).toLocaleString("en")} requests answered`);
    }
  };
  try {
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  } finally {
    agent.destroy();
  }
}

/** A list request made `length` characters long by an unknown parameter, new for every `n`. */
function urlOf(n: number, length: number): string {
  const start = `/v1/leaverequest/list?PageSize=1&n=${n}&pad=`;
  return start + "x".repeat(Math.max(0, length - start.length));
}

function get(agent: Agent, hostname: string, port: number, path: string, key: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const sent = request({ agent, hostname, port, path, headers: { authorization: `Bearer ${key}` } }, (answer) => {
      answer.resume();
      answer.on("end", () => resolve(answer.statusCode ?? 0));
      answer.on("error", reject);
    });
    sent.on("error", reject);
    sent.end();
  });
}

export function printJournalBudget(cost: JournalBudgetCost): void {
  const grown = cost.rss.afterMb - cost.rss.startMb;
  const verdict = grown <= JOURNAL_BUDGET_RSS_BAR_MB ? "met" : "MISSED";
  const mb = (x: number) => `${x.toFixed(0)} MB`;
  console.log("");
  console.log(`journals' memory: ${cost.sandboxes} sandboxes x ${cost.requests.toLocaleString("en")} requests, ${cost.urlLength.toLocaleString("en")}-character URLs (${Math.round(cost.requestsPerSecond).toLocaleString("en")} req/s)`);
  console.log(`  RSS at start ${mb(cost.rss.startMb)}, at rest after the requests ${mb(cost.rss.afterMb)} (after ${cost.restSeconds.toFixed(0)} s idle): ${grown >= 0 ? "+" : ""}${mb(grown)} (bar ≤ +${JOURNAL_BUDGET_RSS_BAR_MB} MB: ${verdict})`);
  console.log(`  RSS right after the requests, before V8 collected: ${mb(cost.rss.rightAfterMb)}`);
  console.log(`  heap in use after full collections: ${mb(cost.heap.startMb)} at start, ${mb(cost.heap.afterMb)} after (the journals' budget: ${mockLimits.journalMemoryMb} MB)`);
}
