// A clock and timers a test moves by hand, so a retry two days away is due when the test says.
import { join } from "node:path";
import type { Scheduler } from "../../mock/webhooks/settings.js";
import { tempDir } from "../support/temp-dirs.js";

export class ManualScheduler implements Scheduler {
  private timers: Array<{ at: number; callback: () => void; handle: number }> = [];
  private next = 1;
  constructor(public time: number) {}

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, ms: number): unknown {
    const handle = this.next++;
    this.timers.push({ at: this.time + ms, callback, handle });
    return handle;
  }

  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((t) => t.handle !== handle);
  }

  /** Delays of the timers waiting, from now, soonest first. */
  get waiting(): number[] {
    return this.timers.map((t) => t.at - this.time).sort((a, b) => a - b);
  }

  /** Moves the clock on and runs the timers that fall due. */
  advance(ms: number): void {
    this.time += ms;
    const due = this.timers.filter((t) => t.at <= this.time);
    this.timers = this.timers.filter((t) => t.at > this.time);
    for (const t of due) t.callback();
  }
}

export function newStateDir(): string {
  return join(tempDir("hr-mock-state-"), "state");
}
