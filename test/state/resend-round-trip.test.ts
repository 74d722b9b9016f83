// Resends and --state: the log's resend entries come back with their ids and links, a resend
// waiting for its retry is attempted after the restart with the bytes first sent, and an event of
// the restored log can be sent again, its body kept in the directory. A state written before bodies
// and entry ids were kept still opens; what it cannot resend is refused by name, never silently.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { ResendError, startMock, type RunningMock } from "../../mock/index.js";
import { verify } from "../../src/webhooks/node/index.js";
import { RawReceiver } from "../webhooks-engine/resend-support.js";
import { ManualScheduler, newStateDir } from "./support.js";

const T0 = Date.parse("2026-11-23T09:00:00Z");
const START = { port: 0, today: "2026-11-23", scale: 0.1, seed: 11, onError: () => {} } as const;

const receiver = await new RawReceiver().start();
const open: RunningMock[] = [];
afterAll(async () => {
  for (const mock of open) await mock.close();
  await receiver.close();
});

async function start(state: string, scheduler: ManualScheduler): Promise<RunningMock> {
  const mock = await startMock({ ...START, state, webhooks: { scheduler } });
  open.push(mock);
  return mock;
}

async function stop(mock: RunningMock): Promise<void> {
  await mock.close();
  open.splice(open.indexOf(mock), 1);
}

/** Resolves after the next attempt of any delivery. */
const nextAttempt = (mock: RunningMock) => new Promise<void>((resolve) => { const off = mock.webhooks.onAttempt(() => { off(); resolve(); }); });

describe("a restart with resends in the log", async () => {
  const state = newStateDir();
  const first = await start(state, new ManualScheduler(T0));
  const { secret } = await first.webhooks.addEndpoint({ url: receiver.url("/kept") });
  let attempted = nextAttempt(first);
  const { event: settled } = await first.trigger("loan.disbursed");
  await attempted;
  attempted = nextAttempt(first);
  const { event } = await first.trigger("payroll.paid");
  await attempted;
  attempted = nextAttempt(first);
  await first.webhooks.resend(event.id);
  await attempted;
  // The second resend's first attempt fails: it waits for its retry (5 s later) when the mock stops.
  receiver.status.set("/kept", 500);
  attempted = nextAttempt(first);
  await first.webhooks.resend(event.id);
  await attempted;
  const logBefore = await first.webhooks.deliveries({ eventId: event.id });
  await stop(first);

  receiver.status.set("/kept", 200);
  const later = new ManualScheduler(T0 + 1000);
  const second = await start(state, later);

  test("the log comes back with each entry's id and each resend's link to the original", async () => {
    const strip = (entries: typeof logBefore) => entries.map(({ id, resendOf, duplicate, endpointId }) => ({ id, resendOf, duplicate, endpointId }));
    expect(strip(await second.webhooks.deliveries({ eventId: event.id }))).toEqual(strip(logBefore));
    const original = logBefore[logBefore.length - 1];
    expect(logBefore.map((e) => e.resendOf)).toEqual([original.id, original.id, null]);
    expect(second.state?.restored.waiting, "the failed resend waits for its retry").toBe(1);
  });

  test("the waiting resend is attempted at its time, with the bytes first sent, signed when sent", async () => {
    const before = receiver.of(event.id).length;
    const done = nextAttempt(second);
    later.advance(4000);
    await done;
    const [firstSent] = receiver.of(event.id);
    const retried = receiver.of(event.id)[before];
    expect(retried.body.equals(firstSent.body), "the body first sent").toBe(true);
    expect(verify(retried.body, retried.signature, secret).timestamp).toBeGreaterThan(0);
    expect((await second.webhooks.deliveries({ eventId: event.id }))[0].state).toBe("succeeded");
  });

  test("an event of the restored log is sent again with the body kept in the directory", async () => {
    const done = nextAttempt(second);
    const again = await second.webhooks.resend(event.id);
    await done;
    expect(again.event).toEqual(event);
    const last = receiver.of(event.id).at(-1)!;
    expect(last.body.equals(receiver.of(event.id)[0].body), "the bytes first sent").toBe(true);
    expect(again.deliveries[0].resendOf).toBe(logBefore[logBefore.length - 1].id);
  });

  test("an event that had nothing waiting is sent again too: every logged event's body is kept", async () => {
    const done = nextAttempt(second);
    await second.webhooks.resend(settled.id);
    await done;
    const [firstSent, ...again] = receiver.of(settled.id);
    expect(again.map((r) => r.body.equals(firstSent.body))).toEqual([true]);
  });
});

test("a state written before bodies and entry ids were kept opens; its events are refused for resending by name", async () => {
  const state = newStateDir();
  const first = await start(state, new ManualScheduler(T0));
  await first.webhooks.addEndpoint({ url: receiver.url("/old") });
  const attempted = nextAttempt(first);
  const { event } = await first.trigger("payroll.paid");
  await attempted;
  await stop(first);
  // What an earlier mock wrote: no bodies, no entry ids or links.
  const file = join(state, "worlds", "default", "webhooks.json");
  const saved = JSON.parse(readFileSync(file, "utf8"));
  delete saved.bodies;
  for (const entry of saved.log) {
    delete entry.id;
    delete entry.resendOf;
  }
  writeFileSync(file, JSON.stringify(saved));

  const second = await start(state, new ManualScheduler(T0 + 1000));
  const [entry] = await second.webhooks.deliveries({ eventId: event.id });
  expect([typeof entry.id, entry.resendOf], "the entry is given an id, and is no resend").toEqual(["string", null]);
  const refused = await second.webhooks.resend(event.id).catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(ResendError);
  expect((refused as ResendError).message).toBe(`the body of event ${event.id} was not kept (its log entries come from a state directory of an earlier mock), so it cannot be sent again (eventId).`);
  const matching = await second.webhooks.resendMatching({ dryRun: true });
  expect([matching.count, matching.notKept], "a filter counts what it cannot send, apart").toEqual([0, 1]);
});
