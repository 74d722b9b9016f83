// A rolling restart loses nothing, for real: two replicas of `hr-mock serve` on one Redis, behind
// Debian's nginx with the repository's examples/load-balancer/nginx.conf (its ports changed to free
// ones), a steady load of a few hundred requests a second through nginx, and each replica restarted
// in turn as Kubernetes does it (SIGTERM, a fresh one started, the next one stopped a few seconds
// after the fresh one answers). Every request is answered 200, every answered request is in the
// journal and the coverage, and every webhook delivery is attempted once. The replicas are
// configured as a container would be: HR_MOCK_* variables, the Redis password in
// HR_MOCK_REDIS_PASSWORD, nothing secret in their arguments.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { connect } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { RequestListener } from "node:http";
import { DEMO_KEY } from "../../mock/keys/demo-keys.js";
import { repoRoot } from "../../scripts/lib/spec-document.js";
import { hrMockArgs } from "../support/hr-mock.js";
import { freePort, startRedis, type RedisServer } from "../support/redis-server.js";
import { createReceiver, listen, type ListeningReceiver } from "../../src/webhooks/node/index.js";

/** The load: requests a second through nginx, and the bound on those in flight (a slow machine sends fewer, never a burst). */
const RATE = 200;
const MAX_IN_FLIGHT = 32;
/** Triggers a second among them (each one webhook delivery). */
const TRIGGER_RATE = 4;
/** What the restart waits after a fresh replica answers before stopping the next (Kubernetes' pace, shortened). */
const SETTLE_MS = 2000;
/** The load's read operations, each request with its own PageNumber: each URL is one request in the journal. */
const READS = [
  ["listDepartments", "/v1/department/list?PageSize=1&PageNumber="],
  ["listLeaveRequests", "/v1/leaverequest/list?PageSize=1&PageNumber="],
  ["listLeaveTypes", "/v1/leavetype/list?PageSize=1&PageNumber="],
  ["listEmployees", "/v1/employee/list?PageSize=1&PageNumber="],
] as const;
/** A bound on any one wait, on a loaded machine; what did not come by then is named. */
const WAIT_MS = 60_000;
const PASSWORD = "rolling restart secret";

let redis: RedisServer;
let receiver: Receiver;
let dir: string;
let nginx: ChildProcess;
let front: string;
const replicas: Replica[] = [];

/** The webhook receiver: every attempt's delivery id, each event's deliveries (the package's own verifier). */
interface Receiver {
  url: string;
  attempts: string[];
  /** Deliveries by event id (the first, and any repeat). */
  events: Map<string, number>;
  useSecret(secret: string): void;
  /** Resolves once the condition holds (checked after every delivery). */
  until(condition: () => boolean, what: string): Promise<void>;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  let verify: RequestListener | undefined;
  const attempts: string[] = [];
  const events = new Map<string, number>();
  const waiters = new Set<() => void>();
  const seen = (id: string) => {
    events.set(id, (events.get(id) ?? 0) + 1);
    for (const waiter of waiters) waiter();
  };
  const server: ListeningReceiver = await listen(
    (req, res) => {
      attempts.push(String(req.headers["service-delivery-id"]));
      if (verify) verify(req, res);
      else res.writeHead(503).end();
    },
    { port: 0 },
  );
  return {
    url: `${server.url}/hooks`,
    attempts,
    events,
    useSecret: (secret) => void (verify = createReceiver({ secret, onEvent: (event) => seen(event.id), onDuplicate: (event) => seen(event.id) })),
    until: (condition, what) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => (waiters.delete(check), reject(new Error(`no ${what} within ${WAIT_MS} ms`))), WAIT_MS);
        const check = () => void (condition() && (clearTimeout(timer), waiters.delete(check), resolve()));
        waiters.add(check);
        check();
      }),
    close: () => server.close(),
  };
}

interface Replica {
  port: number;
  child: ChildProcess;
  stderr: string;
  exited: Promise<number | null>;
}

