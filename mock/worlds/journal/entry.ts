// One exchange as the journal keeps it: what the pipeline already had when it answered (the URL as
// sent, cut to the spec's bound, the status, the findings, the caller's label), nothing parsed;
// requests.ts makes the view. entryBytes weighs one for the journals' shared memory (budget.ts).
import type { Violation } from "../../kernel/violations.js";
import type { components } from "../../../generated/control-api.js";

/** One exchange as the pipeline recorded it; requests.ts turns it into what callers see. */
export interface JournalEntry {
  /** When it was answered, milliseconds since the epoch (to the microsecond). */
  at: number;
  method: string;
  /** Path and query as sent, at most x-mock-limits.journalUrlBytes of them. */
  url: string;
  /** Whether the URL sent was longer than `url`. */
  urlTruncated: boolean;
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

/** The start of a body as the journal keeps it (the control document's RecordedBody). */
export type RecordedBody = components["schemas"]["RecordedBody"];

// What V8 (64-bit) takes beyond the texts' characters, rounded up; measured on Node 20 (50,000 entries,
// heap after full collections): about 162 bytes plus the URL per entry (the object, two numbers, the
// URL's header); 200 covers its ring slot too. Method, operationId and caller are shared strings.
const ENTRY_BYTES = 200;
const BODY_BYTES = 64;
const VIOLATION_BYTES = 64;
const NEAREST_BYTES = 32;

/**
 * The bytes an entry holds, estimated from its texts' lengths (a character is a byte in the URL as
 * sent; a body's or a message's text may take two): cheap enough for every request.
 */
export function entryBytes(entry: JournalEntry): number {
  let bytes = ENTRY_BYTES + entry.url.length;
  if (entry.body !== undefined) bytes += BODY_BYTES + 2 * entry.body.text.length;
  if (entry.violations !== undefined) for (const violation of entry.violations) bytes += VIOLATION_BYTES + 2 * violation.message.length;
  if (entry.nearest !== undefined) bytes += NEAREST_BYTES + 8 * entry.nearest.length;
  return bytes;
}
