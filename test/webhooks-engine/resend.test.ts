// Resending one event from the delivery log (POST /_mock/webhooks/events/{eventId}/resend, and
// startMock's webhooks.resend): as the provider's redelivery, the same event id and the same body
// bytes arrive with a new Service-Delivery-Id and a signature made when it is sent, which the
// package's own verifier accepts; the log marks the resend and links it to the original delivery;
// what the caller's world does not have is a 404. The receiver is written here (resend-support.ts).
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DEMO_KEY, ResendError, startMock, type RunningMock } from "../../mock/index.js";
import { parseSignatureHeader } from "../../src/webhooks/index.js";
import { verify } from "../../src/webhooks/node/index.js";
import { control, controlAnswerChecker, ORG2_WEBHOOKS_KEY, type AnswerCheck } from "./support.js";
import { addEndpoint, finished, fire, nextSecond, RawReceiver, sandboxWorld, type ControlWorld } from "./resend-support.js";

let mock: RunningMock;
let receiver: RawReceiver;
let check: AnswerCheck;

beforeAll(async () => {
  [mock, receiver, check] = await Promise.all([startMock({ port: 0, rateLimit: "off", webhooks: { timeScale: 0.0000001 } }), new RawReceiver().start(), controlAnswerChecker()]);
});
afterAll(async () => {
  await mock?.close();
  await receiver?.close();
});

const resendPath = (eventId: string) => `/_mock/webhooks/events/${eventId}/resend`;

describe("one event again, as the provider's redelivery", () => {
  let world: ControlWorld;
  let secret: string;
  let endpointId: string;
  let eventId: string;
  beforeAll(async () => {
    world = await sandboxWorld(mock, check);
    ({ id: endpointId, secret } = await addEndpoint(world, receiver.url("/one")));
    eventId = (await fire(world, "leave.approved")).id;
    await finished(world, eventId);
  });

  test("the same event id and body bytes, a new delivery id, a signature made at the time of sending; the log links it to the original", async () => {
    const [first] = receiver.of(eventId, "/one");
    await nextSecond();
    const answer = await world.call("POST", resendPath(eventId));
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    const log = await finished(world, eventId);
    const [original, resend] = [log[1], log[0]];
    expect(answer.body.data.event, "the answer shows the event as first sent").toEqual(JSON.parse(first.body.toString("utf8")));
    expect(answer.body.data.deliveries).toEqual([{ id: resend.id, eventId, type: "leave.approved", endpointId, url: receiver.url("/one"), resendOf: original.id }]);

    const second = receiver.of(eventId, "/one")[1];
    expect(second, "the receiver got the event a second time").toBeDefined();
    expect(second.body.equals(first.body), "the body is byte for byte the one first sent").toBe(true);
    expect(second.eventId, "Service-Event-Id").toBe(eventId);
    expect(second.deliveryId, "a new Service-Delivery-Id").not.toBe(first.deliveryId);
    const [t1, t2] = [first, second].map((r) => parseSignatureHeader(r.signature).timestamp);
    expect(t2, "signed when it was sent, not the first signature replayed").toBeGreaterThan(t1);
    expect(Math.abs(Math.floor(second.receivedAt / 1000) - t2), "t is the time of sending").toBeLessThanOrEqual(1);
    expect(verify(second.body, second.signature, secret).timestamp, "the package's own verifier accepts it").toBe(t2);

    expect([original.resendOf, original.duplicate], "the original").toEqual([null, false]);
    expect([resend.resendOf, resend.duplicate, resend.state], "the resend, linked to the original").toEqual([original.id, false, "succeeded"]);
    expect(resend.attempts.map((a) => a.deliveryId), "the log shows the new delivery id").toEqual([second.deliveryId]);
  });

  test("a resend of a resend links to the original too", async () => {
    await world.call("POST", resendPath(eventId));
    const log = await finished(world, eventId);
    const original = log[log.length - 1];
    expect(log.slice(0, -1).map((e) => e.resendOf), "every resend names the original entry").toEqual(log.slice(0, -1).map(() => original.id));
  });
});

