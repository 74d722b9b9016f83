// One table of behaviours run against every backend of the state (mock/state/backend.ts): memory,
// a --state directory, Redis with one replica, and Redis with two (each request through the next
// replica in turn, as a load balancer sends them). The rules the Redis backend runs in Lua and the
// memory backend in TypeScript are held to the same answers at their edges: the fault the Nth call
// takes, the request that meets the rate limit and its Retry-After, the journal and the delivery log
// trimmed at their bounds, a delivery cancelled by its endpoint's removal, a sandbox's life; and
// flush() handing back a lease, with two Redis replicas.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DEMO_KEY, type RunningMock } from "../../mock/index.js";
import { stateBackendOf } from "../../mock/app/state-backend.js";
import type { StoreName } from "../../mock/state/index.js";
import { rateLimit } from "../../generated/facts.js";
import { RATE_LIMIT_WINDOW_MS } from "../../mock/kernel/limits.js";
import { worldKeys } from "../../mock/state/redis/keys.js";
import { CLAIM_SCRIPT, DELIVERY_KEY_COUNT, deliveryKeys } from "../../mock/state/redis/lua/deliveries.js";
import { LOG_TRIM_SLACK } from "../../mock/webhooks/delivery-log.js";
import { PACT_SANDBOX_LABEL } from "../../mock/operations/control/pact.js";
import { startRedis, type RedisServer } from "../support/redis-server.js";
import { register, TestReceiver } from "../webhooks-engine/support.js";
import { send, startReplicas, type Answer } from "../state-redis/support.js";
import { newStateDir } from "./support.js";

/** Small bounds, so that each case meets them in a few requests; retries slowed down tenfold, so that a failed delivery waits (50 s) while its endpoint is removed. */
const RATE = 6;
const JOURNAL = 4;
const LOG = 3;
/** One attempt at a time per endpoint: a second delivery waits while the first is being sent (handBack below). */
/** Waiting deliveries per endpoint: above the 20 the log's case leaves waiting, met by the case of drops. */
const WAITING = 25;
const OPTIONS = { rateLimit: RATE, journalSize: JOURNAL, webhooks: { logLimit: LOG, timeScale: 10, concurrency: 1, maxWaitingPerEndpoint: WAITING } };
/** Longer than a receiver's wait for an event: a delivery left to its lease would fail the test. */
const LEASE_MS = 120_000;

let redis: RedisServer;

interface Backend {
  start(): Promise<RunningMock[]>;
  /** The store as the backend names it. */
  store(): StoreName;
  /** Where the state is outside the process, the event bodies it holds for a world (the log's bound frees them too). */
  bodies?: (world: string) => Promise<number>;
  /** What only this backend has, tested on its mocks. */
  more?: Array<[string, (mocks: RunningMock[]) => Promise<void>]>;
}

const inRedis = (db: number, replicas: number, more: Backend["more"] = []): Backend => ({
  store: () => ({ kind: "redis", address: `${redis.url}/${db}` }),
  start: async () => (await startReplicas({ url: `${redis.url}/${db}` }, OPTIONS, Array.from({ length: replicas }, () => ({})))).replicas,
  bodies: async (world) => Number(await redis.cli("-n", String(db), "hlen", `hrm:{w:${world}}:bodies`)),
  more,
});

/**
 * flush() hands back what a replica holds: a delivery it leased but is not sending is due again at
 * once, for any replica, instead of after its lease runs out; the one it is sending keeps its lease.
 * The receiver holds the first request, so the second delivery waits (one attempt at a time), and
 * is leased to the sending replica as a claim whose attempt never began would leave it.
 */
