/**
 * Named errors of the webhook helpers. Each failure carries a machine-readable `reason`
 * (what a receiver answers in its 400 body and logs) and a message a person can act on.
 */

/** Why a `Service-Signature` check failed; one value per distinct failure. */
export type WebhookSignatureErrorReason =
  | "missing_header"
  | "malformed_header"
  | "timestamp_not_integer"
  | "no_v1_signature"
  | "timestamp_too_old"
  | "timestamp_in_future"
  | "no_matching_signature";

/** An error with a machine-readable reason; each named error below fixes its reasons and its name. */
export abstract class WebhookError<Reason extends string> extends Error {
  readonly reason: Reason;

  constructor(reason: Reason, message: string) {
    super(message);
    this.reason = reason;
  }
}

/** Thrown when a delivery's signature header is absent, unreadable, stale or does not match. */
export class WebhookSignatureError extends WebhookError<WebhookSignatureErrorReason> {
  override readonly name = "WebhookSignatureError";
}

/** Why a correctly signed delivery still is not a usable event. */
export type WebhookEventErrorReason =
  | "invalid_json"
  | "missing_field"
  | "event_id_mismatch"
  | "event_type_mismatch";

/** Thrown when a verified body is not JSON, lacks the event's identity, or contradicts its headers. */
export class WebhookEventError extends WebhookError<WebhookEventErrorReason> {
  override readonly name = "WebhookEventError";
}

/** True for either named error: both mean "answer 400, the delivery is not acceptable". */
export function isWebhookError(error: unknown): error is WebhookSignatureError | WebhookEventError {
  return error instanceof WebhookSignatureError || error instanceof WebhookEventError;
}
