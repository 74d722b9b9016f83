// Work a page's handlers put off until the page has no use for the time: once no request has been
// answered for a while, and then in an idle period (requestIdleCallback). Building organisation 2
// at once, or in the first idle period, held the page's next requests (their round trips through
// MSW's worker leave the page idle between them); after a quiet spell it delays nobody.

export interface QuietOptions {
  /** How long without a request counts as quiet, in milliseconds. */
  quietMs: number;
  /** The work, run once. */
  work: () => void;
  /** Runs a callback after `ms` (setTimeout); answers how to cancel it. */
  after: (callback: () => void, ms: number) => () => void;
  /** Runs a callback in the page's next idle period (requestIdleCallback). */
  whenIdle: (callback: () => void) => void;
}

/** What the edge tells of its requests: each one's start and end. */
export interface QuietWatch {
  started(): void;
  ended(): void;
}

export function whenQuiet(options: QuietOptions): QuietWatch {
  let inFlight = 0;
  let cancel: (() => void) | undefined;
  let done = false;
  const wait = () => {
    cancel?.();
    cancel = undefined;
    if (done || inFlight > 0) return;
    cancel = options.after(() => {
      cancel = undefined;
      options.whenIdle(() => {
        // A request that came meanwhile starts the wait again.
        if (done || inFlight > 0 || cancel !== undefined) return;
        done = true;
        options.work();
      });
    }, options.quietMs);
  };
  return {
    started() {
      inFlight++;
      wait(); // cancels the wait: a request is in flight
    },
    ended() {
      inFlight = Math.max(0, inFlight - 1);
      wait();
    },
  };
}
