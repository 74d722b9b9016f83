// Why the webhook side refuses something, in domain terms: a kind, the field at fault, a sentence.
// No HTTP here: the control API's edge (mock/control/operations.ts) turns a kind into a status.

export type ReasonKind =
  /** The input breaks a rule (a URL's host, a uuid that is not one, a record in the wrong state). */
  | "invalid"
  /** An id that is not a record or endpoint of the organisation. */
  | "not-found"
  /** The state does not allow it (no record left to change, no endpoint to test, the endpoint limit reached). */
  | "conflict"
  /** The engine is shutting down. */
  | "unavailable";

export interface Reason {
  kind: ReasonKind;
  /** The input field at fault, when one is. */
  field?: string;
  /** One sentence without a final period, naming the cause. */
  message: string;
}

export type Result<T> = { ok: true; value: T } | { ok: false; reason: Reason };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const refuse = (kind: ReasonKind, message: string, field?: string): { ok: false; reason: Reason } => ({
  ok: false,
  reason: field === undefined ? { kind, message } : { kind, field, message },
});

/** A refusal thrown to an in-process caller (startMock's `webhooks` and `trigger`): the reason, no status. */
export class WebhookRefusal extends Error {
  readonly kind: ReasonKind;
  readonly field: string | undefined;
  constructor(readonly reason: Reason) {
    super(`${reason.message}${reason.field ? ` (${reason.field})` : ""}.`);
    this.kind = reason.kind;
    this.field = reason.field;
  }
}

/** An endpoint that cannot be added, removed or tested. */
export class EndpointError extends WebhookRefusal {
  override readonly name = "EndpointError";
}

/** A trigger that cannot be carried out. */
export class TriggerError extends WebhookRefusal {
  override readonly name = "TriggerError";
}

/** The value of a result, or the refusal thrown as the given error class. */
export function valueOr<T>(result: Result<T>, ErrorClass: new (reason: Reason) => WebhookRefusal): T {
  if (!result.ok) throw new ErrorClass(result.reason);
  return result.value;
}
