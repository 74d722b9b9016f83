// The engine's faults: Redis killed and started again on its append-only file loses nothing the
// replicas had answered as done, and they reconnect by themselves; while Redis is stopped or hung,
// reads answer from what a replica holds and changes answer the 503 envelope naming the store,
// each replica says so once (as a text line, or with --log-format json as a store-lost event), its
// metrics show the store down, and all resumes when it is back. A wrong password is one line.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DEMO_KEY, startMock, type RunningMock } from "../../mock/index.js";
import { startRedis, type RedisServer } from "../support/redis-server.js";
import { register, TestReceiver } from "../webhooks-engine/support.js";
import { send, startReplicas, SEED, TODAY } from "./support.js";
import { samples } from "../support/prometheus-text.js";

/** Long enough for a loaded machine; a request still unanswered then hung, which is the failure. */
const HUNG_MS = 20_000;

let redis: RedisServer;
let a: RunningMock;
let b: RunningMock;
let lines: string[];
let receiver: TestReceiver;

beforeAll(async () => {
  redis = await startRedis();
  // a counts the rate limit (the default), b does not: each outage meets both. b logs in JSON.
  ({ replicas: [a, b], lines } = await startReplicas(redis, { webhooks: { timeScale: 0.001 } }, [{}, { rateLimit: "off", logFormat: "json" }]));
  receiver = await new TestReceiver().start();
});

afterAll(async () => {
  redis?.resume();
  await Promise.all([a?.close(), b?.close()]);
  await receiver?.close();
  await redis?.close();
});

