/**
 * Webhook helpers for Node receivers: everything of "hr-service-contract/webhooks" (Web Crypto,
 * any runtime), plus synchronous signing and verifying on node:crypto and a ready-made node:http
 * receiver. Depends on Node built-ins only, so a receiver installs nothing else.
 */
export * from "../index.js";
export { computeSignature, sign, verify } from "./signature.js";
export { constructEvent } from "./construct-event.js";
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