describe("endpointId: one endpoint only", () => {
  let world: ControlWorld;
  let all: string;
  let payrollOnly: string;
  let eventId: string;
  beforeAll(async () => {
    world = await sandboxWorld(mock, check);
    all = (await addEndpoint(world, receiver.url("/all"))).id;
    payrollOnly = (await addEndpoint(world, receiver.url("/payroll-only"), ["payroll.paid"])).id;
    eventId = (await fire(world, "leave.approved")).id;
    await finished(world, eventId);
  });

  test("an endpoint that neither receives the type nor was sent the event: 409 naming endpointId", async () => {
    const answer = await world.call("POST", resendPath(eventId), { endpointId: payrollOnly });
    expect(answer.status).toBe(409);
    expect(answer.body.message).toBe(`Conflict: endpoint ${payrollOnly} does not receive leave.approved events and was never sent event ${eventId} (endpointId).`);
  });

  test("an endpoint the event went to gets it again, whatever its selection (the Test action's webhook.test), linked to its own original", async () => {
    const tested = await world.call("POST", `/_mock/webhooks/endpoints/${payrollOnly}/test`);
    const testEvent = tested.body.data.event.id;
    const [original] = await finished(world, testEvent);
    const answer = await world.call("POST", resendPath(testEvent), { endpointId: payrollOnly });
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    expect(answer.body.data.deliveries.map((d: { endpointId: string; resendOf: string }) => [d.endpointId, d.resendOf])).toEqual([[payrollOnly, original.id]]);
  });

  test("an endpoint added after the event, which receives its type, gets it: the same bytes, linked to the original", async () => {
    const later = await addEndpoint(world, receiver.url("/later"));
    const answer = await world.call("POST", resendPath(eventId), { endpointId: later.id });
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    const log = await finished(world, eventId);
    const original = log.find((e) => e.endpointId === all)!;
    expect(answer.body.data.deliveries.map((d: { endpointId: string; resendOf: string }) => [d.endpointId, d.resendOf])).toEqual([[later.id, original.id]]);
    expect(receiver.of(eventId, "/later")[0]?.body.equals(receiver.of(eventId, "/all")[0].body), "the bytes first sent").toBe(true);
    expect(verify(receiver.of(eventId, "/later")[0].body, receiver.of(eventId, "/later")[0].signature, later.secret).timestamp).toBeGreaterThan(0);
  });

  test("without endpointId it goes only where the log shows it went; once those are removed, 409", async () => {
    const answer = await world.call("POST", resendPath(eventId));
    expect(answer.body.data.deliveries.map((d: { endpointId: string }) => d.endpointId), "the first endpoint, then the one a resend reached").toEqual([all, expect.any(String)]);
    for (const { endpointId } of answer.body.data.deliveries) await world.call("DELETE", `/_mock/webhooks/endpoints/${endpointId}`);
    const gone = await world.call("POST", resendPath(eventId));
    expect(gone.status).toBe(409);
    expect(gone.body.message).toBe(`Conflict: every endpoint event ${eventId} went to was removed; name one with endpointId (endpointId).`);
  });
});

