// The webhook side's refusals as errors for in-process callers (startMock's `webhooks` and
// `trigger`), which get a thrown error instead of an envelope: the reason, no status.
import type { Reason, RefusalKind, Result } from "../kernel/results.js";

export class WebhookRefusal extends Error {
  readonly kind: RefusalKind;
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

/** An event that cannot be sent again. */
export class ResendError extends WebhookRefusal {
  override readonly name = "ResendError";
}

/** The value of a result, or the refusal thrown as the given error class. */
export function valueOr<T>(result: Result<T>, ErrorClass: new (reason: Reason) => WebhookRefusal): T {
  if (!result.ok) throw new ErrorClass(result.reason);
  return result.value;
}