/** Resolves once something accepts connections on the port. */
async function accepting(port: number, what: string): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect({ host: "127.0.0.1", port }, () => (socket.destroy(), resolve(true)));
      socket.once("error", () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`${what} did not listen on port ${port} within ${WAIT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A replica as a container runs it: settings in HR_MOCK_* variables, the password in HR_MOCK_REDIS_PASSWORD. */
async function startReplica(port: number): Promise<Replica> {
  const env = {
    ...process.env,
    HR_MOCK_PORT: String(port),
    HR_MOCK_STATE: redis.url.replace(/:[^:@/]*@/, ""),
    HR_MOCK_REDIS_PASSWORD: PASSWORD,
    HR_MOCK_SEED: "7",
    HR_MOCK_TODAY: "2026-11-23",
    HR_MOCK_SCALE: "0.2",
    HR_MOCK_RATE_LIMIT: "off",
    HR_MOCK_JOURNAL_SIZE: "20000",
    // Longer than the example's keepalive_timeout (2 s), as the guide asks.
    HR_MOCK_DRAIN: "3",
  };
  const child = spawn(process.execPath, [...(await hrMockArgs()), "serve"], { cwd: repoRoot, env, stdio: ["ignore", "ignore", "pipe"] });
  const replica: Replica = { port, child, stderr: "", exited: new Promise((resolve) => child.once("exit", (code) => resolve(code))) };
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (replica.stderr += chunk));
  await ready(replica);
  return replica;
}

/** Resolves once the replica answers GET /_mock/ready with 200 (what a readiness probe waits for). */
async function ready(replica: Replica): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    if (replica.child.exitCode !== null) throw new Error(`the replica on port ${replica.port} exited (${replica.child.exitCode}): ${replica.stderr}`);
    const status = await fetch(`http://127.0.0.1:${replica.port}/_mock/ready`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return;
    if (Date.now() > deadline) throw new Error(`the replica on port ${replica.port} was not ready within ${WAIT_MS} ms: ${replica.stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** nginx with the example's configuration, its ports changed, its files in `dir`. */
async function startNginx(listen: number, upstreams: number[]): Promise<ChildProcess> {
  let config = fs.readFileSync(path.join(repoRoot, "examples/load-balancer/nginx.conf"), "utf8");
  expect(config, "the example listens on the mock's port and sends to 4011 and 4012").toMatch(/listen 127\.0\.0\.1:4010;[\s\S]*/);
  config = config
    .replace("listen 127.0.0.1:4010;", `listen 127.0.0.1:${listen};`)
    .replace("server 127.0.0.1:4011 ", `server 127.0.0.1:${upstreams[0]} `)
    .replace("server 127.0.0.1:4012 ", `server 127.0.0.1:${upstreams[1]} `)
    // Only where nginx writes changes: no access log, its temporary files here.
    .replace("http {", `http {\n  access_log off;\n${["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((t) => `  ${t}_temp_path ${dir}/${t};`).join("\n")}`);
  fs.writeFileSync(path.join(dir, "nginx.conf"), config);
  const child = spawn("nginx", ["-p", dir, "-c", path.join(dir, "nginx.conf"), "-g", `daemon off; pid ${dir}/nginx.pid; error_log ${dir}/error.log warn;`], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  child.once("exit", (code) => code && (stderr += `(exited ${code})`));
  await accepting(listen, `nginx (${stderr})`).catch((error: Error) => {
    throw new Error(`${error.message}: ${stderr}`);
  });
  return child;
}

/** What nginx logged about requests it answered itself (a refused connect is retried on the other replica, so those lines are left out). */
function nginxErrors(): string {
  const log = path.join(dir, "error.log");
  if (!fs.existsSync(log)) return "none written";
  const lines = fs.readFileSync(log, "utf8").split("\n").filter((line) => line && !line.includes("connect() failed (111"));
  return lines.slice(-10).join(" | ") || "nothing but refused connects";
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "hr-mock-rolling-"));
  [redis, receiver] = await Promise.all([startRedis({ password: PASSWORD }), startReceiver()]);
  const [listen, p1, p2] = await Promise.all([freePort(), freePort(), freePort()]);
  replicas.push(...(await Promise.all([startReplica(p1), startReplica(p2)])));
  nginx = await startNginx(listen, [p1, p2]);
  front = `http://127.0.0.1:${listen}`;
}, 180_000);

afterAll(async () => {
  for (const replica of replicas) replica.child.kill("SIGKILL");
  nginx?.kill("SIGTERM");
  await receiver?.close();
  await redis?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

interface Sent {
  path: string;
  status: number | string;
  /** The world it was sent to (its journal is where it must be). */
  world?: number;
}

/** A journal read lists at most this many requests: the load sends fewer of each operation to each world. */
const JOURNAL_READ = 1000;

test("two replicas restarted in turn behind nginx under load: no request fails, every answered request is in the journal and the coverage, every delivery is attempted once", { timeout: 240_000 }, async () => {
  const admin = { authorization: `Bearer ${DEMO_KEY.org1WebhooksAdmin}`, "content-type": "application/json" };
  const added = await fetch(`${front}/_mock/webhooks/endpoints`, { method: "POST", headers: admin, body: JSON.stringify({ url: receiver.url, events: ["payroll.paid"] }) });
  const endpoint = (await added.json()) as { data: { id: string; secret: string } };
  expect(added.status, JSON.stringify(endpoint)).toBe(201);
  receiver.useSecret(endpoint.data.secret);
  // Two worlds (the demo keys' and a sandbox's, made through nginx): each journal read lists 1,000
  // requests, so the load's reads go to 2 worlds x 4 operations.
  const made = await fetch(`${front}/_mock/sandboxes`, { method: "POST", headers: admin, body: JSON.stringify({ label: "rolling restart" }) });
  const sandbox = (await made.json()) as { data: { keys: { key: string; demoKey: string }[] } };
  expect(made.status, JSON.stringify(sandbox).slice(0, 300)).toBe(201);
  const keyOf = (demo: string) => sandbox.data.keys.find((k) => k.demoKey === demo)!.key;
  const worlds = [
    { reader: DEMO_KEY.org1Full, admin: DEMO_KEY.org1WebhooksAdmin },
    { reader: keyOf(DEMO_KEY.org1Full), admin: keyOf(DEMO_KEY.org1WebhooksAdmin) },
  ];

  // The load: RATE requests a second, at most MAX_IN_FLIGHT at a time, until told to stop.
  const reads: Sent[] = [];
  const triggers: Array<Sent & { eventId?: string }> = [];
  const pages = worlds.map(() => READS.map(() => 0));
  let inFlight = 0;
  let sent = 0;
  let running = true;
  let capped = false;
  const loadStarted = performance.now();
  const pending = new Set<Promise<void>>();
  const fire = (send: () => Promise<void>) => {
    inFlight++;
    const done = send().finally(() => (inFlight--, pending.delete(done)));
    pending.add(done);
  };
  const readOne = (n: number) => {
    const world = n % worlds.length;
    const which = Math.floor(n / worlds.length) % READS.length;
    // A load longer than the journals can list stops (the checks below then say it ended early).
    if (pages[world][which] >= JOURNAL_READ - 1) return void ((running = false), (capped = true));
    const url = `${READS[which][1]}${++pages[world][which]}`;
    fire(async () => {
      const entry: Sent = { path: url, status: "unanswered", world };
      reads.push(entry);
      try {
        const response = await fetch(front + url, { headers: { authorization: `Bearer ${worlds[world].reader}` } });
        await response.arrayBuffer();
        entry.status = response.status;
      } catch (error) {
        entry.status = `${(error as Error).message}: ${String((error as { cause?: unknown }).cause)}`;
      }
    });
  };
  const triggerOne = () =>
    fire(async () => {
      const entry: (typeof triggers)[number] = { path: "/_mock/webhooks/events", status: "unanswered" };
      triggers.push(entry);
      try {
        const response = await fetch(front + entry.path, { method: "POST", headers: admin, body: JSON.stringify({ type: "payroll.paid" }) });
        const text = await response.text();
        entry.status = response.status;
        if (response.status !== 202) entry.status = `${response.status}: ${text.replace(/\s+/g, " ").slice(0, 120)}`;
        else entry.eventId = (JSON.parse(text) as { data?: { event?: { id: string } } }).data?.event?.id;
      } catch (error) {
        entry.status = `${(error as Error).message}: ${String((error as { cause?: unknown }).cause)}`;
      }
    });
  const pacer = (async () => {
    while (running) {
      const due = Math.floor(((performance.now() - loadStarted) / 1000) * RATE);
      while (sent < due && inFlight < MAX_IN_FLIGHT) {
        if (sent % Math.round(RATE / TRIGGER_RATE) === 0) triggerOne();
        else readOne(sent);
        sent++;
      }
      sent = Math.max(sent, due);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();

  // The restart, as Kubernetes paces it: each replica stopped, a fresh one on its address, the next
  // one stopped SETTLE_MS after the fresh one answers.
  const marks: Record<string, number> = {};
  for (const [i, old] of [...replicas].entries()) {
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    marks[`stop ${i + 1}`] = reads.length;
    old.child.kill("SIGTERM");
    expect(await old.exited, `replica ${i + 1}'s exit status; its lines: ${old.stderr}`).toBe(0);
    // A delivery whose attempt is not yet due when the replica stops is left in Redis, and said so
    // (the store's address as the replica was given it: the password came from HR_MOCK_REDIS_PASSWORD, so none is in it); the check below that every event arrives once
    // holds the fresh replicas to attempting it.
    expect(old.stderr, `replica ${i + 1}'s lifecycle lines`).toMatch(
      /hr-mock: SIGTERM: draining for 3 s: .*\nhr-mock: no more connections taken; finishing \d+ requests? in flight\n(?:webhooks stopped here: \d+ deliver(?:y is|ies are) still waiting, kept in redis:\/\/127\.0\.0\.1:\d+, to be attempted by another replica or when one starts again\n)?hr-mock: stopped\.\n$/,
    );
    expect(old.stderr, `replica ${i + 1}'s lines hold no Redis password`).not.toContain(PASSWORD);
    replicas[i] = await startReplica(old.port);
  }
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  running = false;
  await pacer;
  await Promise.all(pending);
  const seconds = (performance.now() - loadStarted) / 1000;

  expect(capped, `the load ended early: more reads than a journal lists (the restarts took ${seconds.toFixed(1)} s)`).toBe(false);
  const failed = [...reads, ...triggers].filter((r) => r.status !== 200 && r.status !== 202);
  expect(failed.slice(0, 10), `${failed.length} of ${reads.length + triggers.length} requests failed (${seconds.toFixed(1)} s of load); nginx's error log: ${nginxErrors()}; the first`).toEqual([]);
  // Counts, not a pace: a machine with every core busy sends fewer a second, over a longer restart.
  expect(marks["stop 2"] - marks["stop 1"], `reads sent while the first replica restarted (${reads.length} reads in ${seconds.toFixed(1)} s)`).toBeGreaterThan(RATE);
  expect(reads.length - marks["stop 2"], "reads sent after the second replica was stopped").toBeGreaterThan(RATE);
  expect(triggers.length, "triggers sent").toBeGreaterThan(10);

  // Every answered read is in its world's journal (each URL once), and counted by its coverage.
  for (const [world, { admin: key }] of worlds.entries()) {
    const headers = { authorization: `Bearer ${key}` };
    const coverage = (await (await fetch(`${front}/_mock/coverage`, { headers })).json()) as { data: { api: { operations: { operationId: string; requests: number; statuses: { seen: Record<string, number> } }[] } } };
    for (const [operationId, prefix] of READS) {
      const mine = reads.filter((r) => r.world === world && r.path.startsWith(prefix)).map((r) => r.path);
      const journal = await fetch(`${front}/_mock/requests?operationId=${operationId}&limit=${JOURNAL_READ}`, { headers });
      const body = (await journal.json()) as { data: { requests: { path: string; query: Record<string, string> }[]; dropped: number } };
      expect(journal.status, JSON.stringify(body).slice(0, 300)).toBe(200);
      const recorded = body.data.requests.map((r) => `${r.path}?PageSize=1&PageNumber=${r.query.PageNumber}`);
      expect(new Set(recorded).size, `world ${world} ${operationId}: each request recorded once`).toBe(recorded.length);
      expect([...mine].sort(), `world ${world} ${operationId}: the journal holds every answered request`).toEqual([...recorded].sort());
      const counted = coverage.data.api.operations.find((o) => o.operationId === operationId);
      expect({ requests: counted?.requests, seen: counted?.statuses.seen }, `world ${world} ${operationId} in the coverage`).toEqual({ requests: mine.length, seen: { "200": mine.length } });
    }
  }

  // Every delivery attempted once: each triggered event reaches the receiver, none twice.
  const events = triggers.map((t) => t.eventId!);
  await receiver.until(() => events.every((id) => receiver.events.has(id)), `delivery of all ${events.length} events`);
  expect(events.filter((id) => receiver.events.get(id) !== 1), "events delivered other than once").toEqual([]);
  expect(receiver.attempts.length, "attempts, one per event").toBe(events.length);
  expect(new Set(receiver.attempts).size, "one attempt per delivery").toBe(receiver.attempts.length);
  expect(replicas.every((r) => r.child.exitCode === null), "the fresh replicas still serve").toBe(true);
});
