// One endpoint's own delivery lane: its queue, its keep-alive agent and its count of attempts in
// flight. Lanes share nothing, so a slow or dead receiver holds up only its own lane.
import type { Endpoint } from "./endpoints.js";
import type { EndpointAgent } from "./send.js";

/** A FIFO queue with O(1) take (Array#shift is O(n), and a lane may hold thousands). */
export class Fifo<T> {
  private items: T[] = [];
  private head = 0;

  push(item: T): void {
    this.items.push(item);
  }

  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head];
    this.items[this.head++] = undefined as T;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  /** Empties the queue and returns what it held, in order. */
  drain(): T[] {
    const rest = this.items.slice(this.head);
    this.items = [];
    this.head = 0;
    return rest;
  }

  get length(): number {
    return this.items.length - this.head;
  }
}

export class EndpointLane<Job> {
  readonly queue = new Fifo<Job>();
  /** Jobs held back by the shuffle option until the hold timer fires. */
  held: Job[] = [];
  holdTimer: unknown;
  inFlight = 0;
  /** Set when the endpoint is removed: nothing new starts, the agent goes when the last attempt ends. */
  removed = false;

  constructor(
    readonly endpoint: Endpoint,
    readonly agent: EndpointAgent,
  ) {}
}
