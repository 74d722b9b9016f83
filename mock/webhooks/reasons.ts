// Why the webhook side refuses something, in domain terms: a kind, the field at fault, a sentence.
// No HTTP here: the control API's edge (mock/control/operations.ts) turns a kind into a status.
import type { RefusalKind } from "../operations/operation.js";

/** The kinds of refusal every operation of the mock answers (mock/server/operations.ts). */
export type ReasonKind = RefusalKind;

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
