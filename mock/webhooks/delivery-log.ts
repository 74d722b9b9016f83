// The delivery log: one entry per event per endpoint (a duplicate delivery is an entry of its
// own), each with its attempts. Bounded: the oldest finished entries go first.
import type { components } from "../../generated/control-api.js";

type ControlSchemas = components["schemas"];

/** Where a delivery stands; the control API's document says what each state means. */
export type DeliveryState = ControlSchemas["Delivery"]["state"];

/** The states a delivery ends in: what a log's bound may let go of. */
export const FINAL_STATES: readonly DeliveryState[] = ["succeeded", "failed", "cancelled", "stopped", "dropped"];
export const isFinal = (state: DeliveryState): boolean => FINAL_STATES.includes(state);

export type AttemptRecord = ControlSchemas["Attempt"];
export type DeliveryLogEntry = ControlSchemas["Delivery"];

export interface DeliveryFilter {
  organizationId?: string;
  eventId?: string;
  endpointId?: string;
  /** At most this many entries, newest first; default 100. */
  limit?: number;
}

/** An entry with the event's body exactly as sent, for a resend; undefined from a state directory that did not keep bodies. */
export interface LoggedDelivery {
  entry: DeliveryLogEntry;
  body: Buffer | undefined;
}

/** One organisation's entries, oldest first, each with its place in the whole log's order. */
type Entries = (LoggedDelivery & { seq: number })[];

/**
 * The log's trim rule, on every backend (the Redis scripts interpolate it): past a tenth over the
 * bound, an organisation's oldest finished entries go, down to the bound; unfinished ones stay. The
 * slack spares a trim (O(n)) on every add.
 */
export const LOG_TRIM_SLACK = 1.1;

/** The log, bounded per organisation: one organisation's traffic never evicts another's entries. */
export class DeliveryLog {
  private readonly byOrganization = new Map<string, Entries>();
  private seq = 0;

  constructor(private readonly limitPerOrganization: number) {}

  add(entry: DeliveryLogEntry, body?: Buffer): void {
    let entries = this.byOrganization.get(entry.organizationId);
    if (!entries) this.byOrganization.set(entry.organizationId, (entries = []));
    entries.push({ seq: this.seq++, entry, body });
    if (entries.length > Math.ceil(this.limitPerOrganization * LOG_TRIM_SLACK)) trim(entries, this.limitPerOrganization);
  }

  /** Newest first. Entries are live objects: copy them before handing them out. */
  find(filter: DeliveryFilter = {}): DeliveryLogEntry[] {
    const limit = filter.limit ?? 100;
    const [eventId, endpointId] = [filter.eventId?.toLowerCase(), filter.endpointId?.toLowerCase()];
    const logs = filter.organizationId !== undefined ? [this.byOrganization.get(filter.organizationId)].filter((l) => l !== undefined) : [...this.byOrganization.values()];
    // From each log's newest entry, at most `limit` matches: a request reads what it answers, not the whole log.
    const found: Entries = [];
    for (const entries of logs) {
      let taken = 0;
      for (let i = entries.length - 1; i >= 0 && taken < limit; i--) {
        const { entry } = entries[i];
        if (eventId !== undefined && entry.eventId !== eventId) continue;
        if (endpointId !== undefined && entry.endpointId !== endpointId) continue;
        found.push(entries[i]);
        taken++;
      }
    }
    return found
      .sort((a, b) => b.seq - a.seq)
      .slice(0, limit)
      .map((f) => f.entry);
  }

  /** An organisation's entries with their bodies, oldest first: live, to be read at once and not kept. */
  ofOrganization(organizationId: string): readonly LoggedDelivery[] {
    return this.byOrganization.get(organizationId) ?? [];
  }

  /** The body of every event in the log, by event id (what a state directory keeps for resends). */
  bodies(): Map<string, Buffer> {
    const bodies = new Map<string, Buffer>();
    for (const entries of this.byOrganization.values()) for (const { entry, body } of entries) if (body) bodies.set(entry.eventId, body);
    return bodies;
  }

