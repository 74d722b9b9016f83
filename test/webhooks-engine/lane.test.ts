// One endpoint's delivery lane, driven without the network or real time: `send` answers as each
// case says, and the clock and its timers are a fake the test moves by hand. What a lane owns: the
// order of its queue, the retry schedule, cancelling on removal (and releasing itself once quiet),
// and on shutdown the list of what will not be sent.
import { describe, expect, test } from "vitest";
import type { DeliveryLogEntry, DeliveryState } from "../../mock/webhooks/delivery-log.js";
import { DeliveryLane, type LaneJob, type SentAttempt } from "../../mock/webhooks/lane.js";
import type { Scheduler } from "../../mock/webhooks/settings.js";

const START = Date.parse("2026-10-15T09:00:00.000Z");
const SCHEDULE_MS = [0, 5_000, 300_000, 1_800_000];

/** Timers that fire only when the test moves the clock. */
class FakeClock implements Scheduler {
  time = START;
  private timers: Array<{ at: number; callback: () => void }> = [];
  setTimeout(callback: () => void, ms: number): unknown {
    const timer = { at: this.time + ms, callback };
    this.timers.push(timer);
    return timer;
  }
  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((t) => t !== handle);
  }
  now(): number {
    return this.time;
  }
  get waiting(): number[] {
    return this.timers.map((t) => t.at - this.time);
  }
  /** Moves the clock by ms, firing each timer that falls due, in time order. */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.time = due.at;
      due.callback();
    }
    this.time = end;
  }
}

type Answer = number | "refused";

/** A lane whose send answers from `answers` (per event id, in order) at once, or holds when `hold` is set. */
function harness(options: { answers?: Record<string, Answer[]>; concurrency?: number; hold?: boolean; maxWaiting?: number } = {}) {
  const clock = new FakeClock();
  const sent: string[] = [];
  const held: Array<(answer: Answer) => void> = [];
  const settled: string[] = [];
  const dropped: string[] = [];
  let released = 0;
  const answerOf = (answer: Answer, id: string): SentAttempt => ({
    deliveryId: `${id}-${sent.length}`,
    startedAt: new Date(clock.now()).toISOString(),
    durationMs: 1,
    ...(answer === "refused" ? { error: "ECONNREFUSED: connect refused" } : { status: answer }),
  });
  const lane = new DeliveryLane({
    send: (job) => {
      sent.push(job.entry.eventId);
      if (options.hold) return new Promise((resolve) => held.push((answer) => resolve(answerOf(answer, job.entry.eventId))));
      const answer = options.answers?.[job.entry.eventId]?.shift() ?? 200;
      return Promise.resolve(answerOf(answer, job.entry.eventId));
    },
    scheduler: clock,
    retryDelaysMs: SCHEDULE_MS,
    concurrency: options.concurrency ?? 10,
    maxWaiting: options.maxWaiting ?? 1000,
    onDropped: (job) => dropped.push(job.entry.eventId),
    onAttempt: () => {},
    onSettled: (job) => settled.push(job.entry.eventId),
    onReleased: () => released++,
  });
  const jobs = new Map<string, LaneJob>();
  let seq = 0;
  const push = (...ids: string[]) => {
    for (const id of ids) {
      const job: LaneJob = { entry: entryFor(id), body: Buffer.from("{}"), seq: seq++ };
      jobs.set(id, job);
      lane.push(job);
    }
  };
  const state = (id: string): DeliveryState => jobs.get(id)!.entry.state;
  return { clock, lane, sent, held, settled, dropped, push, state, entry: (id: string) => jobs.get(id)!.entry, released: () => released };
}

function entryFor(eventId: string): DeliveryLogEntry {
  return {
    id: `entry-${eventId}`,
    eventId,
    type: "payroll.paid",
    organizationId: "org",
    endpointId: "endpoint",
    url: "https://hooks.example.com/x",
    duplicate: false,
    resendOf: null,
    state: "queued",
    queuedAt: new Date(START).toISOString(),
    nextAttemptAt: null,
    attempts: [],
  };
}