async function handBack(db: number, replicas: RunningMock[]): Promise<void> {
  const receiver = await new TestReceiver().start();
  receiver.answer = (request) => (request.number === 1 ? { kind: "hold" } : { kind: "verify" });
  const cli = (...args: string[]) => redis.cli("-n", String(db), ...args);
  try {
    const [a, b] = replicas;
    await register(a, receiver);
    const keys = worldKeys("default");
    const fire = async (via: RunningMock) => (await send(via, "POST", "/_mock/webhooks/events", DEMO_KEY.org1WebhooksAdmin, { type: "payroll.paid" })).body.data.event.id as string;
    const deliveryOf = async (eventId: string) => (await a.webhooks.deliveries({ eventId }))[0].id;
    const first = await fire(a);
    await receiver.until(() => receiver.requests.length === 1, "the first delivery to be sent (and held)");
    const second = await fire(b);
    const [sending, waiting] = [await deliveryOf(first), await deliveryOf(second)];
    const owner = await cli("hget", keys.leaseOwners, sending);
    expect(owner, "the replica sending the first delivery holds its lease").not.toBe("");

    // The claim of a replica whose attempt never began (its answer lost, the replica stopping).
    await cli("eval", CLAIM_SCRIPT, String(DELIVERY_KEY_COUNT), ...deliveryKeys(keys), owner, String(LEASE_MS), "10", "2");
    expect(await cli("hget", keys.leaseOwners, waiting), "the second delivery leased to the same replica").toBe(owner);

    await Promise.all(replicas.map((replica) => stateBackendOf(replica).flush()));
    const handedBack = {
      sending: await cli("hget", keys.leaseOwners, sending),
      waiting: await cli("hget", keys.leaseOwners, waiting),
      due: Number(await cli("zscore", keys.due, waiting)) <= Date.now(),
    };
    expect(handedBack, "after flush(): the lease of the delivery being sent kept, the other released and due now").toEqual({ sending: owner, waiting: "", due: true });

    receiver.releaseHeld();
    await receiver.event(second);
    const settled = await until(async () => {
      const [entry] = await a.webhooks.deliveries({ eventId: second });
      return entry.state === "succeeded" ? entry : undefined;
    }, "the second delivery's attempt to be recorded");
    expect(settled.attempts.length, "attempted once").toBe(1);
  } finally {
    await receiver.close();
  }
}

const backends: Array<[string, Backend]> = [
  ["memory", { store: () => ({ kind: "memory" }), start: async () => (await startReplicas({ url: "" }, { ...OPTIONS, state: undefined }, [{}])).replicas }],
  ["a directory", { store: () => ({ kind: "directory" }), start: async () => (await startReplicas({ url: newStateDir() }, OPTIONS, [{}])).replicas }],
  ["Redis, one replica", inRedis(5, 1)],
  ["Redis, two replicas", inRedis(6, 2, [["flush() releases a lease held but not sent: the delivery goes at its time, through either replica; the one being sent keeps its lease", (mocks) => handBack(6, mocks)]])],
];

/** A case's world: a sandbox of its own (its own rate-limit counts, faults, journal, endpoints and log), reached through the replicas in turn. */
interface Place {
  next(): RunningMock;
  full: string;
  admin: string;
  id: string;
  receiver: TestReceiver;
  backend: Backend;
}

