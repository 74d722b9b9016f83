// The suite's only way to the network: GET requests, paced by a token bucket so the suite stays well
// under the service's rate limit (generated/facts.ts rateLimit), backing off on a rate-limit failure
// (the client's rule, src/client/rate-limited.ts) as Retry-After says, capped by a request budget.
// Every answer (rate-limit failures included) is recorded as an Exchange for the checks.
import { rateLimit } from "../../generated/facts.js";
import { parseRetryAfter } from "../client/retry-after.js";
import { headerOf, isRateLimited, type Auth, type Exchange } from "./exchange.js";
import { describeNetworkError, realClock, Unreachable, type Clock } from "./network.js";

/** The request budget (--max-requests) is used up: the remaining checks are not run. */
export class BudgetExhausted extends Error {
  constructor(readonly maxRequests: number) {
    super(`the request budget of ${maxRequests} requests is used up`);
  }
}

// ---- pacing (pure arithmetic, the client applies it with a clock) ----

export interface BucketState {
  tokens: number;
  updatedAt: number;
}

/** Tokens refill at `rate` a second up to `burst`; returns how long to wait before one can be taken. */
export function takeToken(state: BucketState, now: number, rate: number, burst: number): { state: BucketState; waitMs: number } {
  const tokens = Math.min(burst, state.tokens + ((now - state.updatedAt) / 1000) * rate);
  if (tokens >= 1) return { state: { tokens: tokens - 1, updatedAt: now }, waitMs: 0 };
  const waitMs = Math.ceil(((1 - tokens) / rate) * 1000);
  // The token being waited for is spent at once, so the state is as of the end of the wait.
  return { state: { tokens: 0, updatedAt: now + waitMs }, waitMs };
}

/** How long to wait after a 429, or undefined to give up (the wait would be longer than allowed). */
export function backoffAfter429(retryAfter: number | undefined, attempt: number, maxWaitSeconds: number): number | undefined {
  // Without a usable Retry-After, wait 2, 4, 8 ... seconds.
  const seconds = retryAfter ?? 2 ** (attempt + 1);
  return seconds > maxWaitSeconds ? undefined : seconds;
}

// ---- the client ----

export interface HttpOptions {
  baseUrl: string;
  apiKey: string;
  fetch?: typeof fetch;
  clock?: Clock;
  /** Sustained requests a second; default 4 (240 a minute, under the service's rate limit of 300 a minute). */
  requestsPerSecond?: number;
  /** Requests that may go at once after a pause; default 8. */
  burst?: number;
  /** Every request counts, retries included; default unlimited. */
  maxRequests?: number;
  /** Retries of one request after 429; default 3. */
  max429Retries?: number;
  /** Longest wait after a 429 the suite accepts; default 90 seconds. */
  maxRetryWaitSeconds?: number;
  timeoutMs?: number;
}

export interface HttpClient {
  get(path: string, query?: [string, string][], auth?: Auth): Promise<Exchange>;
  /** Every answer received, including 429s that were retried. */
  readonly exchanges: Exchange[];
  readonly requestCount: number;
}

const UNKNOWN_KEY = "contract-suite-unknown-key-4f1c9a";

function authorizationHeader(auth: Auth, apiKey: string): string | undefined {
  switch (auth) {
    case "key":
      return `Bearer ${apiKey}`;
    case "unknown-key":
      return `Bearer ${UNKNOWN_KEY}`;
    case "malformed":
      // A scheme the service does not take, and no credential.
      return "Token";
    case "none":
      return undefined;
  }
}

export function createHttpClient(options: HttpOptions): HttpClient {
  const doFetch = options.fetch ?? globalThis.fetch;
  const clock = options.clock ?? realClock;
  const rate = options.requestsPerSecond ?? 4;
  const burst = options.burst ?? 8;
  const maxRequests = options.maxRequests ?? Number.POSITIVE_INFINITY;
  const max429Retries = options.max429Retries ?? 3;
  const maxRetryWaitSeconds = options.maxRetryWaitSeconds ?? 90;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const base = options.baseUrl.replace(/\/+$/, "");
  let bucket: BucketState = { tokens: burst, updatedAt: clock.now() };
  let requestCount = 0;
  let answered = false;
  const exchanges: Exchange[] = [];

  async function once(pathname: string, query: [string, string][], auth: Auth): Promise<Exchange> {
    if (requestCount >= maxRequests) throw new BudgetExhausted(maxRequests);
    const taken = takeToken(bucket, clock.now(), rate, burst);
    bucket = taken.state;
    if (taken.waitMs > 0) await clock.sleep(taken.waitMs);
    requestCount++;
    const search = new URLSearchParams(query).toString();
    const target = search ? `${pathname}?${search}` : pathname;
    const headers: Record<string, string> = { accept: "application/json" };
    const authorization = authorizationHeader(auth, options.apiKey);
    if (authorization !== undefined) headers.authorization = authorization;
    try {
      const response = await doFetch(base + target, { method: "GET", headers, signal: AbortSignal.timeout(timeoutMs) });
      const bodyText = await response.text();
      let body: unknown;
      try {
        body = JSON.parse(bodyText);
      } catch {
        body = undefined;
      }
      answered = true;
      const exchange: Exchange = {
        target,
        path: pathname,
        query,
        auth,
        status: response.status,
        headers: Object.fromEntries([...response.headers].map(([k, v]) => [k.toLowerCase(), v])),
        body,
        bodyText,
        at: clock.now(),
      };
      exchanges.push(exchange);
      return exchange;
    } catch (error) {
      const reason = describeNetworkError(error);
      // Nothing has ever answered: the base URL is wrong or down, which is not a contract finding.
      if (!answered) throw new Unreachable(options.baseUrl, reason);
      const exchange: Exchange = { target, path: pathname, query, auth, headers: {}, bodyText: "", error: reason, at: clock.now() };
      exchanges.push(exchange);
      return exchange;
    }
  }

  return {
    exchanges,
    get requestCount() {
      return requestCount;
    },
    async get(pathname, query = [], auth = "key") {
      let networkRetries = 0;
      for (let attempt = 0; ; attempt++) {
        const exchange = await once(pathname, query, auth);
        if (exchange.error !== undefined && networkRetries < 2) {
          networkRetries++;
          await clock.sleep(1000 * networkRetries);
          continue;
        }
        if (!isRateLimited(exchange) || attempt >= max429Retries) return exchange;
        const wait = backoffAfter429(parseRetryAfter(headerOf(exchange, rateLimit.headers.retryAfter), clock.now()), attempt, maxRetryWaitSeconds);
        if (wait === undefined) return exchange;
        await clock.sleep(wait * 1000);
        // Start pacing afresh after the wait rather than spending a saved-up burst at once.
        bucket = { tokens: 0, updatedAt: clock.now() };
      }
    },
  };
}