  /** Every entry, oldest first (what a state directory keeps). */
  all(): DeliveryLogEntry[] {
    return [...this.byOrganization.values()]
      .flat()
      .sort((a, b) => a.seq - b.seq)
      .map((f) => f.entry);
  }
}

/** Drops an organisation's oldest finished entries down to the limit; unfinished ones always stay. */
function trim(entries: Entries, limit: number): void {
  let excess = entries.length - limit;
  // In place, reading no further than the last entry dropped: unfinished entries may keep the log past its bound for a while.
  let kept = 0;
  let read = 0;
  for (; read < entries.length && excess > 0; read++) {
    if (isFinal(entries[read].entry.state)) excess--;
    else entries[kept++] = entries[read];
  }
  entries.copyWithin(kept, read);
  entries.length -= read - kept;
}

/** A deep copy for callers: the log's entries keep changing while attempts run. */
export function snapshot(entry: DeliveryLogEntry): DeliveryLogEntry {
  return { ...entry, attempts: entry.attempts.map((a) => ({ ...a })) };
}

/** What an attempt got, in a few words: "HTTP 500", "HTTP 302, redirect not followed", "ECONNREFUSED: …". */
export function attemptResult(record: AttemptRecord): string {
  const parts = [record.status !== null ? `HTTP ${record.status}` : undefined, record.error ?? undefined].filter((p) => p !== undefined);
  return parts.length > 0 ? parts.join(", ") : "failed";
}

/** The log line of one attempt (the entry holds only the URL's origin and path, never a secret). */
export function attemptLine(entry: DeliveryLogEntry, record: AttemptRecord): string {
  const next =
    record.outcome === "succeeded" ? "" : record.nextRetryAt ? `; next attempt at ${record.nextRetryAt}` : entry.state === "failed" ? "; no attempts left" : `; ${entry.state}`;
  return `webhook ${entry.type} ${entry.eventId}${entry.duplicate ? " (duplicate)" : ""} -> ${entry.url} attempt ${record.attempt}: ${record.outcome} (${attemptResult(record)}, ${record.durationMs} ms)${next}`;
}

/** A delivery that will not be sent because the engine closed first; nextAttemptAt is null when it was not attempted yet. */
export type WaitingDelivery = Pick<DeliveryLogEntry, "eventId" | "type" | "endpointId" | "url" | "duplicate" | "nextAttemptAt"> & { attempts: number; lastError: string | null };

export function waitingOf(entry: DeliveryLogEntry): WaitingDelivery {
  const last = entry.attempts[entry.attempts.length - 1];
  return {
    eventId: entry.eventId,
    type: entry.type,
    endpointId: entry.endpointId,
    url: entry.url,
    duplicate: entry.duplicate,
    attempts: entry.attempts.length,
    nextAttemptAt: last?.nextRetryAt ?? null,
    lastError: last ? attemptResult(last) : null,
  };
}

const MAX_WAITING_LINES = 20;

/** On close, the deliveries that will not be sent (or, with a state directory, are kept there), so a developer stopping the mock sees them. */
export function waitingLines(waiting: readonly WaitingDelivery[], keptIn?: string): string[] {
  if (waiting.length === 0) return [];
  const were = waiting.length === 1 ? "delivery was" : "deliveries were";
  const fate = keptIn === undefined ? " and will not be sent" : `: kept in ${keptIn}, to be attempted when the mock starts again with it`;
  const lines = [`webhooks stopped: ${waiting.length} ${were} still waiting${fate}:`];
  for (const w of waiting.slice(0, MAX_WAITING_LINES)) {
    const tried = w.attempts === 0 ? "not attempted yet" : `${w.attempts} ${w.attempts === 1 ? "attempt" : "attempts"}, last ${w.lastError}`;
    lines.push(`  ${w.type} ${w.eventId}${w.duplicate ? " (duplicate)" : ""} -> ${w.url} (${tried}${w.nextAttemptAt ? `; next was due at ${w.nextAttemptAt}` : ""})`);
  }
  if (waiting.length > MAX_WAITING_LINES) lines.push(`  … and ${waiting.length - MAX_WAITING_LINES} more (mock.webhooks.close() reports them all)`);
  return lines;
}
