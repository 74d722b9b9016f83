/**
 * Synchronous signing and verifying on node:crypto: the same header rules as the Web Crypto
 * functions (../signature.ts), for Node code that cannot await (and the mock's sender).
 */
import { createHmac } from "node:crypto";
import * as signature from "../signature.js";

/** Hex HMAC-SHA256 of `<timestamp>.` followed by the body's bytes, keyed with the secret's text. */
export function computeSignature(rawBody: signature.RawBody, secret: string, timestamp: number): string {
  signature.assertSecret(secret);
  return hmacSha256Hex(secret, signature.signedPayload(rawBody, timestamp));
}

/** The `Service-Signature` header value for a body, signed now or at `options.timestamp`. */
export function sign(rawBody: signature.RawBody, secret: string, { timestamp = signature.nowInSeconds() }: signature.SignOptions = {}): string {
  return signature.formatSignatureHeader(timestamp, computeSignature(rawBody, secret, timestamp));
}

/**
 * Checks a delivery's signature: the header parses, `t` is within the tolerance of now, and one
 * of its `v1` values equals the digest computed with (one of) the secret(s). Returns the signed
 * timestamp; throws WebhookSignatureError with the reason otherwise. Never parses the body.
 */
export function verify(...args: signature.VerifyParameters): signature.VerifiedSignature {
  const pending = signature.prepareVerification(...args);
  return signature.finishVerification(pending, pending.secrets.map((s) => hmacSha256Hex(s, pending.signedPayload)));
}

function hmacSha256Hex(secret: string, data: Uint8Array): string {
  return createHmac("sha256", secret).update(data).digest("hex");
}
