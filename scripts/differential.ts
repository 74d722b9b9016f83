// A differential run: the same requests, in the same order, sent to the mock of this checkout and to
// the mock of another checkout (the previous main), each started with `hr-mock serve` from its own
// tree; every answer's status, headers (but Date and Keep-Alive) and body bytes are compared. What
// is random by design (ids, keys and secrets the mock mints, wall-clock times and durations) is
// replaced on each side by a token numbered in order of first appearance, so two mocks that mint the
// same things in the same order compare equal, and the seeded data (compared first, whole) never is.
//
//   npm run differential -- --against ../previous-main [--only http|cli] [--out report.json]
//
// Then `hr-mock`'s help and refused usages: output and exit status.
//
// Exit 0: no answer differs; 1: some differ (each printed); 2: bad usage or a mock that never started.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:http";
import { connect } from "node:net";
import { existsSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { freePort } from "./lib/free-port.js";
import { startRedis, type RedisServer } from "./lib/redis-server.js";
import { requestPlan, type Step } from "./differential/plan.js";
import { cliCases, runCli } from "./differential/cli.js";
import { DEMO_KEY } from "../mock/keys/demo-keys.js";
import { jsonOrUndefined } from "../mock/kernel/json-text.js";

const USAGE = "usage: npm run differential -- --against <checkout of the previous main> [--current <checkout>] [--only http|cli] [--out <report.json>]";
const TODAY = "2026-06-15";

interface Answer {
  status: number;
  head: string;
  body: string;
}

/** One raw HTTP/1.1 exchange, `Connection: close`, so the bytes are exactly what the mock wrote. */
function exchange(port: number, raw: string | Buffer): Promise<Answer> {
  return new Promise((done, fail) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.setTimeout(30_000, () => socket.destroy(new Error("no answer in 30 s")));
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", fail);
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("latin1");
      const split = text.indexOf("\r\n\r\n");
      const head = split < 0 ? text : text.slice(0, split);
      const body = split < 0 ? "" : Buffer.from(text.slice(split + 4), "latin1").toString("utf8");
      done({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), head, body });
    });
    socket.write(raw); // not end(): a half-closed client may lose an answer still being made
  });
}

function rawRequest(step: Step, vars: Map<string, string>): string | Buffer {
  const fill = (text: string) => text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => vars.get(name) ?? `{{${name}}}`);
  if (step.raw) return fill(step.raw);
  const body = step.body === undefined ? "" : typeof step.body === "string" ? step.body : JSON.stringify(step.body);
  const headers = [["Host", "127.0.0.1"], ...(step.headers ?? []), ["Connection", "close"]];
  if (step.body !== undefined) headers.push(["Content-Length", String(Buffer.byteLength(fill(body)))]);
  const lines = [`${step.method ?? "GET"} ${fill(step.path)} HTTP/1.1`, ...headers.map(([name, value]) => `${name}: ${fill(value)}`)];
  return `${lines.join("\r\n")}\r\n\r\n${fill(body)}`;
}

/** Tokens for what a mock mints, numbered per side in order of first appearance. */
class Minted {
  private readonly tokens = new Map<string, string>();
  constructor(private readonly seeded: Set<string>, private readonly today: string, private readonly own: string[] = []) {}
  private token(kind: string, value: string): string {
    let token = this.tokens.get(value);
    if (!token) this.tokens.set(value, (token = `<${kind}#${this.tokens.size + 1}>`));
    return token;
  }
  mask(text: string): string {
    // A side's own addresses (its Redis database) read the same on both.
    for (const value of this.own) text = text.replaceAll(value, "<own>");
    return text
      .replace(new RegExp(`${this.today}T\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z`, "g"), "<now>")
      .replace(/(\w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d GMT)/g, "<http-date>")
      .replace(/("(?:durationMs|uptimeSeconds|ms)"\s*:\s*)[\d.]+/g, "$1<n>")
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (id) => (this.seeded.has(id) ? id : this.token("id", id)))
      .replace(/sbx_[A-Za-z0-9_-]{16}(?=_)/g, (key) => this.token("sbx", key))
      .replace(/whsec_[A-Za-z0-9_+/=-]+/g, (secret) => this.token("whsec", secret))
      .replace(/(t=)\d{10}|(v1,)[A-Za-z0-9+/=]+/g, "$1$2<sig>");
  }
}

const DROPPED_HEADERS = /^(date|keep-alive):/i;
/** Status, head and body as compared; a body with masked values has its Content-Length masked too. */
function comparable(answer: Answer, minted: Minted) {
  const body = minted.mask(answer.body);
  let head = minted.mask(answer.head.split("\r\n").filter((line) => !DROPPED_HEADERS.test(line)).join("\n"));
  if (body !== answer.body) head = head.replace(/^(Content-Length: )\d+$/im, "$1<masked>");
  return { status: answer.status, head, body };
}

