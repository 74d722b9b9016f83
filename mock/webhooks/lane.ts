// One endpoint's delivery lane: its queue, its attempts in flight, its retry timers and the shuffle
// hold. Lanes share nothing, so a slow or dead receiver holds up only its own. The wire and the clock
// are injected: the lane keeps each delivery's log entry up to date and never touches the network.
import type { AttemptRecord, DeliveryLogEntry } from "./delivery-log.js";
import { attemptOutcome, type SentAttempt } from "./attempt.js";
import type { EngineSettings, Scheduler } from "./settings.js";
import { Fifo } from "../kernel/fifo.js";

export interface LaneJob {
  entry: DeliveryLogEntry;
  body: Buffer;
  /** Order of creation across lanes, for reports. */
  seq: number;
  timer?: unknown;
}

export type { SentAttempt } from "./attempt.js";

export interface LaneOptions extends Pick<EngineSettings, "retryDelaysMs" | "concurrency"> {
  send(job: LaneJob): Promise<SentAttempt>;
  scheduler: Scheduler;
  /** Jobs waiting (held, queued or for a retry) at most; past it the oldest is dropped. */
  maxWaiting: number;
  /** A job was dropped at a bound on waiting jobs (after its entry shows it). */
  onDropped(job: LaneJob): void;
  /** A job started waiting (queued, held or for a retry): the bound in all may be checked. */
  onWaiting?(): void;
  /** Hold new jobs this long and start them in an order drawn from `random`. */
  shuffle?: { windowMs: number; random: () => number };
  /** After every attempt, once the entry shows its outcome. */
  onAttempt(entry: DeliveryLogEntry, record: AttemptRecord): void;
  /** A job left the lane: finished, cancelled or stopped. */
  onSettled(job: LaneJob): void;
  /** The lane was removed and has nothing in flight any more: what it holds (a connection pool) may go. */
  onReleased(): void;
}

export class DeliveryLane {
  private readonly queue = new Fifo<LaneJob>();
  private held: LaneJob[] = [];
  private holdTimer: unknown;
  private readonly retrying = new Set<LaneJob>();
  private inFlightCount = 0;
  private removed = false;
  private stopped = false;
  private drainWaiters: Array<() => void> = [];
  /** Jobs the lane gave up on because it was stopped (the engine closed): never to be sent. */
  readonly unsent: LaneJob[] = [];

  constructor(private readonly options: LaneOptions) {}

  get inFlight(): number {
    return this.inFlightCount;
  }

  /** Jobs waiting: held for the shuffle, queued, or waiting for a retry (not those in flight). */
  get waiting(): number {
    return this.held.length + this.queue.length + this.retrying.size;
  }

  /** Drops the oldest waiting job (state "dropped"); false when none waits. */
  dropOldest(): boolean {
    const candidates = [this.held[0], this.queue.peek(), this.retrying.values().next().value].filter((j): j is LaneJob => j !== undefined);
    if (candidates.length === 0) return false;
    const oldest = candidates.reduce((a, b) => (b.seq < a.seq ? b : a));
    if (oldest === this.held[0]) this.held.shift();
    else if (oldest === this.queue.peek()) this.queue.shift();
    else {
      this.retrying.delete(oldest);
      this.options.scheduler.clearTimeout(oldest.timer);
      oldest.timer = undefined;
    }
    this.settle(oldest, "dropped");
    this.options.onDropped(oldest);
    return true;
  }

  /** Takes a new job: held for the shuffle, or queued; past the bound, the oldest waiting job goes. */
  push(job: LaneJob): void {
    if (this.removed || this.stopped) throw new Error("a delivery lane took a job after it was removed or stopped");
    const shuffle = this.options.shuffle;
    if (!shuffle) {
      this.enqueue(job);
      return this.admitWaiting();
    }
    job.entry.state = "held";
    this.held.push(job);
    this.holdTimer ??= this.options.scheduler.setTimeout(() => {
      this.holdTimer = undefined;
      const held = this.held.splice(0);
      // Fisher-Yates with the seeded generator: a run can be reproduced with the same seed.
      for (let i = held.length - 1; i > 0; i--) {
        const j = Math.floor(shuffle.random() * (i + 1));
        [held[i], held[j]] = [held[j], held[i]];
      }
      for (const h of held) this.enqueue(h);
    }, shuffle.windowMs);
    this.admitWaiting();
  }

