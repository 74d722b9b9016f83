// One exchange as the journal keeps it: what the pipeline already had when it answered (the URL as
// sent, the status, the findings, the caller's label), nothing parsed; requests.ts makes the view.
import type { Violation } from "../../kernel/violations.js";

/** One exchange as the pipeline recorded it; requests.ts turns it into what callers see. */
export interface JournalEntry {
  /** When it arrived, milliseconds since the epoch. */
  at: number;
  method: string;
  /** Path and query as sent. */
  url: string;
  /** The operation it was routed to; undefined for a path no operation has (unmatched). */
  operationId: string | undefined;
  /** The label of the caller's key; never the key. */
  caller: string | undefined;
  status: number;
  /** What the request broke, as its error answer names it. */
  violations: readonly Violation[] | undefined;
  /** For an unmatched request: the operations it most likely meant (near-miss.ts). */
  nearest: readonly string[] | undefined;
  /** Milliseconds the mock took to answer (scripted delays included, --latency not). */
  durationMs: number;
  /** The start of the body, when one was sent (at most BODY_CAP bytes, secrets masked). */
  body: RecordedBody | undefined;
}

export interface RecordedBody {
  text: string;
  /** Its whole length in bytes. */
  bytes: number;
  truncated: boolean;
}
