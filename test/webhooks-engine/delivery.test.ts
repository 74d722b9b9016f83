// Delivery rules (service-api.md §6.5 and the AsyncAPI send operation): a 2xx within the response
// timeout is success; a slower answer, a 3xx (never followed), any other status or a connection
// error is retried on the spec's schedule; a dead or slow receiver holds up no other endpoint;
// duplicates and shuffled order on request; close() lets attempts in flight finish and reports
// what still waits. Time is compressed with timeScale: no test sleeps for the schedule.
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { startMock, type RunningMock } from "../../mock/index.js";
import type { DeliveryLogEntry, MockWebhookOptions, Scheduler } from "../../mock/webhooks/index.js";
import { parseSignatureHeader } from "../../src/webhooks/index.js";
import { loadAsyncApi } from "../../scripts/lib/spec-document.js";
import { register, removeAllEndpoints, settled, TestReceiver, WAIT_BOUND_MS } from "./support.js";

const SCHEDULE: number[] = loadAsyncApi().operations.sendWebhookEvent["x-retry-schedule-seconds"];

const mocks: RunningMock[] = [];
const receivers: TestReceiver[] = [];
async function mockWith(webhooks: MockWebhookOptions): Promise<RunningMock> {
  const mock = await startMock({ port: 0, rateLimit: "off", webhooks });
  mocks.push(mock);
  return mock;
}
async function receiver(): Promise<TestReceiver> {
  const r = await new TestReceiver().start();
  receivers.push(r);
  return r;
}
afterAll(async () => {
  await Promise.all(mocks.map((m) => m.close()));
  await Promise.all(receivers.map((r) => r.close()));
});

/** Resolves after the attempt number `n` of the event has been logged; fails saying so after WAIT_BOUND_MS. */
function attemptLogged(mock: RunningMock, eventId: string, n: number): Promise<DeliveryLogEntry> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(async () => {
      stop();
      reject(new Error(`timed out waiting for attempt ${n} of event ${eventId}; the log: ${JSON.stringify(await mock.webhooks.deliveries({ eventId })).slice(0, 600)}`));
    }, WAIT_BOUND_MS);
    const stop = mock.webhooks.onAttempt((entry, attempt) => {
      if (entry.eventId === eventId && attempt.attempt >= n) {
        clearTimeout(timer);
        stop();
        resolve(entry);
      }
    });
  });
}