async function startMock(checkout: string, args: string[], label: string): Promise<{ port: number; child: ChildProcess; log: string[] }> {
  const port = await freePort();
  const log: string[] = [];
  const child = spawn(process.execPath, [resolve(checkout, "mock/bin/hr-mock.js"), "serve", "--port", String(port), "--today", TODAY, ...args], {
    cwd: checkout,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (chunk) => log.push(String(chunk)));
  child.stderr!.on("data", (chunk) => log.push(String(chunk)));
  const exited = new Promise<never>((_, fail) => child.once("exit", (code) => fail(new Error(`${label} exited (${code}) before it was ready:\n${log.join("")}`))));
  const deadline = Date.now() + 180_000;
  for (;;) {
    const ready = await Promise.race([exchange(port, "GET /_mock/ready HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").catch(() => undefined), exited]);
    if (ready?.status === 200) return { port, child, log };
    if (Date.now() > deadline) throw new Error(`${label} not ready in 180 s`);
    await new Promise((wake) => setTimeout(wake, 250));
  }
}

/** A receiver for the runs' webhook endpoints: answers every delivery 204 at once. */
async function startReceiver(): Promise<{ url: string; close: () => void }> {
  const server = createServer((request, response) => request.resume().on("end", () => response.writeHead(204).end()));
  await new Promise<void>((up) => server.listen(0, "127.0.0.1", up));
  const address = server.address();
  return { url: `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/hooks`, close: () => server.close() };
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { against: { type: "string" }, current: { type: "string" }, out: { type: "string" }, only: { type: "string" }, help: { type: "boolean", short: "h" } } });
  if (values.help) return (console.log(USAGE), 0);
  const previous = values.against ? resolve(values.against) : "";
  if (values.only !== undefined && !["http", "cli"].includes(values.only)) return (console.error(`differential: --only takes http or cli\n${USAGE}`), 2);
  if (!previous || !existsSync(resolve(previous, "mock/bin/hr-mock.js"))) return (console.error(`differential: --against must name a checkout with mock/bin/hr-mock.js\n${USAGE}`), 2);
  // --current: another checkout in place of this one (two runs of one checkout show what is not deterministic).
  const current = resolve(values.current ?? resolve(import.meta.dirname, ".."));
  const today = new Date().toISOString().slice(0, 10);
  const receiver = await startReceiver();
  const differences: Array<{ config: string; step: string; previous: unknown; current: unknown }> = [];
  let compared = 0;
  let redis: RedisServer | undefined;
  try {
    for (const { name: config, args, steps, redis: onRedis } of values.only === "cli" ? [] : requestPlan(receiver.url)) {
      // A Redis state: one server, a database each, so the two mocks share nothing.
      redis = onRedis ? (redis ?? (await startRedisIfInstalled())) : redis;
      if (onRedis && !redis) {
        process.stderr.write(`differential: ${config}: skipped, no redis-server on the PATH\n`);
        continue;
      }
      const sideArgs = (db: number) => (onRedis ? [...args, "--state", `${redis!.url}/${db}`] : args);
      process.stderr.write(`differential: ${config}: starting both mocks…\n`);
      const sides = await Promise.all([startMock(previous, sideArgs(1), `previous (${config})`), startMock(current, sideArgs(2), `current (${config})`)]);
      try {
        // The seeded data, whole and unmasked, from both (each journals this request): its ids are never masked.
        const data = await Promise.all(sides.map((side) => exchange(side.port, `GET /_mock/data HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${DEMO_KEY.org1WebhooksAdmin}\r\nConnection: close\r\n\r\n`)));
        compared += 1;
        if (data[0].status !== data[1].status || data[0].body !== data[1].body) differences.push({ config, step: "the seeded data (GET /_mock/data)", previous: data[0], current: data[1] });
        const seeded = new Set(data[0].body.match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g) ?? []);
        const minted = sides.map((_, index) => new Minted(seeded, today, onRedis ? [`${redis!.url}/${index + 1}`] : []));
        const vars = sides.map(() => new Map<string, string>());
        for (const step of steps) {
          const answers: Answer[] = [];
          for (const [index, side] of sides.entries()) {
            if (step.until) await waitFor(side.port, step);
            answers.push(await exchange(side.port, rawRequest(step, vars[index])));
            for (const [name, pick] of Object.entries(step.capture ?? {})) {
              const value = pick(jsonOrUndefined(answers[index].body));
              if (value !== undefined) vars[index].set(name, value);
            }
          }
          const [a, b] = answers.map((answer, index) => comparable(answer, minted[index]));
          compared += 1;
          const same = a.status === b.status && (step.statusOnly || (a.head === b.head && a.body === b.body));
          if (!same) differences.push({ config, step: step.name, previous: a, current: b });
        }
      } finally {
        for (const side of sides) side.child.kill("SIGINT");
      }
    }
  } finally {
    receiver.close();
    await redis?.close();
  }
  const commandLines = values.only === "http" ? [] : cliCases;
  if (commandLines.length > 0) process.stderr.write(`differential: the command line, ${commandLines.length} cases…\n`);
  for (const args of commandLines) {
    const [a, b] = await Promise.all([runCli(previous, args), runCli(current, args)]);
    compared += 1;
    if (a.code !== b.code || a.stdout !== b.stdout || a.stderr !== b.stderr) differences.push({ config: "hr-mock", step: args.join(" "), previous: a, current: b });
  }
  if (values.out) writeFileSync(values.out, `${JSON.stringify({ compared, differences }, null, 2)}\n`);
  for (const difference of differences) {
    console.log(`DIFFERS ${difference.config} / ${difference.step}\n  previous: ${JSON.stringify(difference.previous).slice(0, 600)}\n  current:  ${JSON.stringify(difference.current).slice(0, 600)}`);
  }
  console.log(`differential: ${compared} requests compared, ${compared - differences.length} the same, ${differences.length} different`);
  return differences.length === 0 ? 0 : 1;
}

async function startRedisIfInstalled(): Promise<RedisServer | undefined> {
  try {
    return await startRedis();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** Polls the metrics until a step's `until` holds of them (deliveries settle in the background). */
async function waitFor(port: number, step: Step): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const answer = await exchange(port, "GET /_mock/metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    if (step.until!(answer.body)) return;
    await new Promise((wake) => setTimeout(wake, 100));
  }
  throw new Error(`${step.name}: the metrics never showed the background work settled in 30 s`);
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`differential: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  },
);
