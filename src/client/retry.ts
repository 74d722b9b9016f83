// Retries of failed GETs: 429 honouring Retry-After, network errors and 5xx with bounded, jittered
// exponential backoff; never a 4xx other than 429, never a non-GET.
//
// Why a fetch wrapper and not an openapi-fetch middleware: openapi-fetch 0.17 middleware can
// observe and replace a response (onResponse) or a fetch error (onError), but it has no way to
// re-run the request through the chain, and its maintainers chose not to add one (openapi-ts
// issues #1122, #1558: "use a custom fetch"). A middleware could call `options.fetch` itself, but a
// network error retried in onError that ends in a 5xx would then pass through onResponse and be
// retried a second time. Wrapping the injected `fetch` puts every attempt of one call in one loop
// with one attempt count; it sees the request after the auth middleware has set its header, and
// the envelope middleware then judges only the final response. The raw client gets it too.
import { rateLimit } from "../../generated/facts.js";
import { classifyFailure } from "./errors.js";
import { parseRetryAfter } from "./retry-after.js";
import { isErrorStatus } from "./status.js";

export type FetchLike = (input: Request, init?: RequestInit) => Promise<Response>;

/** One failed attempt, as `retryOn` and `onRetry` see it. */
export interface RetryOutcome {
  /** 1 for the first attempt. */
  attempt: number;
  request: Request;
  /** The response, when there was one; `status` is then its status or, for a 200 failure envelope, 429 when it is the rate limit (rate-limited.ts) or the 5xx its `code` names. */
  response?: Response;
  status?: number;
  /** The error fetch threw (a network error), when there was no response. */
  error?: unknown;
}

export interface RetryOptions {
  /** Retries after the first attempt; default 3 (so at most 4 requests). */
  retries?: number;
  /** Backoff before the first retry; doubles each retry. Default 200 ms. */
  baseDelayMs?: number;
  /**
   * No backoff wait is longer. Default 10 000 ms. A server's Retry-After longer than this is not
   * cut short: the call gives up at once and the error carries `retryAfter`, since retrying before
   * the server's time would only be refused again.
   */
  maxDelayMs?: number;
  /** Which failures to retry; default `defaultRetryOn`. A 4xx other than 429, and a non-GET, are never retried. */
  retryOn?: (outcome: RetryOutcome) => boolean;
  /** Waits between attempts; injectable for tests. Default a timer that an abort signal cuts short. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Jitter source in [0, 1); default Math.random. */
  random?: () => number;
  /** Clock for Retry-After as an HTTP-date; default Date.now. */
  now?: () => number;
  /** Told before each wait (for logging; it receives no headers). */
  onRetry?: (info: { attempt: number; delayMs: number; status?: number; error?: unknown }) => void;
}

export const RETRY_DEFAULTS = { retries: 3, baseDelayMs: 200, maxDelayMs: 10_000 } as const;

const RETRYABLE_METHODS = new Set(["GET", "HEAD"]);

/** Network errors, 429 and 5xx. */
export function defaultRetryOn(outcome: RetryOutcome): boolean {
  if (outcome.status === undefined) return outcome.error !== undefined && !isAbort(outcome.error);
  return outcome.status === rateLimit.status || (outcome.status >= 500 && outcome.status <= 599);
}

/**
 * Equal-jitter exponential backoff: retry n (0-based) waits between half and all of
 * min(maxDelayMs, baseDelayMs * 2^n), so waits grow, stay bounded and never synchronise.
 */
export function backoffDelay(retryIndex: number, baseDelayMs: number, maxDelayMs: number, random: () => number): number {
  const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** retryIndex);
  return Math.round(ceiling / 2 + (Math.min(Math.max(random(), 0), 1) * ceiling) / 2);
}

/**
 * The wait before retry n: Retry-After when the server gave one, else backoff. Undefined when
 * Retry-After is longer than maxDelayMs: then there is no retry, as waiting less would disobey it.
 */
export function retryDelay(
  retryIndex: number,
  retryAfterSeconds: number | undefined,
  options: { baseDelayMs: number; maxDelayMs: number; random: () => number },
): number | undefined {
  if (retryAfterSeconds !== undefined) return retryAfterSeconds * 1000 <= options.maxDelayMs ? retryAfterSeconds * 1000 : undefined;
  return backoffDelay(retryIndex, options.baseDelayMs, options.maxDelayMs, options.random);
}