describe("at timeScale 0.0001 (the schedule of two days in about 15 s)", () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await mockWith({ timeScale: 0.0001 });
  });
  afterEach(() => removeAllEndpoints(mock));

  test("the engine's delays and timeout are the spec's, scaled, with the timeout's floor", () => {
    expect(mock.webhooks.settings.retryDelaysMs).toEqual(SCHEDULE.map((s) => s * 1000 * 0.0001));
    expect(mock.webhooks.settings.responseTimeoutMs, "10 s × 0.0001 is below the 1 s floor").toBe(1000);
  });

  test("500, 500, then 200: retried with a new delivery id per attempt, the same event id", async () => {
    const r = await receiver();
    r.answer = (req) => (req.number <= 2 ? { kind: "status", status: 500, body: '{"error":"down"}' } : { kind: "verify" });
    const { id: endpointId } = await register(mock, r);
    const { event } = await mock.trigger("payroll.paid");

    await r.event(event.id);
    const entry = await settled(mock, event.id, endpointId);
    expect(entry.state).toBe("succeeded");
    expect(entry.attempts.map((a) => [a.attempt, a.status, a.outcome])).toEqual([
      [1, 500, "failed"],
      [2, 500, "failed"],
      [3, 200, "succeeded"],
    ]);
    expect(entry.attempts[0].answer, "the receiver's answer is logged").toBe('{"error":"down"}');
    expect(entry.attempts.map((a) => a.nextRetryAt === null), "a next retry time after each failure only").toEqual([false, false, true]);
    const requests = r.requestsFor(event.id);
    expect(requests.map((q) => q.eventId), "same event id on every attempt").toEqual([event.id, event.id, event.id]);
    expect(new Set(requests.map((q) => q.deliveryId)).size, "a new Service-Delivery-Id per attempt").toBe(3);
    expect(requests.map((q) => q.deliveryId)).toEqual(entry.attempts.map((a) => a.deliveryId));
  });

  test("a 3xx is a failure: the redirect is not followed and the event is sent again", async () => {
    const elsewhere = await receiver();
    const r = await receiver();
    r.answer = (req) => (req.number === 1 ? { kind: "status", status: 302, headers: { Location: elsewhere.url } } : { kind: "verify" });
    const { id: endpointId } = await register(mock, r);
    const { event } = await mock.trigger("loan.disbursed");

    await r.event(event.id);
    const entry = await settled(mock, event.id, endpointId);
    expect(entry.attempts.map((a) => [a.status, a.outcome])).toEqual([
      [302, "failed"],
      [200, "succeeded"],
    ]);
    expect(entry.attempts[0].error).toMatch(/redirect not followed/);
    expect(elsewhere.requests, "nothing was sent to the Location").toEqual([]);
  });

  test("a receiver that is down, then up, gets the event within the retry window", async () => {
    const r = await receiver();
    const port = r.server.port;
    await r.server.close(); // down: connections are refused
    r.answer = () => ({ kind: "verify" });
    const url = `http://127.0.0.1:${port}/hooks`;
    const created = await mock.webhooks.addEndpoint({ url });
    r.useSecret(created.secret);
    const { event } = await mock.trigger("candidate.stage_changed");

    const failing = await attemptLogged(mock, event.id, 2);
    expect(failing.attempts.every((a) => a.outcome === "failed" && /ECONNREFUSED/.test(a.error ?? "")), JSON.stringify(failing.attempts)).toBe(true);
    await r.start(port); // up again
    await r.event(event.id);
    const entry = await settled(mock, event.id, created.id);
    expect(entry.state).toBe("succeeded");
    expect(entry.attempts.length, "delivered by a retry").toBeGreaterThanOrEqual(3);
  });

  test("a slow receiver delays no other endpoint", async () => {
    const slow = await receiver();
    slow.answer = () => ({ kind: "hold" });
    const fast = await receiver();
    await register(mock, slow);
    await register(mock, fast);
    const count = mock.webhooks.settings.concurrency + 5;
    const sent: string[] = [];
    for (let i = 0; i < count; i++) sent.push((await mock.trigger("offer.accepted")).event.id);

    await fast.until(() => sent.every((id) => fast.events.some((e) => e.event.id === id)), `${count} events at the fast receiver`);
    expect(slow.events, "the slow receiver has answered nothing yet").toEqual([]);
    expect(slow.requests.length, "the slow lane holds at most its concurrency in flight").toBeLessThanOrEqual(mock.webhooks.settings.concurrency);
    slow.releaseHeld();
  });

  test("an endpoint removed while its events wait: they are cancelled, not sent", async () => {
    const r = await receiver();
    r.answer = () => ({ kind: "status", status: 503 });
    const { id: endpointId } = await register(mock, r);
    const { event } = await mock.trigger("payroll.paid");
    await attemptLogged(mock, event.id, 1);
    await mock.webhooks.removeEndpoint(endpointId);
    const entry = await settled(mock, event.id, endpointId);
    expect(entry.state).toBe("cancelled");
  });
});

test("an answer slower than the response timeout is a failure; the event is sent again", async () => {
  const mock = await mockWith({ timeScale: 0.0001, responseTimeoutFloorMs: 200 });
  const r = await receiver();
  r.answer = (req) => (req.number === 1 ? { kind: "hold" } : { kind: "verify" }); // the first is never answered
  const { id: endpointId } = await register(mock, r);
  const { event } = await mock.trigger("payroll.paid");

  await r.event(event.id);
  const entry = await settled(mock, event.id, endpointId);
  expect(entry.attempts[0].outcome).toBe("failed");
  expect(entry.attempts[0].status, "no answer in time").toBeNull();
  expect(entry.attempts[0].error).toMatch(/timeout: no complete answer within 200 ms/);
  expect(entry.attempts.at(-1)?.outcome).toBe("succeeded");
});

