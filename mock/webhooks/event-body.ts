// An event body as the service sends it (service-api.md §6.1): `id`, `type`, `apiVersion`,
// `occurredAt` (UTC, exactly 7 fractional digits, `Z`), `organizationId`, `data`.
import { randomUUID } from "node:crypto";
import type { WebhookEvent, WebhookEventType } from "../../generated/events.js";
import { deliveryRules } from "../../generated/webhook-facts.js";
import { seededRandom } from "../kernel/random.js";

/** 100-nanosecond ticks per millisecond: the 7th fractional digit of a second. */
const TICKS_PER_MS = 10_000;

/**
 * `occurredAt` texts that never repeat or go backwards within a process: the wall clock's
 * milliseconds, sub-millisecond digits from the monotonic clock, and +1 tick on a tie.
 */
export function createOccurredAtClock(now: () => number = Date.now): () => string {
  let lastMs = 0;
  let lastTick = -1;
  return () => {
    let ms = now();
    let tick = Math.floor(Number(process.hrtime.bigint() % 1_000_000n) / 100); // 0..9999
    if (ms < lastMs || (ms === lastMs && tick <= lastTick)) {
      ms = lastMs;
      tick = lastTick + 1;
      if (tick === TICKS_PER_MS) [ms, tick] = [ms + 1, 0];
    }
    [lastMs, lastTick] = [ms, tick];
    return formatOccurredAt(ms, tick);
  };
}

/** Milliseconds since the epoch and 0..9999 ticks as `YYYY-MM-DDTHH:MM:SS.fffffffZ`. */
export function formatOccurredAt(ms: number, tick: number): string {
  return `${new Date(ms).toISOString().slice(0, 23)}${String(tick).padStart(4, "0")}Z`;
}

/** A new event (a fresh id) of the organisation; its data is checked against the schema by the caller. */
export function buildEvent(type: WebhookEventType, data: unknown, organizationId: string, occurredAt: string): WebhookEvent {
  // Key order is the document's; the body is serialized once and those bytes are signed and sent.
  return { id: randomUUID(), type, apiVersion: deliveryRules.apiVersion, occurredAt, organizationId, data } as WebhookEvent;
}

/** Version-4 uuids from a seeded generator: the same seed and call order give the same ids. */
export function seededUuids(seed: number): () => string {
  const random = seededRandom(seed);
  return () => {
    const bytes = Array.from({ length: 16 }, () => Math.floor(random() * 256));
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    const hex = bytes.map((b) => b.toString(16).padStart(2, "0")).join("");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  };
}
