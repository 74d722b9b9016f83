// Admission: what every request of an operation meets before its answer, on both paths (answer.ts
// after Prism's routing, and the response cache): an injected failure (--fail-rate), the key (gate.ts),
// then one question to the key's world's store: rate limit, permission, scripted faults. Only the read
// API's operations are failed, counted and faulted. A store elsewhere (Redis) answers a promise.
import { failure, type Reply } from "../kernel/envelope.js";
import { andThen, type Awaitable } from "../kernel/awaitable.js";
import type { SpecOperation } from "../kernel/spec.js";
import { UNKNOWN_KEY } from "../worlds/authenticate.js";
import { faultReply } from "../worlds/faults.js";
import type { JournalEntry } from "../worlds/journal/entry.js";
import type { ApiKey } from "../worlds/world.js";
import { forbidden, rateHeadersOf, rateLimited, unauthorized, type Gate, type Identified } from "./gate.js";
import { storeUnavailable } from "../kernel/store-unavailable.js";

export type Admission =
  | { ok: true; apiKey: ApiKey; rateHeaders?: Record<string, number>; caller: string; holdMs?: number; recorded: boolean }
  | { ok: false; reply: Reply & { caller?: string } };

export interface AdmissionOptions {
  gate: Gate;
  /** Probability 0..1 of answering a read API operation with an injected 503. */
  failRate: number;
  random: () => number;
  /** The pipeline's clock, milliseconds since the epoch (the rate limit's window). */
  clock: () => number;
  /** The key-less caller of an open operation: no permission, the default world. */
  anonymous: () => ApiKey;
}

/** The caller of an open operation, as the journal names it. */
export const ANONYMOUS = "(no key needed)";

/**
 * `caller`: the key behind Authorization (identified once per request) and the remote address (the
 * throttle on failed authentication). `entryIfAdmitted`: a cache hit's journal entry, recorded with
 * the counting when the store can.
 */
export type Admit = (operation: SpecOperation, caller: { identified: Identified; client?: string }, entryIfAdmitted?: () => JournalEntry) => Awaitable<Admission>;

export function createAdmission({ gate, failRate, random, clock, anonymous }: AdmissionOptions): Admit {
  return (operation, { identified: who, client }, entryIfAdmitted) => {
    const read = operation.api === "read";
    if (read && failRate > 0 && random() < failRate) return { ok: false, reply: failure(503, "Service unavailable: injected failure (--fail-rate); retry with backoff.") };
    // An operation that takes no key (Pact's state change endpoint) acts for nobody in the default world.
    if (operation.keyless) return { ok: true, apiKey: anonymous(), caller: ANONYMOUS, recorded: false };
    const identified = gate.hold(who, client);
    if (!identified.ok) return { ok: false, reply: identified.reply };
    const { apiKey } = identified;
    const caller = apiKey.label;
    const { store } = apiKey.world;
    const admission = store.admit({ key: apiKey.key, operationId: operation.operationId, read, permitted: apiKey.permissions.has(operation.permission), nowMs: clock(), entryIfAdmitted });
    const answered = andThen(admission, (outcome): Admission => {
      switch (outcome.kind) {
        case "admitted":
          return { ok: true, apiKey, rateHeaders: rateHeadersOf(outcome.rate), caller, holdMs: outcome.delayMs, recorded: outcome.recorded };
        case "rate-limited":
          return { ok: false, reply: { ...rateLimited(outcome.rate, store.rateLimit?.windowMs ?? 0), caller } };
        case "forbidden":
          return { ok: false, reply: { ...forbidden(operation.permission, outcome.rate), caller } };
        case "fault":
          return { ok: false, reply: { ...faultReply(operation, outcome.answer, rateHeadersOf(outcome.rate)), caller } };
        case "gone":
          return { ok: false, reply: unauthorized(UNKNOWN_KEY) };
      }
    });
    if (!(answered instanceof Promise)) return answered;
    return answered.catch((error: unknown): Admission => {
      const reply = storeUnavailable(error);
      if (!reply) throw error;
      // Reads go on from what this replica holds (uncounted); a change cannot be kept, so it waits.
      return read ? { ok: true, apiKey, caller, recorded: false } : { ok: false, reply: { ...reply, caller } };
    });
  };
}
