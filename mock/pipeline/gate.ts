// The key behind Authorization, identified once per request by the dispatcher, and admission's
// refusals (401, 429, 403). Order is deliberate: 401 before anything that depends on the key; 429
// before 403, because every request of a known key counts.
import { rateLimit } from "../../generated/facts.js";
import { authenticate } from "../worlds/authenticate.js";
import type { ApiKey, KeyRegistry } from "../worlds/world.js";
import type { RateDecision } from "../worlds/rate-limit.js";
import { failure, refusal, type Reply } from "../kernel/envelope.js";
import { violation } from "../kernel/violations.js";
import type { AuthThrottle } from "../worlds/auth-throttle.js";

const { retryAfter, rateLimitLimit: limitHeader, rateLimitRemaining: remainingHeader } = rateLimit.headers;

export type Identified = { ok: true; apiKey: ApiKey } | { ok: false; reply: Reply };

export type Gate = ReturnType<typeof createGate>;

export function createGate(keys: KeyRegistry, throttle?: AuthThrottle) {
  /** The key of an Authorization header (one value, or several when the header was repeated). */
  function identify(header: string | string[] | undefined): Identified {
    if (Array.isArray(header) && header.length > 1) {
      // Which one would a service use? Answering either would hide a client's bug (a proxy adding its own).
      return { ok: false, reply: unauthorized(`Unauthorized: the request has ${header.length} Authorization headers; send exactly one, Authorization: Bearer <API_KEY>.`) };
    }
    const auth = authenticate(Array.isArray(header) ? header[0] : header, keys);
    if (!auth.ok) return { ok: false, reply: unauthorized(auth.message) };
    return auth;
  }
  return {
    identify,
    /** A failed identification's 401, held back when `client` keeps failing (admission's: a request that meets it). */
    hold(identified: Identified, client: string | undefined): Identified {
      if (identified.ok) return identified;
      const holdMs = throttle?.failed(client) ?? 0;
      return holdMs > 0 ? { ok: false, reply: { ...identified.reply, holdMs } } : identified;
    },
  };
}

/** The rate-limit headers of an answer to a counted request. */
export function rateHeadersOf(rate: RateDecision | undefined): Record<string, number> | undefined {
  return rate && { [limitHeader]: rate.limit, [remainingHeader]: rate.remaining };
}

/** The 429 of a key past the rate limit. */
export function rateLimited(rate: RateDecision, windowMs: number): Reply {
  const retry = rate.retryAfterSeconds ?? 1;
  const message = `Too many requests: ${rate.limit} requests in ${windowMs / 1000} seconds allowed for this key; retry after ${retry} seconds.`;
  return failure(rateLimit.status, message, { [retryAfter]: retry, [limitHeader]: rate.limit, [remainingHeader]: 0 });
}

/** The 403 of a key without the operation's permission. */
export function forbidden(permission: string, rate: RateDecision | undefined): Reply {
  return refusal(403, [violation("permission", `Forbidden: this API key lacks the permission ${permission}.`, permission)], rateHeadersOf(rate));
}

/** A 401: the Authorization header is what the request got wrong. */
export function unauthorized(message: string): Reply {
  return refusal(401, [violation("header", message, "Authorization")], { "WWW-Authenticate": "Bearer" });
}
