/** The synchronous constructEvent: node:crypto's verify, then the same body and header checks. */
import { eventOfVerifiedBody, readHeader, type HeaderSource, type WebhookEvent } from "../construct-event.js";
import { SIGNATURE_HEADER, type RawBody, type SigningSecrets, type VerifyOptions } from "../signature.js";
import { verify } from "./signature.js";

/**
 * Verifies `Service-Signature` over the raw body, parses it, and checks `Service-Event-Id` and
 * `Service-Event-Type` against the body's `id` and `type`. Throws WebhookSignatureError or
 * WebhookEventError; returns the event, to be narrowed with `switch (event.type)`.
 */
export function constructEvent(
  rawBody: RawBody,
  headers: HeaderSource,
  secret: SigningSecrets,
  options: VerifyOptions = {},
): WebhookEvent {
  verify(rawBody, readHeader(headers, SIGNATURE_HEADER), secret, options);
  return eventOfVerifiedBody(rawBody, headers);
}
