// What both live checks share about the network (the API suite's GET client and the receiver
// check's deliveries): the clock they wait and time with, the error of a URL that never answered,
// and one line for a network failure.

export interface Clock {
  now(): number;
  /** Resolves after `ms`, or at once when `signal` aborts (a deadline that is no longer needed holds no timer). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const timer = setTimeout(resolve, ms);
      signal?.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
    }),
};

/** The URL did not answer at all. */
export class Unreachable extends Error {
  constructor(readonly baseUrl: string, readonly reason: string) {
    super(`cannot reach ${baseUrl}: ${reason}`);
  }
}

/** One line for a failed fetch: the system error's code (ECONNREFUSED, ENOTFOUND) where there is one. */
export function describeNetworkError(error: unknown): string {
  const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === "TimeoutError" || e?.name === "AbortError") return "no answer in time";
  return e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(error);
}
