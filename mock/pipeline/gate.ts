// Who may call an operation, decided once per request and the same way on every path (the
// response cache's fast path and Prism's mock component): the key behind Authorization, the rate
// limit, the operation's permission. Order is deliberate: 401 before anything that depends on the
// key; 429 before 403, because every request of a known key counts. The key names its world (the
// default world or a sandbox): the world's counters count it, and the operation answers from it.
import { rateLimit } from "../../generated/facts.js";
import { authenticate, forbiddenMessage, hasPermission } from "../worlds/authenticate.js";
import type { ApiKey, KeyRegistry } from "../worlds/world.js";
import { failure, refusal, type Reply } from "../kernel/envelope.js";
import { violation } from "../kernel/violations.js";
import type { AuthThrottle } from "../worlds/auth-throttle.js";

const { retryAfter, rateLimitLimit: limitHeader, rateLimitRemaining: remainingHeader } = rateLimit.headers;

export type GateResult =
  | { ok: true; apiKey: ApiKey; rateHeaders?: Record<string, number> }
  | { ok: false; reply: Reply; caller?: string };

export interface Gate {
  /** The key of an Authorization header (one value, or several when the header was repeated). */
  identify(header: string | string[] | undefined): { ok: true; apiKey: ApiKey } | { ok: false; reply: Reply };
  /** identify, then count the request (unless `counted` is false) and check `permission`. */
  admit(header: string | string[] | undefined, permission: string, counted: boolean, client?: string): GateResult;
}

export function createGate(keys: KeyRegistry, now: () => number, throttle?: AuthThrottle): Gate {
  function identify(header: string | string[] | undefined) {
    if (Array.isArray(header) && header.length > 1) {
      // Which one would a service use? Answering either would hide a client's bug (a proxy adding its own).
      return { ok: false as const, reply: unauthorized(`Unauthorized: the request has ${header.length} Authorization headers; send exactly one, Authorization: Bearer <API_KEY>.`) };
    }
    const auth = authenticate(Array.isArray(header) ? header[0] : header, keys);
    if (!auth.ok) return { ok: false as const, reply: unauthorized(auth.message) };
    return auth;
  }
  return {
    identify,
    admit(header, permission, counted, client) {
      const identified = identify(header);
      if (!identified.ok) {
        const holdMs = throttle?.failed(client) ?? 0;
        return holdMs > 0 ? { ok: false, reply: { ...identified.reply, holdMs } } : identified;
      }
      const { apiKey } = identified;
      let rateHeaders: Record<string, number> | undefined;
      const { rateLimiter } = apiKey.world;
      if (rateLimiter && counted) {
        const decision = rateLimiter.take(apiKey.key, now());
        if (!decision.allowed) {
          const retry = decision.retryAfterSeconds ?? 1;
          const message = `Too many requests: ${decision.limit} requests in ${rateLimiter.windowMs / 1000} seconds allowed for this key; retry after ${retry} seconds.`;
          return { ok: false, caller: apiKey.label, reply: failure(rateLimit.status, message, { [retryAfter]: retry, [limitHeader]: decision.limit, [remainingHeader]: 0 }) };
        }
        rateHeaders = { [limitHeader]: decision.limit, [remainingHeader]: decision.remaining };
      }
      if (!hasPermission(apiKey, permission)) return { ok: false, caller: apiKey.label, reply: refusal(403, [violation("permission", forbiddenMessage(permission), permission)], rateHeaders) };
      return { ok: true, apiKey, rateHeaders };
    },
  };
}

/** A 401: the Authorization header is what the request got wrong. */
function unauthorized(message: string): Reply {
  return refusal(401, [violation("header", message, "Authorization")], { "WWW-Authenticate": "Bearer" });
}