test("after the last attempt of the schedule the delivery is given up", async () => {
  const mock = await mockWith({ timeScale: 0.0000001 });
  const r = await receiver();
  r.answer = () => ({ kind: "status", status: 500 });
  const { id: endpointId } = await register(mock, r);
  const { event } = await mock.trigger("payroll.paid");
  const entry = await settled(mock, event.id, endpointId);
  expect(entry.state).toBe("failed");
  expect(entry.attempts.length, "one attempt per entry of x-retry-schedule-seconds").toBe(SCHEDULE.length);
  expect(entry.attempts.at(-1)?.nextRetryAt).toBeNull();
});

test("duplicateRate 1: every event is delivered twice, same event id, new delivery id; the receiver skips the repeat", async () => {
  const mock = await mockWith({ timeScale: 0.0001, duplicateRate: 1 });
  const r = await receiver();
  await register(mock, r);
  const { event, deliveries } = await mock.trigger("payroll.paid");
  expect(deliveries.map((d) => d.duplicate)).toEqual([false, true]);

  await r.until(() => r.requestsFor(event.id).length === 2 && r.duplicates.length === 1, "the event and its duplicate");
  const [first, second] = r.requestsFor(event.id);
  expect(first.deliveryId).not.toBe(second.deliveryId);
  expect(r.events.filter((e) => e.event.id === event.id), "handled once").toHaveLength(1);
  expect(r.duplicates[0].eventId).toBe(event.id);
});

test("shuffle: events held briefly arrive in another order than they happened; occurredAt still orders them", async () => {
  const mock = await mockWith({ timeScale: 0.0001, shuffle: true, shuffleWindowMs: 200, concurrency: 1 });
  const r = await receiver();
  await register(mock, r);
  const sent: string[] = [];
  for (let i = 0; i < 8; i++) sent.push((await mock.trigger("candidate.stage_changed")).event.id);

  await r.until(() => r.events.length === 8, "8 events");
  const arrived = r.events.map((e) => e.event.id);
  expect([...arrived].sort(), "every event arrives").toEqual([...sent].sort());
  expect(arrived, "not in the order they happened").not.toEqual(sent);
  const byOccurredAt = [...r.events].sort((a, b) => (a.event.occurredAt < b.event.occurredAt ? -1 : 1)).map((e) => e.event.id);
  expect(byOccurredAt, "sorting by occurredAt restores the order").toEqual(sent);
});

test("close(): attempts in flight finish, events waiting for a retry are reported, triggers are refused", async () => {
  const mock = await mockWith({ timeScale: 1 });
  const r = await receiver();
  const failing = new Set<string>();
  r.answer = (req) => (failing.has(req.eventId ?? "") ? { kind: "status", status: 500 } : { kind: "verify", delayMs: 150 });
  const { id: endpointId } = await register(mock, r);

  const waiting = await mock.webhooks.trigger("payroll.paid", {});
  failing.add(waiting.event.id);
  await attemptLogged(mock, waiting.event.id, 1); // failed; the next attempt is 5 s away
  const inFlight = await mock.trigger("payroll.paid");
  await r.until(() => r.requestsFor(inFlight.event.id).length === 1, "the second event in flight");

  const report = await mock.webhooks.close();
  const [finished] = await mock.webhooks.deliveries({ eventId: inFlight.event.id, endpointId });
  expect(finished.state, "the attempt in flight had finished when close() resolved").toBe("succeeded");
  expect((await r.event(inFlight.event.id)).id, "and the receiver has the event").toBe(inFlight.event.id);
  expect(report.waiting).toEqual([
    {
      eventId: waiting.event.id,
      type: "payroll.paid",
      endpointId,
      url: r.url,
      duplicate: false,
      attempts: 1,
      nextAttemptAt: expect.any(String),
      lastError: "HTTP 500",
    },
  ]);
  await expect(mock.trigger("payroll.paid"), "no triggers after close").rejects.toMatchObject({ kind: "unavailable" });
  expect(await mock.webhooks.close(), "close() again gives the same report").toBe(report);
});

