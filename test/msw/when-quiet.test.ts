// Work a page's handlers put off (building the organisations no request read yet): it runs once,
// in an idle period after the page has had no request for the quiet spell, never while a request
// is in flight or between requests that follow each other, and never twice.
import { describe, expect, it } from "vitest";
import { whenQuiet } from "../../mock/app/when-quiet.js";

/** A hand-driven clock and idle queue: `tick(ms)` moves time, `idle()` runs what waits for an idle period. */
function page() {
  let now = 0;
  const timers: Array<{ at: number; callback: () => void; cancelled: boolean }> = [];
  const idleQueue: Array<() => void> = [];
  let runs = 0;
  const watch = whenQuiet({
    quietMs: 500,
    work: () => runs++,
    after: (callback, ms) => {
      const timer = { at: now + ms, callback, cancelled: false };
      timers.push(timer);
      return () => (timer.cancelled = true);
    },
    whenIdle: (callback) => idleQueue.push(callback),
  });
  return {
    watch,
    tick(ms: number) {
      now += ms;
      for (const timer of timers.filter((t) => !t.cancelled && t.at <= now)) {
        timer.cancelled = true;
        timer.callback();
      }
    },
    idle() {
      for (const callback of idleQueue.splice(0)) callback();
    },
    get runs() {
      return runs;
    },
  };
}

type Step = ["start"] | ["end"] | ["tick", number] | ["idle"];

describe("whenQuiet", () => {
  const cases: [string, { given: Step[]; want: number }][] = [
    ["a request, then a quiet spell and an idle period: the work runs", { given: [["start"], ["end"], ["tick", 500], ["idle"]], want: 1 }],
    ["no request yet: nothing runs, however long", { given: [["tick", 10_000], ["idle"]], want: 0 }],
    ["a spell too short: nothing runs", { given: [["start"], ["end"], ["tick", 499], ["idle"]], want: 0 }],
    ["requests one after another: the spell counts from the last one", { given: [["start"], ["end"], ["tick", 400], ["start"], ["end"], ["tick", 400], ["idle"], ["tick", 100], ["idle"]], want: 1 }],
    ["a request in flight all along: nothing runs", { given: [["start"], ["tick", 10_000], ["idle"]], want: 0 }],
    ["a request that comes after the spell, before the idle period: it waits for the next spell", { given: [["start"], ["end"], ["tick", 500], ["start"], ["idle"], ["end"], ["tick", 500], ["idle"]], want: 1 }],
    ["more spells afterwards: still once", { given: [["start"], ["end"], ["tick", 500], ["idle"], ["start"], ["end"], ["tick", 500], ["idle"]], want: 1 }],
  ];
  it.each(cases)("%s", (_name, { given, want }) => {
    const p = page();
    for (const step of given) {
      if (step[0] === "start") p.watch.started();
      else if (step[0] === "end") p.watch.ended();
      else if (step[0] === "tick") p.tick(step[1]);
      else p.idle();
    }
    expect(p.runs, "times the work ran").toBe(want);
  });
});