/** Resolves when every replica has said the line (an event: the line is printed on the change). */
async function said(pattern: RegExp, times: number, what: string): Promise<void> {
  const deadline = Date.now() + HUNG_MS;
  while (lines.filter((line) => pattern.test(line)).length < times) {
    if (Date.now() > deadline) throw new Error(`no ${what} within ${HUNG_MS} ms; the replicas said: ${lines.join(" | ")}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A probe as a kubelet or a balancer sends it: no key. */
async function probe(via: RunningMock, path: string): Promise<{ status: number; body: any }> {
  const response = await fetch(via.url + path, { signal: AbortSignal.timeout(HUNG_MS) });
  return { status: response.status, body: await response.json() };
}

/** The store's series of a replica's GET /_mock/metrics. */
async function storeMetrics(via: RunningMock): Promise<{ up: number | undefined; admits: number }> {
  const values = samples(await (await fetch(`${via.url}/_mock/metrics`)).text());
  return { up: values.get("hr_mock_store_up"), admits: values.get('hr_mock_store_round_trips_total{call="hrmAdmit"}') ?? 0 };
}

const approvedCount = async (via: RunningMock, key: string = DEMO_KEY.org1Full) =>
  (await send(via, "GET", "/v1/leaverequest/list?LeaveStatus=Approved&PageSize=1", key)).body.data.totalRecords as number;

test("killed and started again on its append-only file, Redis has lost nothing the replicas answered as done, and they reconnect by themselves", async () => {
  const made = await send(a, "POST", "/_mock/sandboxes", DEMO_KEY.org1WebhooksAdmin, { label: "kept" });
  const sandboxKey = made.body.data.keys.find((k: { demoKey: string }) => k.demoKey === DEMO_KEY.org1Full).key;
  const { id: endpointId } = await register(b, receiver);
  const before = await approvedCount(a);
  const fired = await send(a, "POST", "/_mock/webhooks/events", DEMO_KEY.org1WebhooksAdmin, { type: "leave.approved" });
  await receiver.event(fired.body.data.event.id);
  expect((await send(b, "POST", "/_mock/faults", DEMO_KEY.org1WebhooksAdmin, { operation: "listLeaveTypes", delayMs: 1 })).status).toBe(201);
  await send(b, "GET", "/v1/employee/list?PageNumber=9", sandboxKey);

  await redis.kill();
  await redis.start();
  await said(/reachable again/, 2, "'reachable again' line from both replicas");

  expect((await send(b, "GET", "/_mock/sandboxes", DEMO_KEY.org1WebhooksAdmin)).body.data.map((s: { label: string }) => s.label), "the sandbox").toContain("kept");
  expect(await approvedCount(b), "the data change").toBe(before + 1);
  expect((await send(a, "GET", "/_mock/webhooks/endpoints", DEMO_KEY.org1WebhooksAdmin)).body.data.map((e: { id: string }) => e.id), "the endpoint").toContain(endpointId);
  const log = await send(a, "GET", `/_mock/webhooks/deliveries?eventId=${fired.body.data.event.id}`, DEMO_KEY.org1WebhooksAdmin);
  expect(log.body.data.map((d: { state: string }) => d.state), "the delivery, succeeded").toEqual(["succeeded"]);
  expect((await send(a, "GET", "/_mock/faults", DEMO_KEY.org1WebhooksAdmin)).body.data.map((f: { operation: string }) => f.operation), "the fault").toEqual(["listLeaveTypes"]);
  const journal = await send(a, "GET", "/_mock/requests?operationId=listEmployees", made.body.data.keys.find((k: { demoKey: string }) => k.demoKey === DEMO_KEY.org1WebhooksAdmin).key);
  expect(journal.body.data.requests.map((r: { query: { PageNumber: string } }) => r.query.PageNumber), "the sandbox's journal").toEqual(["9"]);
  await send(a, "DELETE", "/_mock/faults", DEMO_KEY.org1WebhooksAdmin);
});

describe.each([
  // Nothing reaches a stopped Redis: the reads answered meanwhile are in no journal.
  ["stopped", { fail: () => redis.stop(), heal: () => redis.start(), down: /cannot be reached \((?!no answer)/, journaled: [] }],
  // a's admission of its read waited in the hung Redis, which runs it when it resumes; b, which
  // counts no rate limit, asks Redis nothing before it answers.
  ["hung (SIGSTOP)", { fail: async () => redis.pause(), heal: async () => redis.resume(), down: /cannot be reached/, journaled: ["/v1/department/list"] }],
])("while Redis is %s", (_name, { fail, heal, down, journaled }) => {
  const timed = (via: RunningMock, method: string, path: string, key: string, body?: unknown) =>
    Promise.race([send(via, method, path, key, body), new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${method} ${path} hung: no answer within ${HUNG_MS} ms`)), HUNG_MS))]);
  let downBefore: number;
  let upBefore: number;
  let since: number;

  beforeAll(async () => {
    await send(a, "GET", "/v1/department/list?PageSize=3", DEMO_KEY.org1Full);
    since = Date.now();
    downBefore = lines.filter((line) => down.test(line)).length;
    upBefore = lines.filter((line) => /reachable again/.test(line)).length;
    await fail();
  });

  test("reads answer from what the replica holds; changes and the control API's reads answer 503 naming the store; nothing hangs", async () => {
    const cases: Array<[string, { via: RunningMock; method: string; path: string; body?: unknown; key?: string; want: number }]> = [
      ["a read the replica answered before", { via: a, method: "GET", path: "/v1/department/list?PageSize=3", want: 200 }],
      ["a read it never answered", { via: b, method: "GET", path: "/v1/leavetype/list?IsActive=true", want: 200 }],
      ["a scripted fault", { via: a, method: "POST", path: "/_mock/faults", body: { operation: "listEmployees", status: 500 }, key: DEMO_KEY.org1WebhooksAdmin, want: 503 }],
      ["a trigger", { via: b, method: "POST", path: "/_mock/webhooks/events", body: { type: "payroll.paid" }, key: DEMO_KEY.org1WebhooksAdmin, want: 503 }],
      ["a new sandbox", { via: a, method: "POST", path: "/_mock/sandboxes", body: {}, key: DEMO_KEY.org1WebhooksAdmin, want: 503 }],
      ["the journal", { via: b, method: "GET", path: "/_mock/requests", key: DEMO_KEY.org1WebhooksAdmin, want: 503 }],
    ];
    // Sent together: while Redis hangs, each replica's first command waits out the store's timeout
    // (2 s) before it knows; one after another, the two replicas' waits would add up.
    const answers = await Promise.all(cases.map(([, { via, method, path, body, key = DEMO_KEY.org1Full }]) => timed(via, method, path, key, body)));
    for (const [i, [name, { want }]] of cases.entries()) {
      const answer = answers[i];
      expect(answer.status, `${name}: ${JSON.stringify(answer.body).slice(0, 200)}`).toBe(want);
      if (want === 503) expect(answer.body.message, name).toBe(`Service unavailable: the mock's state store ${redis.url} cannot be reached; retry shortly.`);
    }
    await said(down, downBefore + 2, "'cannot be reached' line from both replicas");
    expect(lines.filter((line) => down.test(line)).length - downBefore, "each replica said it once").toBe(2);
    // The probes: alive without asking Redis; still ready (an outage of the store would otherwise take
    // every replica out of the balancer at once), the store said to be unreachable. Not journaled:
    // the next test reads the journal since then.
    for (const via of [a, b]) {
      const [health, ready] = await Promise.all([probe(via, "/_mock/health"), probe(via, "/_mock/ready")]);
      expect(health.status, JSON.stringify(health.body)).toBe(200);
      expect(ready.status, JSON.stringify(ready.body)).toBe(200);
      expect(ready.body.data).toEqual({ ready: true, dataset: "built", stopping: false, store: { kind: "redis", address: redis.url, reached: true, reachable: false } });
    }
    const event = JSON.parse(lines.filter((line) => line.startsWith("replica 2: ") && down.test(line)).at(-1)!.slice("replica 2: ".length));
    expect(event, "the JSON replica's line").toMatchObject({ level: "warn", event: "store-lost", store: redis.url, reason: expect.any(String) });
    expect((await Promise.all([storeMetrics(a), storeMetrics(b)])).map((m) => m.up), "hr_mock_store_up of each replica").toEqual([0, 0]);
  });

  test("back, it resumes: a read answered meanwhile is in the journal once if its admission reached Redis, else not at all, and a change through one replica is seen through the other", async () => {
    await heal();
    await said(/reachable again/, upBefore + 2, "'reachable again' line from both replicas");
    const [metricsA, metricsB] = await Promise.all([storeMetrics(a), storeMetrics(b)]);
    expect([metricsA.up, metricsB.up], "hr_mock_store_up of each replica").toEqual([1, 1]);
    expect(metricsA.admits, "round trips of the replica that asks Redis before each answer").toBeGreaterThan(0);
    const journal = await send(a, "GET", `/_mock/requests?since=${new Date(since).toISOString()}`, DEMO_KEY.org1WebhooksAdmin);
    expect(journal.status, JSON.stringify(journal.body)).toBe(200);
    // A request is recorded with its admission: one answered from what the replica holds is recorded
    // only if its question reached the hung Redis, which runs it when it resumes.
    const paths: string[] = journal.body.data.requests.map((r: { path: string }) => r.path);
    expect(paths, `the reads answered while Redis was down that are journaled (once each) since ${new Date(since).toISOString()}`).toEqual(journaled);
    const before = await approvedCount(b);
    expect((await send(a, "POST", "/_mock/webhooks/events", DEMO_KEY.org1WebhooksAdmin, { type: "leave.approved" })).status).toBe(202);
    expect(await approvedCount(b)).toBe(before + 1);
  });
});

test("a wrong password is one line naming the store, its password masked", async () => {
  const locked = await startRedis({ password: "right-one" });
  try {
    const wrong = locked.url.replace("right-one", "wrong-one");
    const error = await startMock({ port: 0, seed: SEED, today: TODAY, state: wrong }).then(
      (mock) => (void mock.close(), undefined),
      (e: Error) => e,
    );
    expect(error?.message).toBe(`--state redis://:***@127.0.0.1:${locked.port}: Redis refused the password (or user) in the address; check it`);
    const missing = await startMock({ port: 0, seed: SEED, today: TODAY, state: `redis://127.0.0.1:${locked.port}` }).then(
      (mock) => (void mock.close(), undefined),
      (e: Error) => e,
    );
    expect(missing?.message).toBe(`--state redis://127.0.0.1:${locked.port}: Redis asks for a password; give it in HR_MOCK_REDIS_PASSWORD or a file (--redis-password-file)`);
    const right = await startMock({ port: 0, seed: SEED, today: TODAY, state: locked.url });
    expect(right.shared?.store, "the address as startMock shows it").toBe(`redis://:***@127.0.0.1:${locked.port}`);
    await right.close();
  } finally {
    await locked.close();
  }
});
