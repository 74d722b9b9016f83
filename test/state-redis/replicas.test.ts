// One mock served by two replicas on one Redis, every request going to the next replica in turn as
// a load balancer would send it: what a user made or changed through one is what the other serves,
// at once; each journal holds both replicas' requests within its bound, in Redis's memory too; each
// delivery attempt is made by exactly one replica. The pair runs with the rate limit off, so that
// each replica admits requests itself while Redis has not said the world changed (and records them
// late). The rules every backend shares (faults, the rate limit, the bounds, a sandbox's life) are
// the table of test/state/backends.test.ts, run against two replicas with the rate limit on too.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DEMO_KEY, startMock, type RunningMock } from "../../mock/index.js";
import { mockLimits } from "../../generated/control-facts.js";
import { MAX_PARAMETER_NAMES } from "../../mock/worlds/journal/tally.js";
import { startRedis, type RedisServer } from "../support/redis-server.js";
import { mockKeys } from "../../mock/state/redis/formats.js";
import { STATE_FORMAT } from "../../mock/state/store.js";
import { scriptsDigest } from "../../mock/state/redis/scripts.js";
import { register, TestReceiver } from "../webhooks-engine/support.js";
import { registerServeEndpoint } from "../../mock/cli/commands/serve.js";
import { recorded, roundRobin, send, startReplicas, worldBytes, SEED, TODAY } from "./support.js";

const JOURNAL = 40;

let redis: RedisServer;
let a: RunningMock;
let b: RunningMock;
let lines: string[];
let receiver: TestReceiver;

beforeAll(async () => {
  redis = await startRedis();
  ({ replicas: [a, b], lines } = await startReplicas(redis, { rateLimit: "off", journalSize: JOURNAL, webhooks: { timeScale: 0.001 } }));
  receiver = await new TestReceiver().start();
});

afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
  await receiver?.close();
  await redis?.close();
});

/** A sandbox made through `through`; its keys by demo key. */
async function sandbox(through: RunningMock, label = "a team") {
  const made = await send(through, "POST", "/_mock/sandboxes", DEMO_KEY.org1WebhooksAdmin, { label });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const key = (demo: string) => made.body.data.keys.find((k: { demoKey: string }) => k.demoKey === demo).key as string;
  return { id: made.body.data.id as string, full: key(DEMO_KEY.org1Full), admin: key(DEMO_KEY.org1WebhooksAdmin) };
}

describe("sandboxes", () => {
  test(`the limit of ${mockLimits.maxSandboxes} sandboxes counts every replica's, and a deleted one frees its place for both`, async () => {
    // A database of its own: the other tests' sandboxes do not count here.
    const { replicas } = await startReplicas({ url: `${redis.url}/3` });
    try {
      const lb = roundRobin(replicas);
      // Asked all at once, through both replicas in turn: each is still within the limit, so each is made.
      const answers = await Promise.all(Array.from({ length: mockLimits.maxSandboxes }, () => send(lb.next(), "POST", "/_mock/sandboxes", DEMO_KEY.org1WebhooksAdmin)));
      expect(answers.filter((a) => a.status !== 201).map((a) => `${a.status} ${a.body.message}`), `${mockLimits.maxSandboxes} sandboxes made together`).toEqual([]);
      const made = answers.map((a) => a.body.data.id as string);
      for (const replica of replicas) {
        const over = await send(replica, "POST", "/_mock/sandboxes", DEMO_KEY.org1WebhooksAdmin);
        expect([over.status, over.body.message], "one more through either replica").toEqual([409, `Conflict: the mock holds ${mockLimits.maxSandboxes} sandboxes, its limit (maxSandboxes); delete one with DELETE /_mock/sandboxes/{id} first.`]);
      }
      expect((await send(replicas[0], "DELETE", `/_mock/sandboxes/${made[0]}`, DEMO_KEY.org1WebhooksAdmin)).status).toBe(200);
      expect((await send(replicas[1], "POST", "/_mock/sandboxes", DEMO_KEY.org1WebhooksAdmin)).status, "the place is free for the other replica").toBe(201);
    } finally {
      await Promise.all(replicas.map((r) => r.close()));
    }
  });
});

