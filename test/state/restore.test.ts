// `startMock({ state })`: what the mock keeps in its state directory comes back at the next start:
// data changes from triggers, endpoints with their secrets, the delivery log, and a delivery waiting
// for its retry, attempted at its time with the same event id, signed with the same secret.
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { startMock, type RunningMock } from "../../mock/index.js";
import { TestReceiver } from "../webhooks-engine/support.js";
import { ManualScheduler, newStateDir } from "./support.js";

const T0 = Date.parse("2026-11-23T09:00:00Z");
const START = { port: 0, today: "2026-11-23", scale: 0.1, seed: 7 } as const;

const receiver = await new TestReceiver().start();
const open: RunningMock[] = [];
afterAll(async () => {
  for (const mock of open) await mock.close();
  await receiver.close();
});

async function start(state: string, scheduler: ManualScheduler, lines: string[]): Promise<RunningMock> {
  const mock = await startMock({ ...START, state, onError: (l) => lines.push(l), webhooks: { scheduler, log: (l) => lines.push(l) } });
  open.push(mock);
  return mock;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? filesUnder(join(dir, d.name)) : [join(dir, d.name)]));
}

describe("a restart with the same state directory", async () => {
  const state = newStateDir();
  const lines: string[] = [];
  const first = await start(state, new ManualScheduler(T0), lines);
  const { secret, id: endpointId } = await first.webhooks.addEndpoint({ url: receiver.url, description: "kept" });
  receiver.useSecret(secret);
  // The receiver fails the first attempt, so the delivery waits for its retry (5 s later) when the mock stops.
  receiver.answer = (r) => (r.number === 1 ? { kind: "status", status: 500 } : { kind: "verify" });
  const waiting = first.webhooks.onAttempt.bind(first.webhooks);
  const attempted = new Promise<void>((resolve) => waiting(() => resolve()));
  const approved = await first.trigger("leave.approved");
  await attempted;
  // With overrides: the journal keeps them, and the replay gives the same records.
  const hired = await first.trigger("employee.created", { set: { firstName: "Amara", lastName: "Okafor", workMode: "Remote" } });
  await first.trigger("leave.requested", { id: (hired.event.data as { employeeId: string }).employeeId, set: { startDate: "2026-12-21T00:00:00", endDate: "2026-12-23T00:00:00", comments: "Kept across a restart." } });
  await first.trigger("payroll.paid"); // changes no data: not journalled
  const org = first.dataset.organizations[0];
  const before = JSON.stringify({ requests: org.leaveRequests, employees: org.employees, version: first.dataset.version });
  const logBefore = (await first.webhooks.deliveries()).find((d) => d.eventId === approved.event.id);
  await first.close();
  open.splice(open.indexOf(first), 1);

  const later = new ManualScheduler(T0 + 1000);
  const second = await start(state, later, lines);

  test("says on stopping that the waiting delivery is kept, not dropped", () => {
    expect(lines.join("\n")).toMatch(new RegExp(`still waiting: kept in ${state.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}, to be attempted when the mock starts again`));
  });

  test("restores the data changes: the same records as before the stop", () => {
    const org2 = second.dataset.organizations[0];
    expect(JSON.stringify({ requests: org2.leaveRequests, employees: org2.employees, version: second.dataset.version }), "replayed records differ").toBe(before);
    expect(org2.employees.some((e) => e.fullName === "Amara Okafor" && e.workMode === "Remote"), "the override of a new employee came back").toBe(true);
    expect(org2.leaveRequests.some((r) => r.comments === "Kept across a restart." && r.startDate === "2026-12-21"), "the override of a requested leave came back").toBe(true);
    expect(second.state?.restored).toEqual({ changes: 3, endpoints: 1, waiting: 1 });
  });

  test("restores the endpoint with its id, and the delivery log", async () => {
    expect((await second.webhooks.listEndpoints()).map((e) => [e.id, e.description])).toEqual([[endpointId, "kept"]]);
    const entry = (await second.webhooks.deliveries()).find((d) => d.eventId === approved.event.id);
    expect(entry?.attempts, "the first attempt is in the restored log").toEqual(logBefore?.attempts);
  });

  test("attempts the waiting delivery at its scheduled time, with the same event id and the same secret", async () => {
    expect(later.waiting, "the retry is due 5 s after the failed attempt, 1 s of which passed").toContain(4000);
    later.advance(4000);
    const event = await receiver.event(approved.event.id);
    expect(event).toEqual(approved.event);
    expect(receiver.rejections, "the signature verifies with the endpoint's secret").toEqual([]);
    await second.webhooks.idle();
    expect((await second.webhooks.deliveries()).find((d) => d.eventId === approved.event.id)?.state).toBe("succeeded");
  });

  test("keeps everything owner-only (directory 0700, files 0600) and never logs the secret", () => {
    expect(statSync(state).mode & 0o777).toBe(0o700);
    for (const file of filesUnder(state)) expect([file, statSync(file).mode & 0o777]).toEqual([file, 0o600]);
    expect(lines.filter((l) => l.includes(secret))).toEqual([]);
  });
});

test("a waiting delivery whose time passed while the mock was down is attempted at once", async () => {
  const state = newStateDir();
  const late = await new TestReceiver().start();
  const lines: string[] = [];
  try {
    const first = await start(state, new ManualScheduler(T0), lines);
    late.useSecret((await first.webhooks.addEndpoint({ url: late.url })).secret);
    late.answer = (r) => (r.number === 1 ? { kind: "status", status: 500 } : { kind: "verify" });
    const attempted = new Promise<void>((resolve) => first.webhooks.onAttempt(() => resolve()));
    const { event } = await first.trigger("payroll.paid");
    await attempted;
    await first.close();
    open.splice(open.indexOf(first), 1);

    const anHourLater = new ManualScheduler(T0 + 3_600_000);
    await start(state, anHourLater, lines);
    expect(anHourLater.waiting, "no timer: it is due already").toEqual([]);
    expect((await late.event(event.id)).id).toBe(event.id);
  } finally {
    await late.close();
  }
});