/** Resolves once `check` answers something other than undefined, asked again every 20 ms; fails naming `what` after 30 s. */
async function until<T>(check: () => Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const found = await check();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const deliveries = async (place: Place): Promise<Array<{ eventId: string; state: string }>> => (await send(place.next(), "GET", "/_mock/webhooks/deliveries?limit=100", place.admin)).body.data;
const trigger = async (place: Place, type: string): Promise<string> => {
  const fired = await send(place.next(), "POST", "/_mock/webhooks/events", place.admin, { type });
  if (fired.status !== 202) throw new Error(`the trigger of ${type} answered ${fired.status}: ${JSON.stringify(fired.body)}`);
  return fired.body.data.event.id;
};

interface Case<G, W> {
  given: G;
  want: W;
  run(place: Place, given: G): Promise<W>;
}

/** Typed per case, listed together. */
const behaviour = <G, W>(c: Case<G, W>): Case<unknown, unknown> => c as Case<unknown, unknown>;

const CASES: Array<[string, Case<unknown, unknown>]> = [
  [
    "the Nth call takes the fault its place in the script gives it, and the faults are used up",
    behaviour({
      given: { faults: [{ status: 503, times: 1 }, { status: 500, times: 2 }], calls: 4 },
      want: { statuses: [503, 500, 500, 200], left: [] },
      async run(place, given) {
        // Every replica answers from its response cache first: the faults must reach it all the same.
        for (let i = 0; i < 2; i++) expect((await send(place.next(), "GET", "/v1/department/list?PageSize=1", place.full)).status).toBe(200);
        for (const fault of given.faults) expect((await send(place.next(), "POST", "/_mock/faults", place.admin, { operation: "listDepartments", ...fault })).status).toBe(201);
        const statuses: number[] = [];
        for (let i = 0; i < given.calls; i++) statuses.push((await send(place.next(), "GET", "/v1/department/list?PageSize=1", place.full)).status);
        return { statuses, left: (await send(place.next(), "GET", "/_mock/faults", place.admin)).body.data };
      },
    }),
  ],
  [
    `the request past the rate limit (${RATE} in the window) is refused with a Retry-After within the window`,
    behaviour({
      given: { calls: RATE + 1 },
      want: { statuses: [...Array(RATE).fill(200), 429], remaining: [5, 4, 3, 2, 1, 0, 0], retryAfterWithinWindow: true },
      async run(place, given) {
        const answers: Answer[] = [];
        for (let i = 0; i < given.calls; i++) answers.push(await send(place.next(), "GET", "/v1/leavetype/list?PageSize=1", place.full));
        const retryAfter = Number(answers.at(-1)!.headers.get(rateLimit.headers.retryAfter));
        return {
          statuses: answers.map((a) => a.status),
          remaining: answers.map((a) => Number(a.headers.get(rateLimit.headers.rateLimitRemaining))),
          retryAfterWithinWindow: retryAfter >= 1 && retryAfter <= RATE_LIMIT_WINDOW_MS / 1000,
        };
      },
    }),
  ],
  [
    `the journal keeps its newest ${JOURNAL} requests, newest first, and counts the ones it let go`,
    behaviour({
      given: { pages: 6 },
      want: { pages: ["6", "5", "4", "3"], capacity: JOURNAL, dropped: 2 },
      async run(place, given) {
        // Through one replica, read through the next: two replicas' records reach Redis in batches,
        // and the bound lets go of the first to arrive there, which need not be the first answered.
        const via = place.next();
        for (let page = 1; page <= given.pages; page++) await send(via, "GET", `/v1/employee/list?PageNumber=${page}`, place.full);
        const listed = (await send(place.next(), "GET", "/_mock/requests", place.admin)).body.data;
        return { pages: listed.requests.map((r: { query: { PageNumber: string } }) => r.query.PageNumber), capacity: listed.capacity, dropped: listed.dropped };
      },
    }),
  ],
  [
    `the delivery log keeps the newest ${LOG} entries of an organisation once they are delivered`,
    behaviour({
      given: { events: 5 },
      want: { kept: [4, 3, 2], trimmedResent: 404 },
      async run(place, given) {
        await register(place.next(), place.receiver, {}, place.admin);
        const events: string[] = [];
        for (let i = 0; i < given.events; i++) {
          events.push(await trigger(place, "payroll.paid"));
          await place.receiver.event(events[i]);
        }
        const kept = await until(async () => {
          const log = await deliveries(place);
          return log.every((d) => d.state === "succeeded") ? log : undefined;
        }, "every delivery of the log to succeed");
        if (place.backend.bodies) expect(await place.backend.bodies(place.id), "the bodies of the kept events only").toBe(LOG);
        expect(events.map((event) => place.receiver.requestsFor(event).length), "each event sent once, through whichever replica").toEqual(events.map(() => 1));
        expect(place.receiver.rejections, "every delivery verified with the endpoint's secret").toEqual([]);
        const trimmedResent = (await send(place.next(), "POST", `/_mock/webhooks/events/${events[0]}/resend`, place.admin)).status;
        return { kept: kept.map((d) => events.indexOf(d.eventId)), trimmedResent };
      },
    }),
  ],
  [
    `past its bound, the delivery log keeps the same entries on every backend: after a run of unfinished deliveries, trimmed at ${LOG} × ${LOG_TRIM_SLACK} again`,
    behaviour({
      given: { failing: 20, delivered: 2 },
      // The 20 cancelled went at the first delivery past the bound but the newest two; the next stayed within the slack.
      want: { states: ["succeeded", "succeeded", "cancelled", "cancelled"] },
      async run(place, given) {
        place.receiver.answer = () => ({ kind: "status", status: 500 });
        const failing = await register(place.next(), place.receiver, {}, place.admin);
        for (let i = 0; i < given.failing; i++) await trigger(place, "payroll.paid");
        expect((await send(place.next(), "DELETE", `/_mock/webhooks/endpoints/${failing.id}`, place.admin)).status).toBe(200);
        await until(async () => ((await deliveries(place)).every((d) => d.state === "cancelled") ? true : undefined), "every delivery to be cancelled");
        place.receiver.answer = () => ({ kind: "verify" });
        await register(place.next(), place.receiver, {}, place.admin);
        for (let i = 0; i < given.delivered; i++) await place.receiver.event(await trigger(place, "payroll.paid"));
        const log = await until(async () => {
          const listed = await deliveries(place);
          return listed.filter((d) => d.state === "succeeded").length === given.delivered ? listed : undefined;
        }, "the deliveries to the working endpoint to succeed");
        return { states: log.map((d) => d.state) };
      },
    }),
  ],
  [
    `past ${WAITING} deliveries waiting for an endpoint, the oldest waiting are dropped and never sent, on every backend`,
    behaviour({
      given: { events: WAITING + 3 },
      // One is being sent (held); of the 27 behind it, the two oldest go.
      want: { neverSent: [1, 2] },
      async run(place, given) {
        place.receiver.answer = (request) => (request.number === 1 ? { kind: "hold" } : { kind: "verify" });
        await register(place.next(), place.receiver, {}, place.admin);
        const events = [await trigger(place, "payroll.paid")];
        await place.receiver.until(() => place.receiver.requests.length === 1, "the first delivery to be sent (and held)");
        while (events.length < given.events) events.push(await trigger(place, "payroll.paid"));
        place.receiver.releaseHeld();
        await place.receiver.until(() => place.receiver.requests.length === given.events - 2, `${given.events - 2} deliveries to be sent`);
        return { neverSent: events.flatMap((id, i) => (place.receiver.requestsFor(id).length === 0 ? [i] : [])) };
      },
    }),
  ],
  [
    "a sandbox key sent with a lower-case scheme and extra spaces is answered by a replica that has not seen the sandbox",
    behaviour({
      given: { authorization: (key: string) => `bearer   ${key}` },
      want: { status: 200 },
      async run(place, given) {
        // The sandbox was made through the replica before this one.
        const answer = await fetch(`${place.next().url}/v1/department/list?PageSize=1`, { headers: { authorization: given.authorization(place.full) } });
        return { status: answer.status };
      },
    }),
  ],
  [
    "20 concurrent first calls of the Pact state endpoint all answer 200 with one key, and leave one pact sandbox",
    behaviour({
      given: { calls: 20, state: { action: "setup", state: "s", params: { key: "org 1, leave and employee management" } } },
      want: { statuses: Array(20).fill(200), keys: 1, sandboxes: 1 },
      async run(place, given) {
        // Through one replica: each replica keeps its own order of state changes.
        const via = place.next();
        const post = async () => {
          const answer = await fetch(`${via.url}/_mock/pact/provider-states`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(given.state) });
          return { status: answer.status, body: await answer.json() };
        };
        const answers = await Promise.all(Array.from({ length: given.calls }, post));
        const listed = (await send(place.next(), "GET", "/_mock/sandboxes", DEMO_KEY.org1WebhooksAdmin)).body.data as Array<{ label: string }>;
        return {
          statuses: answers.map((a) => a.status),
          keys: new Set(answers.map((a) => a.body.apiKey)).size,
          sandboxes: listed.filter((s) => s.label === PACT_SANDBOX_LABEL).length,
        };
      },
    }),
  ],
  [
    "a delivery waiting for its retry is cancelled when its endpoint is removed",
    behaviour({
      given: { receiverAnswers: 500 },
      want: { before: "retry-scheduled", after: "cancelled" },
      async run(place, given) {
        place.receiver.answer = () => ({ kind: "status", status: given.receiverAnswers });
        const endpoint = await register(place.next(), place.receiver, {}, place.admin);
        const event = await trigger(place, "payroll.paid");
        const stateOf = async () => (await deliveries(place)).find((d) => d.eventId === event)?.state;
        const before = await until(async () => ((await stateOf()) === "retry-scheduled" ? "retry-scheduled" : undefined), "the failed attempt's retry to be scheduled");
        expect((await send(place.next(), "DELETE", `/_mock/webhooks/endpoints/${endpoint.id}`, place.admin)).status).toBe(200);
        return { before, after: await stateOf() };
      },
    }),
  ],
  [
    "a sandbox changed, reset and deleted through any replica: its data back at its start, then its keys stop",
    behaviour({
      given: { trigger: "leave.approved" },
      want: { listed: true, changed: 1, reset: 0, deleted: 401 },
      async run(place, given) {
        const listed = (await send(place.next(), "GET", "/_mock/sandboxes", DEMO_KEY.org1WebhooksAdmin)).body.data.some((s: { id: string }) => s.id === place.id);
        const approved = async () => (await send(place.next(), "GET", "/v1/leaverequest/list?LeaveStatus=Approved&PageSize=1", place.full)).body.data.totalRecords as number;
        const start = await approved();
        await trigger(place, given.trigger);
        const changed = (await approved()) - start;
        expect((await send(place.next(), "POST", `/_mock/sandboxes/${place.id}/reset`, DEMO_KEY.org1WebhooksAdmin)).status).toBe(200);
        const reset = (await approved()) - start;
        expect((await send(place.next(), "DELETE", `/_mock/sandboxes/${place.id}`, DEMO_KEY.org1WebhooksAdmin)).status).toBe(200);
        return { listed, changed, reset, deleted: (await send(place.next(), "GET", "/v1/department/list?PageSize=1", place.full)).status };
      },
    }),
  ],
];