/** Lets the lane's awaited sends settle (they resolve in microtasks). */
const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("the retry schedule, on an injected clock", () => {
  // [name, { given: answers of one event, want: outcomes, delays asked between attempts, final state }]
  const cases: Array<[string, { given: Answer[]; want: { outcomes: string[]; delays: number[]; state: DeliveryState } }]> = [
    ["a 2xx at once: one attempt, no timer", { given: [204], want: { outcomes: ["succeeded"], delays: [], state: "succeeded" } }],
    ["500, 500, 200: two retries on the schedule", { given: [500, 500, 200], want: { outcomes: ["failed", "failed", "succeeded"], delays: [5_000, 300_000], state: "succeeded" } }],
    ["a 3xx is a failure and a refused connection too", { given: [302, "refused", 200], want: { outcomes: ["failed", "failed", "succeeded"], delays: [5_000, 300_000], state: "succeeded" } }],
    ["every attempt of the schedule fails: given up", { given: [500, 500, 500, 500], want: { outcomes: ["failed", "failed", "failed", "failed"], delays: [5_000, 300_000, 1_800_000], state: "failed" } }],
  ];
  test.each(cases)("%s", async (_name, { given, want }) => {
    const h = harness({ answers: { e1: [...given] } });
    h.push("e1");
    const delays: number[] = [];
    for (let i = 0; i < given.length; i++) {
      await flush();
      if (h.clock.waiting.length === 0) break;
      delays.push(...h.clock.waiting);
      expect(h.entry("e1").nextAttemptAt, "nextAttemptAt is the clock's now plus the delay").toBe(new Date(h.clock.now() + h.clock.waiting[0]).toISOString());
      h.clock.advance(h.clock.waiting[0]);
    }
    await flush();
    expect(h.entry("e1").attempts.map((a) => a.outcome)).toEqual(want.outcomes);
    expect(delays, "the delays the lane asked the clock for").toEqual(want.delays);
    expect(h.state("e1")).toBe(want.state);
    expect(h.entry("e1").attempts.at(-1)?.nextRetryAt, "no next retry after the last attempt").toBeNull();
    expect(h.settled, "settled once").toEqual(["e1"]);
  });

  test("a 302 is logged as a redirect not followed", async () => {
    const h = harness({ answers: { e1: [302] } });
    h.push("e1");
    await flush();
    expect(h.entry("e1").attempts[0]).toMatchObject({ status: 302, error: "redirect not followed", outcome: "failed" });
  });
});

describe("the queue", () => {
  // [name, { given: concurrency and events pushed, want: the order sends start in while all are held }]
  const cases: Array<[string, { given: { concurrency: number; events: string[] }; want: { first: string[]; all: string[] } }]> = [
    ["one at a time: first in, first out", { given: { concurrency: 1, events: ["a", "b", "c"] }, want: { first: ["a"], all: ["a", "b", "c"] } }],
    ["two at a time: the third waits for a free slot", { given: { concurrency: 2, events: ["a", "b", "c"] }, want: { first: ["a", "b"], all: ["a", "b", "c"] } }],
  ];
  test.each(cases)("%s", async (_name, { given, want }) => {
    const h = harness({ concurrency: given.concurrency, hold: true });
    h.push(...given.events);
    expect(h.sent, "started at once").toEqual(want.first);
    expect(h.lane.inFlight).toBe(want.first.length);
    while (h.held.length > 0) {
      h.held.shift()!(200);
      await flush();
    }
    expect(h.sent, "in the order they were pushed").toEqual(want.all);
    expect(given.events.map(h.state)).toEqual(given.events.map(() => "succeeded"));
  });
});

