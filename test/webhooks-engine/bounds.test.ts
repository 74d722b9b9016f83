// Webhook memory is bounded with a stated policy (mock/control/openapi/, "Bounds on deliveries
// and the log"): past the bound per endpoint or in all, the oldest waiting delivery is dropped, its
// log entry says so and a line is printed; the delivery log is bounded per organisation, so one
// organisation's traffic never evicts another's entries.
import { createServer } from "node:net";
import { describe, expect, test } from "vitest";
import { mockLimits } from "../../generated/control-facts.js";
import { createDataset } from "../../mock/data/dataset.js";
import { DeliveryLog, type DeliveryLogEntry } from "../../mock/webhooks/delivery-log.js";
import { WebhookEngine } from "../../mock/webhooks/engine.js";
import { WAIT_BOUND_MS } from "./support.js";

/** A loopback port nothing listens on: every delivery there is refused and waits for its retry. */
function deadPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

const dataset = createDataset({ seed: 1, scale: 0.2 });

describe("waiting deliveries to receivers that are down", () => {
  const cases: Array<[string, { given: { perEndpoint: number; total: number; endpoints: number; triggers: number }; want: { waitingAtMost: number } }]> = [
    ["the bound per endpoint", { given: { perEndpoint: 3, total: 1000, endpoints: 2, triggers: 10 }, want: { waitingAtMost: 6 } }],
    ["the bound in all", { given: { perEndpoint: 100, total: 5, endpoints: 3, triggers: 10 }, want: { waitingAtMost: 5 } }],
  ];
  test.each(cases)("%s: the oldest waiting are dropped, logged as dropped, and announced", async (_name, { given, want }) => {
    const lines: string[] = [];
    const engine = new WebhookEngine(dataset, { maxWaitingPerEndpoint: given.perEndpoint, maxWaiting: given.total, onError: (line) => lines.push(line) });
    try {
      const port = await deadPort();
      for (let i = 0; i < given.endpoints; i++) await engine.addEndpoint({ url: `http://127.0.0.1:${port}/hooks/${i}` });
      const sent = given.endpoints * given.triggers;
      for (let i = 0; i < given.triggers; i++) await engine.trigger("payroll.paid");
      // Every first attempt is refused at once; what is left waits for a retry minutes away.
      await until(async () => (await engine.deliveries({ limit: sent })).every((d) => d.state !== "queued" && d.state !== "sending"));
      const states = (await engine.deliveries({ limit: sent })).map((d) => d.state);
      expect(states.length, "every delivery is in the log").toBe(sent);
      expect(states.filter((s) => s === "retry-scheduled").length, "waiting at most the bound").toBeLessThanOrEqual(want.waitingAtMost);
      expect(states.filter((s) => s === "dropped").length, "the rest dropped, none lost without a state").toBe(sent - states.filter((s) => s === "retry-scheduled").length);
      expect(engine.pending, "pending counts only what still waits").toBeLessThanOrEqual(want.waitingAtMost);
      expect(lines[0], "announced on the error output").toMatch(/^hr-mock: webhooks: dropped the oldest waiting delivery for http:\/\/127\.0\.0\.1:\d+\/hooks\/\d \(payroll\.paid [0-9a-f-]{36}; 1 dropped so far\): /);
    } finally {
      await engine.close();
    }
  });

  test("the defaults are the control document's", () => {
    const engine = new WebhookEngine(dataset, {});
    expect([engine.settings.maxWaitingPerEndpoint, engine.settings.maxWaiting, engine.settings.logLimit]).toEqual([mockLimits.maxWaitingPerEndpoint, mockLimits.maxWaiting, mockLimits.deliveryLogPerOrganisation]);
  });
});

describe("the delivery log, per organisation", () => {
  const entry = (organizationId: string, n: number): DeliveryLogEntry => ({
    id: `entry-${n}`,
    eventId: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
    type: "payroll.paid",
    organizationId,
    endpointId: "e",
    url: "https://hooks.example.com/",
    duplicate: false,
    resendOf: null,
    state: "succeeded",
    queuedAt: "2026-11-23T00:00:00.000Z",
    nextAttemptAt: null,
    attempts: [],
  });

  test("one organisation's flood never evicts another's entries", () => {
    const log = new DeliveryLog(10);
    for (let n = 0; n < 5; n++) log.add(entry("org-1", n));
    for (let n = 100; n < 1100; n++) log.add(entry("org-2", n));
    expect(log.find({ organizationId: "org-1", limit: 100 }).length, "organisation 1 keeps all five").toBe(5);
    expect(log.find({ organizationId: "org-2", limit: 100 }).length, "organisation 2 is trimmed to about its bound").toBeLessThanOrEqual(11);
    expect(log.find({ limit: 3 }).map((e) => e.eventId.slice(-4)), "across organisations, newest first").toEqual(["1099", "1098", "1097"]);
  });

  test("entries still waiting are never trimmed", () => {
    const log = new DeliveryLog(2);
    for (let n = 0; n < 10; n++) log.add({ ...entry("org-1", n), state: "retry-scheduled" });
    expect(log.find({ organizationId: "org-1", limit: 100 }).length).toBe(10);
  });
});

async function until(done: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + WAIT_BOUND_MS;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`the deliveries did not settle into waiting or dropped within ${WAIT_BOUND_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