describe("data, faults and keys through either replica", () => {
  test("a trigger through one replica changes what the other answers next, its cached answer included", async () => {
    const path = "/v1/leaverequest/list?LeaveStatus=Approved&PageSize=1";
    const first = await send(b, "GET", path, DEMO_KEY.org1Full);
    await send(b, "GET", path, DEMO_KEY.org1Full); // kept in b's response cache now
    expect((await send(a, "POST", "/_mock/webhooks/events", DEMO_KEY.org1WebhooksAdmin, { type: "leave.approved" })).status).toBe(202);
    const after = await send(b, "GET", path, DEMO_KEY.org1Full);
    expect(after.body.data.totalRecords, "b answers from the changed data, not its cache").toBe(first.body.data.totalRecords + 1);
  });

  test("triggers through both replicas at once all land, in one order every replica replays", async () => {
    const made = await sandbox(a);
    const approved = async (via: RunningMock) => (await send(via, "GET", "/v1/leaverequest/list?LeaveStatus=Approved&PageSize=1", made.full)).body.data.totalRecords as number;
    const before = await approved(a);
    const fired = await Promise.all([a, b, a, b, a, b, a, b].map((via) => send(via, "POST", "/_mock/webhooks/events", made.admin, { type: "leave.approved" })));
    expect(fired.map((f) => f.status), `${JSON.stringify(fired.map((f) => f.body.message))}; the replicas said: ${lines.join("\n")}`).toEqual(Array(8).fill(202));
    expect(new Set(fired.map((f) => f.body.data.event.data.leaveRequestId)).size, "eight different requests approved").toBe(8);
    expect([await approved(a), await approved(b)], "both replicas serve all eight").toEqual([before + 8, before + 8]);
    const listed = async (via: RunningMock) => (await send(via, "GET", "/v1/leaverequest/list?LeaveStatus=Approved&PageSize=100", made.full)).body.data.data.map((r: { id: string }) => r.id);
    expect(await listed(a), "the same records, in the same order").toEqual(await listed(b));
  });
});

describe("journal and coverage", () => {
  test("hold every replica's requests, whichever replica is asked, and verify() waits for one sent elsewhere", async () => {
    const made = await sandbox(a);
    const lb = roundRobin([a, b]);
    for (let page = 1; page <= 4; page++) await lb.get(`/v1/employee/list?PageNumber=${page}`, made.full);
    for (const replica of [a, b]) {
      const listed = await send(replica, "GET", "/_mock/requests?operationId=listEmployees", made.admin);
      expect(listed.body.data.requests.map((r: { query: { PageNumber: string } }) => r.query.PageNumber), "newest first, both replicas' requests").toEqual(["4", "3", "2", "1"]);
      const coverage = await send(replica, "GET", "/_mock/coverage", made.admin);
      expect(coverage.body.data.api.operations.find((o: { operationId: string }) => o.operationId === "listEmployees").requests).toBe(4);
    }
    const waiting = b.verify({ path: "/v1/leavetype/list" }, { within: 10_000 });
    await send(a, "GET", "/v1/leavetype/list", DEMO_KEY.org1Full);
    expect((await waiting).map((r) => r.path), "b's verify saw a's request").toEqual(["/v1/leavetype/list"]);
  });

  test("the cached reads one replica answers are in the other replica's journal at once, and a clear through it clears them for both", async () => {
    const made = await sandbox(a);
    const path = "/v1/leavetype/list?PageSize=2";
    for (let i = 0; i < 21; i++) expect((await send(a, "GET", path, made.full)).status).toBe(200);
    const listed = await send(b, "GET", "/_mock/requests?operationId=listLeaveTypes", made.admin);
    expect(listed.body.data.requests.length, "every read a answered, in b's view of the journal").toBe(21);
    expect((await send(b, "DELETE", "/_mock/requests", made.admin)).status).toBe(200);
    const cleared = await send(a, "GET", "/_mock/requests?operationId=listLeaveTypes", made.admin);
    expect(cleared.body.data.requests.length, "cleared through b, none of a's reads comes back").toBe(0);
  });

  test(`keeps its bound of ${JOURNAL} in Redis: a world's memory there stops growing with its requests`, async () => {
    const made = await sandbox(b);
    const lb = roundRobin([a, b]);
    // Distinct URLs of one length: every entry the same size. The rate limit counts per key, so each key sends its share.
    const keys = (await send(a, "GET", "/_mock/sandboxes", DEMO_KEY.org1WebhooksAdmin)).body.data.find((s: { id: string }) => s.id === made.id).keys.map((k: { key: string }) => k.key);
    const sendSome = async (from: number, count: number) => {
      for (let i = from; i < from + count; i++) await lb.get(`/v1/holiday-free-path-${String(i).padStart(5, "0")}`, keys[i % keys.length]);
    };
    // Measured once Redis has counted every request sent (each record goes with its request's admission).
    const settled = async (requests: number) => (await recorded(redis, made.id, requests), await worldBytes(redis, made.id));
    await sendSome(0, JOURNAL);
    const full = await settled(JOURNAL);
    await sendSome(JOURNAL, 2 * JOURNAL);
    const later = await settled(3 * JOURNAL);
    // Unbounded, 2 × JOURNAL more entries would triple it; a list's nodes are laid out by how many
    // records each push brought, which moves its size a little either way.
    expect(later, `the world's keys held ${full} bytes when its journal was full, ${later} bytes after ${2 * JOURNAL} more requests`).toBeLessThanOrEqual(full * 1.25);
    const listed = await send(a, "GET", `/_mock/requests?unmatched=true&limit=${JOURNAL}`, made.admin);
    expect([listed.body.data.requests.length, listed.body.data.capacity, listed.body.data.dropped], "held, bound, dropped").toEqual([JOURNAL, JOURNAL, 2 * JOURNAL]);
  });
});