beforeAll(async () => {
  redis = await startRedis();
});

afterAll(async () => {
  await redis?.close();
});

describe.each(backends)("%s", (_name, backend) => {
  let mocks: RunningMock[] = [];
  const receivers: TestReceiver[] = [];
  let turn = 0;

  beforeAll(async () => {
    mocks = await backend.start();
  });

  afterAll(async () => {
    await Promise.all(mocks.map((mock) => mock.close()));
    await Promise.all(receivers.map((receiver) => receiver.close()));
  });

  test.each(CASES)("%s", async (_case, { given, want, run }) => {
    const next = () => mocks[turn++ % mocks.length];
    const made = await send(next(), "POST", "/_mock/sandboxes", DEMO_KEY.org1WebhooksAdmin, {});
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const key = (demo: string) => made.body.data.keys.find((k: { demoKey: string }) => k.demoKey === demo).key as string;
    const receiver = await new TestReceiver().start();
    receivers.push(receiver);
    expect(await run({ next, id: made.body.data.id, full: key(DEMO_KEY.org1Full), admin: key(DEMO_KEY.org1WebhooksAdmin), receiver, backend }, given)).toEqual(want);
  });

  for (const [name, run] of backend.more ?? []) test(name, () => run(mocks));

  test("every replica names its store, reached since the start and reachable now", () => {
    const named = mocks.map((mock) => ({ ...stateBackendOf(mock).store, ...stateBackendOf(mock).readiness() }));
    expect(named).toEqual(mocks.map(() => ({ ...backend.store(), reached: true, reachable: true })));
  });
});