test.each([
  ["with the log option, on the log", "log"],
  ["without it, whatever the flags, on the error output", "onError"],
] as const)("close() lists the deliveries that will not be sent %s (hr-mock serve prints them on Ctrl-C)", async (_name, channel) => {
  const lines: string[] = [];
  const push = (line: string) => void lines.push(line);
  const mock = channel === "log" ? await mockWith({ timeScale: 1, log: push }) : await startMock({ port: 0, rateLimit: "off", onError: push, webhooks: { timeScale: 1 } });
  if (channel === "onError") mocks.push(mock);
  const r = await receiver();
  r.answer = () => ({ kind: "status", status: 302, headers: { Location: "http://127.0.0.1:1/" } });
  await register(mock, r);
  const { event } = await mock.trigger("payroll.paid");
  await attemptLogged(mock, event.id, 1); // failed; the next attempt is 5 s away

  const report = await mock.webhooks.close();
  expect(report.waiting.map((w) => [w.eventId, w.lastError])).toEqual([[event.id, "HTTP 302, redirect not followed"]]);
  const closing = lines.slice(lines.findIndex((l) => l.startsWith("webhooks stopped")));
  expect(closing[0]).toBe("webhooks stopped: 1 delivery was still waiting and will not be sent:");
  expect(closing[1]).toMatch(new RegExp(`^  payroll\\.paid ${event.id} -> ${r.url} \\(1 attempt, last HTTP 302, redirect not followed; next was due at \\d{4}-.*Z\\)$`));
  if (channel === "log") expect(lines.join("\n"), "the attempt line says the same").toContain("attempt 1: failed (HTTP 302, redirect not followed");
});

test("every attempt is signed when it is sent: a retry hours later still verifies within the 300 s tolerance", async () => {
  // The retry timer is fired by hand and the clock moved five hours, as between the 6th and 7th attempt.
  const pending: Array<() => void> = [];
  const scheduler: Scheduler = {
    setTimeout: (callback) => (pending.push(callback), callback),
    clearTimeout: (handle) => void pending.splice(pending.indexOf(handle as () => void) >>> 0, 1),
  };
  const mock = await mockWith({ timeScale: 1, scheduler });
  const r = await receiver();
  r.answer = (req) => (req.number === 1 ? { kind: "status", status: 500 } : { kind: "verify" });
  await register(mock, r);
  const { event } = await mock.trigger("payroll.paid");
  await attemptLogged(mock, event.id, 1);
  expect(pending, "one retry scheduled").toHaveLength(1);

  vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 5 * 3600 * 1000 });
  try {
    pending.shift()!();
    await r.event(event.id);
  } finally {
    vi.useRealTimers();
  }
  const [first, second] = r.requestsFor(event.id).map((q) => parseSignatureHeader(String(q.headers["service-signature"])).timestamp);
  expect(second - first, "the retry's t is its own sending time").toBeGreaterThanOrEqual(5 * 3600 - 1);
  expect(r.rejections, "the receiver accepted the retry").toEqual([]);
});

test("neither the signing secret nor a token in the endpoint's query string reaches the log lines or the delivery log", async () => {
  const lines: string[] = [];
  const mock = await mockWith({ timeScale: 0.0001, log: (line) => lines.push(line) });
  const r = await receiver();
  const created = await mock.webhooks.addEndpoint({ url: `${r.url}?token=receiver-token-123` });
  r.useSecret(created.secret);
  const { event, deliveries } = await mock.trigger("payroll.paid");
  await r.event(event.id);
  const entry = await settled(mock, event.id, created.id);

  expect(r.requestsFor(event.id).length, "the token still reaches the receiver").toBe(1);
  const shown = JSON.stringify({ lines, entry, deliveries, report: await mock.webhooks.close() });
  expect(lines.length, "an attempt line was written").toBeGreaterThan(0);
  expect(shown).not.toContain(created.secret);
  expect(shown).not.toContain("receiver-token-123");
});