describe("what the caller's world does not have is a 404", () => {
  let world: ControlWorld;
  let sandboxEvent: string;
  let defaultEvent: string;
  let org2Event: string;
  beforeAll(async () => {
    world = await sandboxWorld(mock, check);
    await addEndpoint(world, receiver.url("/sandbox"));
    sandboxEvent = (await fire(world, "payroll.paid")).id;
    await mock.webhooks.addEndpoint({ url: receiver.url("/default") });
    await mock.webhooks.addEndpoint({ url: receiver.url("/org2") }, 2);
    defaultEvent = (await mock.trigger("payroll.paid")).event.id;
    org2Event = (await mock.trigger("payroll.paid", { organisation: 2 })).event.id;
  });

  const cases: Array<[string, { given: () => { key: string; eventId: string; body?: unknown } | Promise<{ key: string; eventId: string; body?: unknown }>; want: { status: number; message: RegExp } }]> = [
    ["an event id never sent", { given: () => ({ key: DEMO_KEY.org1WebhooksAdmin, eventId: "6f1c2b7e-9a4d-4c8e-b2f1-3d5a7e9c1b04" }), want: { status: 404, message: /^Not found: no event with id 6f1c2b7e-9a4d-4c8e-b2f1-3d5a7e9c1b04 in this organisation's delivery log \(eventId\)\.$/ } }],
    ["another organisation's event", { given: () => ({ key: DEMO_KEY.org1WebhooksAdmin, eventId: org2Event }), want: { status: 404, message: /^Not found: no event with id .* \(eventId\)\.$/ } }],
    ["a sandbox's event, asked in the default world", { given: () => ({ key: DEMO_KEY.org1WebhooksAdmin, eventId: sandboxEvent }), want: { status: 404, message: /no event with id/ } }],
    ["the default world's event, asked in a sandbox", { given: () => ({ key: world.key, eventId: defaultEvent }), want: { status: 404, message: /no event with id/ } }],
    ["an endpoint of another organisation", { given: async () => ({ key: DEMO_KEY.org1WebhooksAdmin, eventId: defaultEvent, body: { endpointId: (await mock.webhooks.listEndpoints(2))[0].id } }), want: { status: 404, message: /^Not found: no webhook endpoint with id .* in this organisation \(endpointId\)\.$/ } }],
    ["an event id that is not a uuid", { given: () => ({ key: DEMO_KEY.org1WebhooksAdmin, eventId: "42" }), want: { status: 400, message: /eventId/ } }],
    ["a field the body does not have", { given: () => ({ key: DEMO_KEY.org1WebhooksAdmin, eventId: defaultEvent, body: { endpoint: "x" } }), want: { status: 400, message: /endpoint/ } }],
  ];
  test.each(cases)("%s", async (_name, { given, want }) => {
    const { key, eventId, body } = await given();
    const answer = await control(mock, "POST", resendPath(eventId), body, key);
    check(resendPath(eventId), "POST", answer);
    expect(answer.status, JSON.stringify(answer.body)).toBe(want.status);
    expect(answer.body.message).toMatch(want.message);
  });

  test("the organisation's own event is found, in upper case too", async () => {
    const answer = await control(mock, "POST", resendPath(org2Event.toUpperCase()), undefined, ORG2_WEBHOOKS_KEY);
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    expect(answer.body.data.event.id).toBe(org2Event);
  });
});

describe("in process: startMock's webhooks.resend and resendMatching", () => {
  test("resend sends the same event again and changes no data; resendMatching answers a dry run", async () => {
    await mock.webhooks.addEndpoint({ url: receiver.url("/in-process") });
    const { event } = await mock.trigger("leave.approved");
    const version = mock.dataset.version;
    const again = await mock.webhooks.resend(event.id);
    expect(again.event).toEqual(event);
    expect(again.deliveries.length, "to every endpoint of organisation 1 that got it").toBe((await mock.webhooks.deliveries({ eventId: event.id })).filter((d) => d.resendOf === null).length);
    expect(mock.dataset.version, "a resend does not apply the change again").toBe(version);
    await mock.webhooks.idle();
    const dry = await mock.webhooks.resendMatching({ type: "leave.approved", state: "succeeded", dryRun: true });
    expect(dry.dryRun).toBe(true);
    expect(dry.deliveries.map((d) => [d.eventId, d.id]), "a dry run adds no entry").toContainEqual([event.id, null]);
  });

  const refusals: Array<[string, { given: () => Promise<unknown>; want: { kind: string; field?: string; message: RegExp } }]> = [
    ["an unknown event", { given: () => mock.webhooks.resend("6f1c2b7e-9a4d-4c8e-b2f1-3d5a7e9c1b04"), want: { kind: "not-found", field: "eventId", message: /no event with id/ } }],
    ["an endpointId that is not a uuid", { given: () => mock.webhooks.resend("6f1c2b7e-9a4d-4c8e-b2f1-3d5a7e9c1b04", { endpointId: "x" }), want: { kind: "invalid", field: "endpointId", message: /endpointId must match format "uuid"/ } }],
    ["a state the filter does not know", { given: () => mock.webhooks.resendMatching({ state: "pending" as never }), want: { kind: "invalid", field: "state", message: /state must be equal to one of the allowed values/ } }],
    ["an organisation the dataset does not have", { given: () => mock.webhooks.resendMatching({ organisation: 3 }), want: { kind: "invalid", message: /organisation 3 is not 1 to 2/ } }],
  ];
  test.each(refusals)("%s: a ResendError with the reason", async (_name, { given, want }) => {
    const error = await given().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ResendError);
    expect({ kind: (error as ResendError).kind, field: (error as ResendError).field }).toEqual({ kind: want.kind, field: want.field });
    expect((error as Error).message).toMatch(want.message);
  });
});