describe("the bound on waiting deliveries", () => {
  // [name, { given: lane set-up and what happens, want: dropped ids and the states left }]
  const cases: Array<[string, { given: { maxWaiting: number; events: string[]; failFirst?: boolean }; want: { dropped: string[]; states: Record<string, DeliveryState> } }]> = [
    [
      "queued behind a held attempt: the oldest queued one goes",
      { given: { maxWaiting: 2, events: ["a", "b", "c", "d"] }, want: { dropped: ["b"], states: { a: "sending", b: "dropped", c: "queued", d: "queued" } } },
    ],
    [
      "under the bound nothing goes",
      { given: { maxWaiting: 3, events: ["a", "b", "c", "d"] }, want: { dropped: [], states: { a: "sending", b: "queued", c: "queued", d: "queued" } } },
    ],
  ];
  test.each(cases)("%s", (_name, { given, want }) => {
    const h = harness({ concurrency: 1, hold: true, maxWaiting: given.maxWaiting });
    h.push(...given.events);
    expect(h.dropped).toEqual(want.dropped);
    expect(Object.fromEntries(given.events.map((id) => [id, h.state(id)]))).toEqual(want.states);
    expect(h.lane.waiting, "waiting never above the bound").toBeLessThanOrEqual(given.maxWaiting);
  });

  test("a delivery waiting for its retry is dropped before newer queued ones, its timer cleared, and settled once", async () => {
    const h = harness({ hold: true, maxWaiting: 1, concurrency: 1 });
    h.push("old");
    h.held.shift()!(500);
    await flush();
    expect(h.state("old")).toBe("retry-scheduled");
    h.push("busy", "new"); // busy is sent (in flight, not waiting); new queues behind it
    expect(h.dropped).toEqual(["old"]);
    expect([h.state("old"), h.clock.waiting], "dropped, its retry timer cleared").toEqual(["dropped", []]);
    expect([h.state("busy"), h.state("new")]).toEqual(["sending", "queued"]);
    expect(h.settled.filter((id) => id === "old"), "settled once").toEqual(["old"]);
  });
});

describe("removal releases the lane", () => {
  test("waiting deliveries are cancelled at once; the one in flight ends, is cancelled on failure, and then the lane is released", async () => {
    const h = harness({ concurrency: 1, hold: true });
    h.push("a", "b");
    h.lane.remove();
    expect(h.state("b"), "queued: cancelled at once").toBe("cancelled");
    expect(h.released(), "not released while an attempt is in flight").toBe(0);
    h.held.shift()!(500);
    await flush();
    expect(h.state("a"), "a failure after removal is not retried").toBe("cancelled");
    expect(h.clock.waiting, "no retry timer").toEqual([]);
    expect(h.released(), "released once quiet").toBe(1);
    expect(h.sent, "b was never sent").toEqual(["a"]);
  });

  test("a delivery waiting for its retry is cancelled, its timer cleared, and an idle lane is released at once", async () => {
    const h = harness({ answers: { a: [500] } });
    h.push("a");
    await flush();
    expect(h.state("a")).toBe("retry-scheduled");
    h.lane.remove();
    expect([h.state("a"), h.entry("a").nextAttemptAt]).toEqual(["cancelled", null]);
    expect(h.clock.waiting, "the retry timer is cleared").toEqual([]);
    expect(h.released()).toBe(1);
    expect(() => h.push("late"), "a removed lane takes nothing new").toThrow(/removed or stopped/);
  });
});

describe("shutdown lists what will not be sent", () => {
  test("queued and retry-waiting deliveries stop; the attempt in flight finishes; a failure in flight stops instead of retrying", async () => {
    const h = harness({ concurrency: 2, hold: true });
    h.push("retrying", "in-flight-ok", "queued");
    h.held.shift()!(500); // "retrying" fails: a retry is scheduled and "queued" starts
    await flush();
    expect(h.state("retrying")).toBe("retry-scheduled");
    const due = h.entry("retrying").nextAttemptAt;
    h.lane.stop();
    expect(h.state("retrying")).toBe("stopped");
    expect(h.entry("retrying").nextAttemptAt, "keeps when its next attempt was due").toBe(due);
    const drained = h.lane.drained();
    h.held.shift()!(200); // in-flight-ok
    h.held.shift()!(503); // queued (started when "retrying" failed) fails during shutdown
    await drained;
    expect(h.state("in-flight-ok")).toBe("succeeded");
    expect(h.state("queued"), "no retry after shutdown").toBe("stopped");
    expect(h.lane.unsent.map((j) => j.entry.eventId).sort(), "what will not be sent").toEqual(["queued", "retrying"]);
    expect(h.clock.waiting, "no timer left").toEqual([]);
  });

  test("deliveries that were only queued are listed in the order they were pushed; the one in flight still succeeds", async () => {
    const g = harness({ concurrency: 1, hold: true });
    g.push("x", "y", "z");
    g.lane.stop();
    expect(g.lane.unsent.map((j) => j.entry.eventId), "the queued ones, in order").toEqual(["y", "z"]);
    g.held.shift()!(200);
    await g.lane.drained();
    expect(g.state("x")).toBe("succeeded");
  });
});