/** A fetch that retries as RetryOptions say; `base` defaults to the global fetch at call time. */
export function createRetryingFetch(base: FetchLike | undefined, options: RetryOptions = {}): FetchLike {
  const retries = options.retries ?? RETRY_DEFAULTS.retries;
  const baseDelayMs = options.baseDelayMs ?? RETRY_DEFAULTS.baseDelayMs;
  const maxDelayMs = options.maxDelayMs ?? RETRY_DEFAULTS.maxDelayMs;
  if (!Number.isInteger(retries) || retries < 0) throw new RangeError(`retry.retries must be a whole number of at least 0, got ${retries}`);
  if (!(Number.isFinite(baseDelayMs) && baseDelayMs >= 0)) throw new RangeError(`retry.baseDelayMs must be a number of at least 0, got ${baseDelayMs}`);
  if (!(Number.isFinite(maxDelayMs) && maxDelayMs >= baseDelayMs)) {
    throw new RangeError(`retry.maxDelayMs must be a number of at least baseDelayMs (${baseDelayMs}), got ${maxDelayMs}`);
  }
  const retryOn = options.retryOn ?? defaultRetryOn;
  const sleep = options.sleep ?? abortableSleep;
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;

  return async (request, init) => {
    const send: FetchLike = base ?? ((input, extra) => globalThis.fetch(input, extra));
    if (!RETRYABLE_METHODS.has(request.method.toUpperCase()) || retries === 0) return send(request, init);

    for (let attempt = 1; ; attempt++) {
      let outcome: RetryOutcome;
      try {
        // A GET has no body, so a clone per attempt is cheap and leaves `request` unused for the next.
        const response = await send(request.clone(), init);
        outcome = { attempt, request, response, status: await effectiveStatus(response) };
      } catch (error) {
        outcome = { attempt, request, error };
      }
      const isLast = attempt > retries || request.signal?.aborted === true;
      // Retry-After counts whenever the server sent it with a retryable failure (429, or a 503 in maintenance).
      const retryAfter = outcome.response ? parseRetryAfter(outcome.response.headers.get(rateLimit.headers.retryAfter), now()) : undefined;
      const delayMs = isLast || !shouldRetry(outcome, retryOn) ? undefined : retryDelay(attempt - 1, retryAfter, { baseDelayMs, maxDelayMs, random });
      if (delayMs === undefined) {
        if (outcome.response) return outcome.response;
        throw outcome.error;
      }
      // Release the connection of a response nobody will read.
      await outcome.response?.body?.cancel().catch(() => undefined);
      options.onRetry?.({ attempt, delayMs, status: outcome.status, error: outcome.error });
      await sleep(delayMs, request.signal ?? undefined);
      // An injected sleep may ignore the signal; a call aborted meanwhile ends here.
      request.signal?.throwIfAborted();
    }
  };
}

function shouldRetry(outcome: RetryOutcome, retryOn: (outcome: RetryOutcome) => boolean): boolean {
  if (outcome.error !== undefined && isAbort(outcome.error)) return false;
  const status = outcome.status;
  // The hard rule, whatever retryOn says: a client error other than 429 will fail the same way again.
  if (status !== undefined && status >= 400 && status <= 499 && status !== rateLimit.status) return false;
  if (status !== undefined && status < 400) return false;
  return retryOn(outcome);
}

/**
 * The status to judge a response by. A service that answers every failure with 200 names the
 * failure in its envelope `code` ("429", "503"), so a non-error response is read (a clone) and,
 * when its envelope says isSuccessful false with such a code, judged by that status; the rate
 * limit (rateLimited's rule, which also counts Retry-After on such a 200) by the rate-limit status.
 */
async function effectiveStatus(response: Response): Promise<number> {
  if (isErrorStatus(response.status) || response.body === null) return response.status;
  try {
    const text = await response.clone().text();
    // Only a failure envelope is parsed; a success body is not parsed twice (the envelope middleware parses it).
    if (!/"isSuccessful"\s*:\s*false/.test(text)) return response.status;
    const body: unknown = JSON.parse(text);
    if (typeof body === "object" && body !== null && (body as { isSuccessful?: unknown }).isSuccessful === false) {
      const code = String((body as { code?: unknown }).code ?? "").trim();
      const kind = classifyFailure(response.status, code, response.headers.get(rateLimit.headers.retryAfter));
      if (kind === "rate_limited") return rateLimit.status;
      if (kind === "server") return Number(code);
    }
  } catch {
    // Not JSON, or the body could not be read: judge it by its HTTP status.
  }
  return response.status;
}

function isAbort(error: unknown): boolean {
  return typeof error === "object" && error !== null && ((error as { name?: unknown }).name === "AbortError" || (error as { name?: unknown }).name === "TimeoutError");
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