describe("the bounds of memory, in Redis", () => {
  test("coverage keeps at most 64 parameter names per operation, whatever a client sends", async () => {
    const made = await sandbox(a);
    const lb = roundRobin([a, b]);
    const keys = (await send(a, "GET", "/_mock/sandboxes", DEMO_KEY.org1WebhooksAdmin)).body.data.find((s: { id: string }) => s.id === made.id).keys.map((k: { key: string }) => k.key);
    for (let i = 0; i < 70; i++) await lb.get(`/v1/department/list?made_up_${i}=1`, keys[i % keys.length]);
    const coverage = await send(b, "GET", "/_mock/coverage", made.admin);
    const operation = coverage.body.data.api.operations.find((o: { operationId: string }) => o.operationId === "listDepartments");
    expect([operation.requests, operation.parameters.unknown.length], "every request counted, 64 names kept").toEqual([70, MAX_PARAMETER_NAMES]);
  });
});

describe("webhooks", () => {
  test("a failed attempt is retried on the schedule by one replica, and a resend through either goes once", async () => {
    const made = await sandbox(a);
    const failing = await new TestReceiver().start();
    try {
      await register(b, failing, {}, made.admin);
      failing.answer = (request) => (request.number === 1 ? { kind: "status", status: 500 } : { kind: "verify" });
      const event = (await send(a, "POST", "/_mock/webhooks/events", made.admin, { type: "payroll.paid" })).body.data.event.id as string;
      await failing.event(event);
      await b.webhooks.idle();
      const [entry] = (await send(b, "GET", `/_mock/webhooks/deliveries?eventId=${event}`, made.admin)).body.data;
      expect(entry.attempts.map((t: { status: number }) => t.status), "500, then the retry succeeded").toEqual([500, 200]);
      expect(new Set(failing.requestsFor(event).map((r) => r.deliveryId)).size, "each attempt sent once, with its own delivery id").toBe(2);

      const resent = await send(b, "POST", `/_mock/webhooks/events/${event}/resend`, made.admin);
      expect(resent.status, JSON.stringify(resent.body)).toBe(202);
      await failing.until(() => failing.requestsFor(event).length === 3, "the resend");
      await a.webhooks.idle();
      expect(failing.requestsFor(event).length, "the resend went once").toBe(3);
    } finally {
      await failing.close();
    }
  });

  test("--webhook-url registers one endpoint however many replicas start with it: each later start finds it, secret and all", async () => {
    // A database of its own: the endpoint is the only one of organisation 1 there.
    const url = `${redis.url}/5`;
    const input = { url: `${receiver.url}/serve-hooks`, description: "Registered by hr-mock serve --webhook-url" };
    const started: RunningMock[] = [];
    try {
      const registered = [];
      for (let i = 0; i < 2; i++) {
        started.push((await startReplicas({ url }, {}, [{}])).replicas[0]);
        registered.push(await registerServeEndpoint(started[i], input));
      }
      expect(registered.map((r) => [r.id, r.kept]), "the first start registers it, the second finds it").toEqual([
        [registered[0].id, false],
        [registered[0].id, true],
      ]);
      expect(registered[1].text).toBe(`  Webhooks: endpoint ${registered[0].id} -> ${input.url}, kept in ${redis.url}/5 with the signing secret it was given\n`);
      const listed = await send(started[1], "GET", "/_mock/webhooks/endpoints", DEMO_KEY.org1WebhooksAdmin);
      expect(listed.body.data.map((e: { id: string }) => e.id), "one endpoint, whichever replica lists").toEqual([registered[0].id]);
    } finally {
      await Promise.all(started.map((mock) => mock.close()));
    }
  });
});

describe("refusals", () => {
  test("a replica started with another seed is refused with one line naming what differs", async () => {
    const error = await startMock({ port: 0, seed: SEED + 1, today: TODAY, scale: 0.2, state: redis.url }).then(
      (mock) => (void mock.close(), undefined),
      (e: Error) => e,
    );
    expect(error?.message).toBe(
      `--state ${redis.url} holds the state of a mock made from another start dataset: --seed ${SEED + 1} (the state's: ${SEED}); start every replica with the same flags, or give another database (redis://host:port/1)`,
    );
  });

  test("a replica of another release (the formats its scripts are made from differ) is refused with one line", async () => {
    const state = { format: STATE_FORMAT, scripts: "another-release", fingerprint: { seed: SEED, scale: 0.2, today: TODAY } };
    await redis.cli("-n", "7", "set", mockKeys.state, JSON.stringify(state));
    const error = await startMock({ port: 0, seed: SEED, today: TODAY, scale: 0.2, state: `${redis.url}/7` }).then(
      (mock) => (void mock.close(), undefined),
      (e: Error) => e,
    );
    expect(error?.message).toBe(
      `--state ${redis.url}/7 is served by replicas of another release of the mock (their formats "another-release", this one's "${scriptsDigest()}"); start every replica from the same release, or give another database`,
    );
  });

  test("no line printed by a replica names a password", async () => {
    expect(lines.filter((line) => /password|requirepass/i.test(line))).toEqual([]);
    expect(a.shared, "startMock tells where the state is").toEqual({ store: redis.url, cluster: false });
  });
});
