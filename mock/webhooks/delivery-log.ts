// The delivery log: one entry per event per endpoint (a duplicate delivery is an entry of its
// own), each with its attempts. Bounded: the oldest finished entries go first.
import type { components } from "../../generated/control-api.js";

type ControlSchemas = components["schemas"];

/**
 * Where a delivery stands: held (back for the shuffle option), queued (waiting for a free
 * connection), sending, retry-scheduled (an attempt failed; nextAttemptAt is set), then one of the
 * final states: succeeded, failed (every attempt of the schedule failed), cancelled (the endpoint
 * was removed first) or stopped (the mock was closed first). The control API's document lists them.
 */
export type DeliveryState = ControlSchemas["Delivery"]["state"];
export const DELIVERY_STATES = ["held", "queued", "sending", "retry-scheduled", "succeeded", "failed", "cancelled", "stopped"] as const satisfies readonly DeliveryState[];

const FINAL: ReadonlySet<DeliveryState> = new Set(["succeeded", "failed", "cancelled", "stopped"]);

export function isFinal(state: DeliveryState): boolean {
  return FINAL.has(state);
}

/** An attempt and a log entry are what the control API's document says it answers (generated types). */
export type AttemptRecord = ControlSchemas["Attempt"];
export type DeliveryLogEntry = ControlSchemas["Delivery"];

export interface DeliveryFilter {
  organizationId?: string;
  eventId?: string;
  endpointId?: string;
  /** At most this many entries, newest first; default 100. */
  limit?: number;
}

export class DeliveryLog {
  private entries: DeliveryLogEntry[] = [];
  /** Trimming is O(n): done when the log has grown by a tenth since the last time, not on every add. */
  private trimAt: number;

  constructor(private readonly limit: number) {
    this.trimAt = Math.ceil(limit * 1.1);
  }

  add(entry: DeliveryLogEntry): void {
    this.entries.push(entry);
    if (this.entries.length > this.trimAt) {
      this.trim();
      // Unfinished entries are never dropped, so the log may stay above the limit for a while.
      this.trimAt = Math.ceil(Math.max(this.limit, this.entries.length) * 1.1);
    }
  }

  /** Newest first. Entries are live objects: copy them before handing them out. */
  find(filter: DeliveryFilter = {}): DeliveryLogEntry[] {
    const limit = filter.limit ?? 100;
    const found: DeliveryLogEntry[] = [];
    for (let i = this.entries.length - 1; i >= 0 && found.length < limit; i--) {
      const e = this.entries[i];
      if (filter.organizationId !== undefined && e.organizationId !== filter.organizationId) continue;
      if (filter.eventId !== undefined && e.eventId !== filter.eventId.toLowerCase()) continue;
      if (filter.endpointId !== undefined && e.endpointId !== filter.endpointId.toLowerCase()) continue;
      found.push(e);
    }
    return found;
  }

  get size(): number {
    return this.entries.length;
  }

  /** Drops the oldest finished entries down to the limit; unfinished ones always stay. */
  private trim(): void {
    let excess = this.entries.length - this.limit;
    this.entries = this.entries.filter((e) => {
      if (excess > 0 && isFinal(e.state)) {
        excess--;
        return false;
      }
      return true;
    });
  }
}

/** A deep copy for callers: the log's entries keep changing while attempts run. */
export function snapshot(entry: DeliveryLogEntry): DeliveryLogEntry {
  return { ...entry, attempts: entry.attempts.map((a) => ({ ...a })) };
}
