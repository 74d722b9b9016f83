// The names of the mock's keys in Redis. Each world's keys share one hash tag, `{w:<world>}`, so a
// world's updates run as one script in one slot of a Redis Cluster; what belongs to the whole mock
// (its fingerprint, the sandboxes and their keys) shares the tag `{hr-mock}`. A rate-limit key
// carries the world's generation (a reset starts new counts; the old keys expire by themselves) and
// a digest of the API key, never the key.
import { createHash } from "node:crypto";

const PREFIX = "hrm";
const MOCK = `${PREFIX}:{hr-mock}`;

/** Keys of the whole mock. */
export const mockKeys = {
  /** The state's format and fingerprint (seed, scale, today, data file): what every replica must match. */
  state: `${MOCK}:state`,
  /** Sandbox id -> its definition (JSON): label, createdAt, keys, data file. */
  sandboxes: `${MOCK}:sandboxes`,
  /** A sandbox's API key -> the sandbox's id. */
  sandboxKeys: `${MOCK}:keys`,
  /** Where replicas tell each other that deliveries of a world are due ("<world> <ms>"). */
  dueChannel: `${MOCK}:due`,
} as const;

/** Every key of a world but its rate-limit logs (which expire by themselves): what a reset or delete removes. */
export function allWorldKeys(keys: WorldKeys): string[] {
  return Object.values(keys).filter((value): value is string => typeof value === "string");
}

export type WorldKeys = ReturnType<typeof worldKeys>;

export function worldKeys(world: string) {
  const base = `${PREFIX}:{w:${world}}`;
  return {
    /** gen (resets so far), n (data changes), deleted, seq (deliveries so far), ep:<organisation> (its endpoints) */
    meta: `${base}:meta`,
    /** The data changes, oldest first (JSON each), replayed by every replica onto the seeded start. */
    changes: `${base}:changes`,
    /** The scripted faults, in the order they were added (JSON each). */
    faults: `${base}:faults`,
    /** The request journal, newest first (JSON each), at most the journal's capacity. */
    journal: `${base}:journal`,
    /** Counts coverage reads: per operation, per status, per parameter name; unmatched; dropped. */
    tally: `${base}:tally`,
    /** Endpoint id -> the endpoint (JSON, its secret included). */
    endpoints: `${base}:endpoints`,
    /** Delivery id -> its log entry (JSON) as last written by a replica; its state is in `states`. */
    deliveries: `${base}:deliveries`,
    /** Delivery id -> "<state>|<nextAttemptAt>": what scripts change without decoding the entry. */
    states: `${base}:states`,
    /** Delivery id -> "<endpoint>|<seq>|<organisation>|<event>": where it sits in `order` and `waiting`. */
    index: `${base}:index`,
    /** The log, by organisation then sequence: members "<organisation>|<seq>|<delivery>". */
    order: `${base}:order`,
    /** Event id -> the event's body exactly as sent (what a resend sends again). */
    bodies: `${base}:bodies`,
    /** Event id -> the log entries that keep its body. */
    bodyRefs: `${base}:body-refs`,
    /** Delivery ids waiting for an attempt, by the time it is due (ms). */
    due: `${base}:due`,
    /** Delivery ids being attempted, by the time the attempt's lease runs out (ms). */
    leases: `${base}:leases`,
    /** Delivery id -> the replica holding its lease. */
    leaseOwners: `${base}:lease-owners`,
    /** Deliveries waiting, by endpoint then sequence: members "<endpoint>|<seq>|<delivery>". */
    waiting: `${base}:waiting`,
    /** Endpoint id -> deliveries waiting for it. */
    waitCounts: `${base}:wait-counts`,
    /** Endpoint id -> attempts in flight. */
    inFlight: `${base}:in-flight`,
    /** Endpoint id -> deliveries dropped at a bound so far. */
    drops: `${base}:drops`,
    /** The rate-limit log of one API key in the world's current generation. */
    rate: (generation: number, apiKey: string) => `${base}:rate:${generation}:${digest(apiKey)}`,
  };
}

const digests = new Map<string, string>();

/** A short digest of an API key (cached: a key is digested once, not per request). */
function digest(apiKey: string): string {
  let found = digests.get(apiKey);
  if (found === undefined) {
    found = createHash("sha256").update(apiKey).digest("base64url").slice(0, 16);
    if (digests.size > 10_000) digests.clear();
    digests.set(apiKey, found);
  }
  return found;
}