  /** Takes back a job restored from a state directory: attempted after `delayMs`, or queued at once. */
  resume(job: LaneJob, delayMs: number): void {
    if (delayMs <= 0) {
      this.enqueue(job);
      return this.admitWaiting();
    }
    this.retryIn(job, delayMs, new Date((this.options.scheduler.now ? this.options.scheduler.now() : Date.now()) + delayMs).toISOString());
  }

  /** The job waits `delayMs` for its next attempt, then is queued (unless dropped or stopped meanwhile). */
  private retryIn(job: LaneJob, delayMs: number, nextAttemptAt: string | null): void {
    job.entry.state = "retry-scheduled";
    job.entry.nextAttemptAt = nextAttemptAt;
    this.retrying.add(job);
    job.timer = this.options.scheduler.setTimeout(() => {
      job.timer = undefined;
      if (this.retrying.delete(job)) this.enqueue(job);
    }, delayMs);
    this.admitWaiting();
  }

  /** Keeps the waiting jobs within the bound, oldest dropped first. */
  private admitWaiting(): void {
    while (this.waiting > this.options.maxWaiting && this.dropOldest());
    this.options.onWaiting?.();
  }

  /** The endpoint was removed: waiting jobs are cancelled, attempts in flight end normally. */
  remove(): void {
    if (this.removed) return;
    this.removed = true;
    for (const job of this.takeWaiting()) this.settle(job, "cancelled");
    if (this.inFlightCount === 0) this.options.onReleased();
  }

  /** The engine closes: waiting jobs stop, attempts in flight end normally and start no retry. */
  stop(): void {
    this.stopped = true;
    for (const job of this.takeWaiting()) this.settle(job, "stopped");
  }

  /** Resolves when no attempt is in flight. */
  drained(): Promise<void> {
    if (this.inFlightCount === 0) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  private takeWaiting(): LaneJob[] {
    const { scheduler } = this.options;
    if (this.holdTimer !== undefined) scheduler.clearTimeout(this.holdTimer);
    this.holdTimer = undefined;
    const waiting = [...this.held.splice(0), ...this.queue.drain()];
    for (const job of this.retrying) {
      scheduler.clearTimeout(job.timer);
      job.timer = undefined;
      waiting.push(job);
    }
    this.retrying.clear();
    return waiting.sort((a, b) => a.seq - b.seq);
  }

  private enqueue(job: LaneJob): void {
    job.entry.state = "queued";
    this.queue.push(job);
    this.pump();
  }

  private pump(): void {
    while (!this.removed && !this.stopped && this.inFlightCount < this.options.concurrency && this.queue.length > 0) {
      const job = this.queue.shift();
      if (job) void this.attempt(job);
    }
  }

  private async attempt(job: LaneJob): Promise<void> {
    const { entry } = job;
    const { scheduler, retryDelaysMs } = this.options;
    entry.state = "sending";
    entry.nextAttemptAt = null;
    this.inFlightCount++;
    const sent = await this.options.send(job);
    this.inFlightCount--;

    const { record, state, delayMs: delay } = attemptOutcome(entry, sent, retryDelaysMs, this.removed, scheduler.now ? scheduler.now() : Date.now());
    entry.attempts.push(record);

    if (state !== "retry-scheduled") this.settle(job, state);
    else if (this.stopped) this.settle(job, "stopped");
    else this.retryIn(job, delay ?? 0, record.nextRetryAt);
    this.options.onAttempt(entry, record);
    if (this.inFlightCount === 0) {
      for (const resolve of this.drainWaiters.splice(0)) resolve();
      if (this.removed) this.options.onReleased();
    }
    this.pump();
  }

  private settle(job: LaneJob, state: "succeeded" | "failed" | "cancelled" | "stopped" | "dropped"): void {
    job.entry.state = state;
    // A stopped job keeps the time its next attempt was due: the close report shows it.
    if (state !== "stopped") job.entry.nextAttemptAt = null;
    if (state === "stopped") this.unsent.push(job);
    this.options.onSettled(job);
  }
}
