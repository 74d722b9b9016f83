// The bulk resend (POST /_mock/webhooks/events/resend): a filter of type, endpointId, state, since and
// until over the organisation's finished deliveries, once per event and endpoint; dryRun answers
// what would be sent and sends nothing; a selection past the bounds on waiting deliveries
// (x-mock-limits, or the engine's options) is refused whole before anything is queued. The
// receiver is written here (resend-support.ts); every answer is checked against the control document.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startMock, type RunningMock } from "../../mock/index.js";
import { controlAnswerChecker, type AnswerCheck } from "./support.js";
import { addEndpoint, finished, fire, RawReceiver, sandboxWorld, type ControlWorld } from "./resend-support.js";

const BULK = "/_mock/webhooks/events/resend";
const FAST = { timeScale: 0.0000001 } as const;

let receiver: RawReceiver;
let check: AnswerCheck;
const mocks: RunningMock[] = [];
async function mockWith(webhooks: Record<string, number>): Promise<RunningMock> {
  const mock = await startMock({ port: 0, rateLimit: "off", onError: () => {}, webhooks: { ...FAST, ...webhooks } });
  mocks.push(mock);
  return mock;
}
beforeAll(async () => {
  [receiver, check] = await Promise.all([new RawReceiver().start(), controlAnswerChecker()]);
});
afterAll(async () => {
  for (const mock of mocks) await mock.close();
  await receiver?.close();
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
type Resent = { id: string | null; eventId: string; type: string; endpointId: string; url: string; resendOf: string };

describe("the filter, and its dry run", async () => {
  const mock = await mockWith({});
  let world: ControlWorld;
  const ids: Record<string, string> = {};
  const times: Record<string, string> = {};
  let events: Record<string, string>;
  beforeAll(async () => {
    world = await sandboxWorld(mock, check);
    receiver.status.set("/down", 500);
    ids.ok = (await addEndpoint(world, receiver.url("/ok"))).id;
    ids.down = (await addEndpoint(world, receiver.url("/down"))).id;
    times.before = new Date().toISOString();
    const payroll = (await fire(world, "payroll.paid")).id;
    const approved = (await fire(world, "leave.approved")).id;
    await pause(5);
    times.mid = new Date().toISOString();
    await pause(5);
    const loan = (await fire(world, "loan.disbursed")).id;
    events = { payroll, approved, loan };
    // At this time scale the schedule's two days are about 15 ms: the receiver that answers 500 fails every attempt of it at once.
    for (const id of Object.values(events)) await finished(world, id);
    // The time the last event was first queued: since takes it in, until leaves it out.
    times.loan = (await finished(world, loan)).find((e) => e.endpointId === ids.ok)!.queuedAt;
  });

  /** What a dry run with this filter picks, as "type -> path". */
  const picked = (deliveries: Resent[]) => deliveries.map((d) => `${d.type} -> ${new URL(d.url).pathname}`).sort();
  const cases: Array<[string, { given: () => Record<string, unknown>; want: string[] }]> = [
    ["no filter: every finished delivery", { given: () => ({}), want: ["leave.approved -> /down", "leave.approved -> /ok", "loan.disbursed -> /down", "loan.disbursed -> /ok", "payroll.paid -> /down", "payroll.paid -> /ok"] }],
    ["state failed", { given: () => ({ state: "failed" }), want: ["leave.approved -> /down", "loan.disbursed -> /down", "payroll.paid -> /down"] }],
    ["state succeeded", { given: () => ({ state: "succeeded" }), want: ["leave.approved -> /ok", "loan.disbursed -> /ok", "payroll.paid -> /ok"] }],
    ["type", { given: () => ({ type: "leave.approved" }), want: ["leave.approved -> /down", "leave.approved -> /ok"] }],
    ["endpointId", { given: () => ({ endpointId: ids.ok }), want: ["leave.approved -> /ok", "loan.disbursed -> /ok", "payroll.paid -> /ok"] }],
    ["since", { given: () => ({ since: times.mid }), want: ["loan.disbursed -> /down", "loan.disbursed -> /ok"] }],
    ["since takes in the time it names", { given: () => ({ since: times.loan }), want: ["loan.disbursed -> /down", "loan.disbursed -> /ok"] }],
    ["until leaves out the time it names", { given: () => ({ until: times.loan }), want: ["leave.approved -> /down", "leave.approved -> /ok", "payroll.paid -> /down", "payroll.paid -> /ok"] }],
    ["since and until the same time: nothing", { given: () => ({ since: times.loan, until: times.loan }), want: [] }],
    ["every field at once", { given: () => ({ type: "payroll.paid", endpointId: ids.down, state: "failed", since: times.before, until: times.mid }), want: ["payroll.paid -> /down"] }],
  ];
  test.each(cases)("dry run, %s: the deliveries that would be sent, and nothing is sent", async (_name, { given, want }) => {
    const [requests, logged] = [receiver.requests.length, (await world.call("GET", "/_mock/webhooks/deliveries?limit=1000")).body.data.length];
    const answer = await world.call("POST", BULK, { ...given(), dryRun: true });
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    expect(picked(answer.body.data.deliveries)).toEqual(want);
    expect([answer.body.data.dryRun, answer.body.data.count]).toEqual([true, want.length]);
    expect(answer.body.data.deliveries.every((d: Resent) => d.id === null), "a dry run adds no log entry").toBe(true);
    await pause(50);
    expect(receiver.requests.length, "nothing reached the receiver").toBe(requests);
    expect((await world.call("GET", "/_mock/webhooks/deliveries?limit=1000")).body.data.length, "the log is as it was").toBe(logged);
  });

  test("the failed ones, sent: as many as the dry run said, the bytes first sent, each linked to its original; then none is failed", async () => {
    const dry = await world.call("POST", BULK, { state: "failed", dryRun: true });
    receiver.status.set("/down", 200);
    const answer = await world.call("POST", BULK, { state: "failed" });
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    expect([answer.body.data.dryRun, answer.body.data.count]).toEqual([false, dry.body.data.count]);
    for (const id of Object.values(events)) {
      const log = await finished(world, id);
      const original = log.find((e) => e.endpointId === ids.down && e.resendOf === null)!;
      const resend = log.find((e) => e.endpointId === ids.down && e.resendOf !== null);
      expect([resend?.resendOf, resend?.state], `${id}: the resend names its original and succeeded`).toEqual([original.id, "succeeded"]);
      const [first, ...later] = receiver.of(id, "/down");
      expect(later.at(-1)?.body.equals(first.body), `${id}: the body first sent`).toBe(true);
      expect(later.at(-1)?.deliveryId, `${id}: a new delivery id`).not.toBe(first.deliveryId);
    }
    const again = await world.call("POST", BULK, { state: "failed", dryRun: true });
    expect(again.body.data.count, "an event that reached its endpoint since is not failed any more").toBe(0);
    const succeeded = await world.call("POST", BULK, { state: "succeeded", endpointId: ids.down, dryRun: true });
    expect(succeeded.body.data.count, "once per event and endpoint, however many entries it has").toBe(3);
  });

  const refusals: Array<[string, { given: () => unknown; want: { status: number; message: RegExp } }]> = [
    ["an endpoint the organisation does not have", { given: () => ({ endpointId: "6f1c2b7e-9a4d-4c8e-b2f1-3d5a7e9c1b04" }), want: { status: 404, message: /^Not found: no webhook endpoint with id 6f1c2b7e-9a4d-4c8e-b2f1-3d5a7e9c1b04 in this organisation \(endpointId\)\.$/ } }],
    ["a state the filter does not know", { given: () => ({ state: "pending" }), want: { status: 400, message: /state/ } }],
    ["a time that is not a date-time", { given: () => ({ since: "yesterday" }), want: { status: 400, message: /since/ } }],
    ["a field the filter does not have", { given: () => ({ status: "failed" }), want: { status: 400, message: /status/ } }],
    ["no body", { given: () => undefined, want: { status: 400, message: /Missing body/ } }],
  ];
  test.each(refusals)("%s: refused, naming it", async (_name, { given, want }) => {
    const answer = await world.call("POST", BULK, given());
    expect(answer.status, JSON.stringify(answer.body)).toBe(want.status);
    expect(answer.body.message).toMatch(want.message);
  });
});

test("a delivery still under way is left to its retries, not matched", async () => {
  const mock = await mockWith({});
  const world = await sandboxWorld(mock, check);
  receiver.status.set("/hold", "hold");
  const { id } = await addEndpoint(world, receiver.url("/hold"));
  const event = await fire(world, "payroll.paid");
  const answer = await world.call("POST", BULK, { dryRun: true });
  expect(answer.body.data.count).toBe(0);
  const [entry] = (await world.call("GET", `/_mock/webhooks/deliveries?eventId=${event.id}`)).body.data;
  expect(["queued", "sending", "retry-scheduled"], "the delivery is still under way").toContain(entry.state);
  await world.call("DELETE", `/_mock/webhooks/endpoints/${id}`);
});

describe("the bounds on waiting deliveries", async () => {
  // Small bounds through the engine's options: the defaults are x-mock-limits' (test/webhooks-engine/bounds.test.ts).
  const mock = await mockWith({ maxWaitingPerEndpoint: 2, maxWaiting: 3 });
  let world: ControlWorld;
  let first: string;
  let one: string;
  beforeAll(async () => {
    world = await sandboxWorld(mock, check);
    one = (await addEndpoint(world, receiver.url("/bound-1"))).id;
    await addEndpoint(world, receiver.url("/bound-2"));
    first = (await fire(world, "payroll.paid")).id;
    for (const type of ["loan.disbursed", "offer.accepted"]) await finished(world, (await fire(world, type)).id);
    await finished(world, first);
  });

  const cases: Array<[string, { given: () => Record<string, unknown>; want: { status: number; message?: (one: string) => string; count?: number } }]> = [
    ["more than the mock holds in all", { given: () => ({}), want: { status: 409, message: () => "Conflict: the filter matches 6 deliveries, more than the 3 the mock holds waiting in all (maxWaiting); narrow it with since, until, type or endpointId." } }],
    ["its dry run meets the same refusal", { given: () => ({ dryRun: true }), want: { status: 409, message: () => "Conflict: the filter matches 6 deliveries, more than the 3 the mock holds waiting in all (maxWaiting); narrow it with since, until, type or endpointId." } }],
    ["more than an endpoint holds", { given: () => ({ endpointId: one }), want: { status: 409, message: (id) => `Conflict: the filter matches 3 deliveries to endpoint ${id}, more than the 2 an endpoint holds waiting (maxWaitingPerEndpoint); narrow it with since, until, type or endpointId.` } }],
    ["narrowed to fit", { given: () => ({ endpointId: one, type: "payroll.paid" }), want: { status: 202, count: 1 } }],
  ];
  test.each(cases)("%s", async (_name, { given, want }) => {
    const requests = receiver.requests.length;
    const answer = await world.call("POST", BULK, given());
    expect(answer.status, JSON.stringify(answer.body)).toBe(want.status);
    if (want.message) {
      expect(answer.body.message).toBe(want.message(one));
      await pause(50);
      expect(receiver.requests.length, "a refused resend sends nothing").toBe(requests);
    }
    if (want.count !== undefined) expect(answer.body.data.count).toBe(want.count);
  });

  test("one event by id is never refused for the bounds, as a trigger is not", async () => {
    const answer = await world.call("POST", `/_mock/webhooks/events/${first}/resend`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    expect(answer.body.data.deliveries).toHaveLength(2);
  });
});

test("a resend links to the original even once the original's entry has left the bounded log", async () => {
  const mock = await mockWith({ logLimit: 2 });
  const world = await sandboxWorld(mock, check);
  await addEndpoint(world, receiver.url("/trimmed"));
  const kept = (await fire(world, "payroll.paid")).id;
  const [original] = await finished(world, kept);
  await finished(world, (await fire(world, "loan.disbursed")).id);
  await world.call("POST", `/_mock/webhooks/events/${kept}/resend`);
  await finished(world, kept);
  // Past the bound (2 entries, trimmed at 10 % over), the oldest finished entries go: the original among them.
  await finished(world, (await fire(world, "offer.accepted")).id);
  const log = (await world.call("GET", `/_mock/webhooks/deliveries?eventId=${kept}`)).body.data;
  expect(log.map((e: { id: string }) => e.id), "the original's entry is gone, the resend's is there").not.toContain(original.id);
  expect(log).toHaveLength(1);
  const answer = await world.call("POST", `/_mock/webhooks/events/${kept}/resend`);
  expect(answer.body.data.deliveries.map((d: Resent) => d.resendOf)).toEqual([original.id]);
});
