// How `hr-mock serve` stops on a signal. SIGTERM (docker stop, Kubernetes, a rolling restart) drains:
// GET /_mock/ready answers 503 at once, the mock keeps serving for --drain seconds while balancers
// notice, then stops accepting connections, finishes what is in flight and closes (app/drain.ts),
// and the command ends with status 0. SIGINT (Ctrl-C) stops the same way without the drain period:
// a developer's terminal has no balancer to wait for. A second SIGTERM or SIGINT stops at once.
// Each step is one line (draining, closing, stopped). The signals, the clock and the exit are
// injected so that tests run it in process.
import type { DrainOptions, DrainStep } from "../app/drain.js";

export type StopSignal = "SIGTERM" | "SIGINT";

/** The lifecycle events of a stop, as the operator log names them. */
export type StopEvent = "draining" | "closing" | "stopped" | "stopping-at-once";

/** Where signals come from (process for the bin; a test passes an EventEmitter). */
export type SignalSource = Pick<NodeJS.EventEmitter, "on" | "off">;

export interface StopOptions {
  /** The drain period after SIGTERM, in milliseconds. */
  drainMs: number;
  /** Where the lifecycle lines go, with the event each tells (serve's operator log). */
  write: (line: string, event: StopEvent) => void;
  signals?: SignalSource;
  /** Ends the process at once, with a status (a second signal). */
  exit?: (status: number) => void;
  /** The drain's clock (DrainOptions.sleep). */
  sleep?: DrainOptions["sleep"];
}

/** The exit status of a process that a signal stopped at once (128 + the signal's number). */
const AT_ONCE: Record<StopSignal, number> = { SIGINT: 130, SIGTERM: 143 };

/** Waits for the first signal, drains (SIGTERM) or stops (SIGINT), and answers the exit status, 0. */
export function stopOnSignals(mock: { drain(options: DrainOptions): Promise<void> }, options: StopOptions): Promise<number> {
  const { signals = process, exit = (status: number) => process.exit(status), write } = options;
  return new Promise((resolve, reject) => {
    let first: StopSignal | undefined;
    const onSignal = (signal: StopSignal) => {
      if (first) {
        write(`hr-mock: ${signal} again: stopping at once, without finishing what is in flight`, "stopping-at-once");
        exit(AT_ONCE[signal]);
        return;
      }
      first = signal;
      const periodMs = signal === "SIGTERM" ? options.drainMs : 0;
      const onStep = (step: DrainStep) => {
        const line = lifecycleLine(signal, step);
        if (line !== undefined) write(line, step.step);
      };
      mock.drain({ periodMs, sleep: options.sleep, onStep }).then(() => {
        signals.off("SIGINT", onSignal);
        signals.off("SIGTERM", onSignal);
        resolve(0);
      }, reject);
    };
    signals.on("SIGINT", onSignal);
    signals.on("SIGTERM", onSignal);
  });
}

/** A step of the drain as one line (none for "closing" without a drain period: Ctrl-C says less). */
export function lifecycleLine(signal: StopSignal, step: DrainStep): string | undefined {
  switch (step.step) {
    case "draining":
      return step.periodMs > 0
        ? `hr-mock: ${signal}: draining for ${step.periodMs / 1000} s: GET /_mock/ready answers 503, requests are still served (a second signal stops at once)`
        : `hr-mock: ${signal}, stopping…`;
    case "closing":
      if (signal !== "SIGTERM") return undefined;
      return `hr-mock: no more connections taken; finishing ${step.inFlight} ${step.inFlight === 1 ? "request" : "requests"} in flight`;
    case "stopped":
      return "hr-mock: stopped.";
  }
}
