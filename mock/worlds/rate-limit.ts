// A sliding-window log per API key: a key may make `limit` requests in any rolling `windowMs`.
// Pure (the caller passes the clock), so tests drive time by hand.
// Counting happens after authentication: only known keys have a log, so unknown or random keys can
// neither fill memory nor spend a real key's allowance. Every request of a known key counts,
// including ones later answered 403, 400 or 404: each costs the service a request all the same.

export interface RateDecision {
  allowed: boolean;
  limit: number;
  /** Requests still allowed in the current window after this one. */
  remaining: number;
  /** Whole seconds, at least 1, until a request would be accepted; only when refused. */
  retryAfterSeconds?: number;
}

export interface RateLimiter {
  take(key: string, nowMs: number): RateDecision;
  readonly limit: number;
  readonly windowMs: number;
}

/**
 * Each key keeps the times of its accepted requests in a ring of `limit` slots, oldest first.
 * A request is accepted when fewer than `limit` accepted requests fall inside the window ending now;
 * refused requests are not logged, so a client that keeps retrying is not locked out forever.
 */
export function createRateLimiter(limit: number, windowMs: number): RateLimiter {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`rate limit must be a whole number of at least 1, got ${limit}`);
  if (!(windowMs > 0)) throw new RangeError(`rate limit window must be positive, got ${windowMs}`);
  const logs = new Map<string, KeyLog>();

  return {
    limit,
    windowMs,
    take(key, nowMs) {
      let log = logs.get(key);
      if (log === undefined) {
        log = { times: new Float64Array(limit), head: 0, count: 0 };
        logs.set(key, log);
      }
      // Forget accepted requests that have left the window.
      const windowStart = nowMs - windowMs;
      while (log.count > 0 && log.times[log.head] <= windowStart) {
        log.head = (log.head + 1) % limit;
        log.count--;
      }
      if (log.count < limit) {
        log.times[(log.head + log.count) % limit] = nowMs;
        log.count++;
        return { allowed: true, limit, remaining: limit - log.count };
      }
      // Full: the oldest accepted request leaves the window at oldest + windowMs.
      const waitMs = log.times[log.head] + windowMs - nowMs;
      return { allowed: false, limit, remaining: 0, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
    },
  };
}

interface KeyLog {
  times: Float64Array;
  head: number;
  count: number;
}
