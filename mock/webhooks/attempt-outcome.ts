// What one attempt on the wire means for its delivery: the log's record of it, and whether the
// delivery succeeded, is given up, is cancelled (its endpoint removed meanwhile) or waits for its
// next attempt on the schedule. Pure: the lanes of one process and the replicas sharing a queue in
// Redis decide alike.
import type { AttemptRecord, DeliveryLogEntry } from "./delivery-log.js";
import type { SendOutcome } from "./send.js";

/** One attempt as it was made. */
export interface SentAttempt extends SendOutcome {
  deliveryId: string;
  startedAt: string;
}

export interface AttemptOutcome {
  record: AttemptRecord;
  state: "succeeded" | "failed" | "cancelled" | "retry-scheduled";
  /** Milliseconds until the next attempt (retry-scheduled only). */
  delayMs?: number;
}

/**
 * A 2xx is success; anything else (another status, a redirect not followed, no answer in time) is
 * a failure, retried after the schedule's next delay while one is left.
 */
export function attemptOutcome(entry: DeliveryLogEntry, sent: SentAttempt, retryDelaysMs: readonly number[], removed: boolean, nowMs: number): AttemptOutcome {
  const attempt = entry.attempts.length + 1;
  const succeeded = sent.error === undefined && sent.status !== undefined && sent.status >= 200 && sent.status < 300;
  const delay = retryDelaysMs[attempt];
  const retry = !succeeded && delay !== undefined && !removed;
  const redirect = sent.status !== undefined && sent.status >= 300 && sent.status < 400;
  const record: AttemptRecord = {
    attempt,
    deliveryId: sent.deliveryId,
    startedAt: sent.startedAt,
    durationMs: sent.durationMs,
    status: sent.status ?? null,
    error: sent.error ?? (redirect ? "redirect not followed" : null),
    answer: sent.answer ?? null,
    outcome: succeeded ? "succeeded" : "failed",
    nextRetryAt: retry ? new Date(nowMs + delay).toISOString() : null,
  };
  if (succeeded) return { record, state: "succeeded" };
  if (removed) return { record, state: "cancelled" };
  if (!retry) return { record, state: "failed" };
  return { record, state: "retry-scheduled", delayMs: delay };
}
