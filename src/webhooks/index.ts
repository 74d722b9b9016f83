/**
 * Webhook helpers for receivers of the HR service's events: sign, verify, construct a typed
 * event, and a ready-made Node receiver. Depends on Node built-ins only, so a receiver that just
 * verifies signatures installs nothing else.
 */
export {
  computeSignature,
  DEFAULT_TOLERANCE_SECONDS,
  parseSignatureHeader,
  sign,
  SIGNATURE_HEADER,
  verify,
  type ParsedSignatureHeader,
  type RawBody,
  type SigningSecrets,
  type SignOptions,
  type VerifiedSignature,
  type VerifyOptions,
} from "./signature.js";
export {
  isWebhookError,
  WebhookEventError,
  WebhookSignatureError,
  type WebhookEventErrorReason,
  type WebhookSignatureErrorReason,
} from "./errors.js";
export {
  constructEvent,
  DELIVERY_ID_HEADER,
  EVENT_ID_HEADER,
  EVENT_TYPE_HEADER,
  readHeader,
  type HeaderSource,
  type WebhookEvent,
} from "./construct-event.js";
export {
  createReceiver,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_SEEN_IDS_LIMIT,
  listen,
  type DeliveryInfo,
  type ListeningReceiver,
  type ReceiverOptions,
  type Rejection,
} from "./receiver.js";
