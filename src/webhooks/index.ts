/**
 * Webhook helpers for receivers of the HR service's events on any runtime with Web Crypto (edge
 * runtimes, workers, Deno, Bun, browsers, Node): verify, construct a typed event, sign. Imports no
 * Node built-in and no package. The synchronous node:crypto functions and the ready-made node:http
 * receiver are in "hr-service-contract/webhooks/node" (./node/index.ts), which re-exports these too.
 */
export {
  DEFAULT_TOLERANCE_SECONDS,
  parseSignatureHeader,
  SIGNATURE_HEADER,
  type ParsedSignatureHeader,
  type RawBody,
  type SignatureHeaderValue,
  type SigningSecrets,
  type SignOptions,
  type VerifiedSignature,
  type VerifyOptions,
} from "./signature.js";
export { computeSignatureAsync, signAsync, verifyAsync } from "./web-crypto.js";
export {
  isWebhookError,
  WebhookEventError,
  WebhookSignatureError,
  type WebhookEventErrorReason,
  type WebhookSignatureErrorReason,
} from "./errors.js";
export {
  constructEventAsync,
  DELIVERY_ID_HEADER,
  EVENT_ID_HEADER,
  EVENT_TYPE_HEADER,
  readHeader,
  type HeaderSource,
  type WebhookEvent,
} from "./construct-event.js";
