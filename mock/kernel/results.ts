// Results and refusals in domain terms, shared by every layer: a refusal is a kind, a sentence and
// perhaps the input field at fault. No HTTP here: the pipeline maps a kind to a status
// (mock/pipeline/status.ts), and refusalText is the one wording of a refusal in the envelope.

export type RefusalKind =
  /** The input breaks a rule the spec cannot state (StartDate after EndDate, a URL's host). */
  | "invalid"
  /** An id that is not a record of the caller's organisation or world. */
  | "not-found"
  /** The state does not allow it (no record left to change, a limit reached). */
  | "conflict"
  /** The mock is shutting down, or lacks the part asked for. */
  | "unavailable";

export interface Reason {
  kind: RefusalKind;
  /** The input field at fault, when one is. */
  field?: string;
  /** One sentence without a final period, naming the cause. */
  message: string;
}

export type Result<T> = { ok: true; value: T } | { ok: false; reason: Reason };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const refuse = (kind: RefusalKind, message: string, field?: string): { ok: false; reason: Reason } => ({
  ok: false,
  reason: field === undefined ? { kind, message } : { kind, field, message },
});

/** What an operation answers: its data, or a refusal already worded for the envelope's message. */
export type OperationResult = { ok: true; data: unknown; bare?: boolean } | { ok: false; kind: RefusalKind; message: string; field?: string };

/** The words an envelope's message starts with, per kind of refusal. */
const LEAD: Record<RefusalKind, string> = { invalid: "Bad request", "not-found": "Not found", conflict: "Conflict", unavailable: "Service unavailable" };

/** A refusal as the envelope words it: "Not found: no sandbox with id x (id)." */
export function refusalText(reason: Reason): string {
  return `${LEAD[reason.kind]}: ${reason.message}${reason.field ? ` (${reason.field})` : ""}.`;
}

/** A domain result as an operation's: the value as data, or the refusal in words. */
export function operationResult<T>(result: Result<T>, data: (value: T) => unknown = (value) => value): OperationResult {
  if (result.ok) return { ok: true, data: data(result.value) };
  const { kind, field } = result.reason;
  return field === undefined ? { ok: false, kind, message: refusalText(result.reason) } : { ok: false, kind, message: refusalText(result.reason), field };
}
