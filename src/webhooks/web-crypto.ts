/**
 * Signing and verifying on Web Crypto (`crypto.subtle`): the asynchronous API that browsers, Deno,
 * Bun, Cloudflare Workers, Vercel Edge and Node all share, as stripe-node's SubtleCryptoProvider
 * does for its `constructEventAsync`. The header rules are signature.ts's, so the named errors,
 * tolerance and rotation are those of the synchronous Node verifier.
 */
import * as signature from "./signature.js";

/** Hex HMAC-SHA256 of `<timestamp>.` followed by the body's bytes, keyed with the secret's text. */
export async function computeSignatureAsync(rawBody: signature.RawBody, secret: string, timestamp: number): Promise<string> {
  signature.assertSecret(secret);
  return hmacSha256Hex(secret, signature.signedPayload(rawBody, timestamp));
}

/** The `Service-Signature` header value for a body, signed now or at `options.timestamp`. */
export async function signAsync(rawBody: signature.RawBody, secret: string, { timestamp = signature.nowInSeconds() }: signature.SignOptions = {}): Promise<string> {
  return signature.formatSignatureHeader(timestamp, await computeSignatureAsync(rawBody, secret, timestamp));
}

/**
 * Checks a delivery's signature: the header parses, `t` is within the tolerance of now, and one
 * of its `v1` values equals the digest computed with (one of) the secret(s). Resolves to the signed
 * timestamp; rejects with WebhookSignatureError and its reason otherwise. Never parses the body.
 */
export async function verifyAsync(...args: signature.VerifyParameters): Promise<signature.VerifiedSignature> {
  const pending = signature.prepareVerification(...args);
  const expected = await Promise.all(pending.secrets.map((s) => hmacSha256Hex(s, pending.signedPayload)));
  return signature.finishVerification(pending, expected);
}

async function hmacSha256Hex(secret: string, data: Uint8Array<ArrayBuffer>): Promise<string> {
  const subtle = globalThis.crypto?.subtle;
  if (subtle === undefined) {
    // Browsers hide crypto.subtle outside secure contexts (a page on plain http other than localhost).
    throw new TypeError("Web Crypto (crypto.subtle) is not available here: verifyAsync needs a secure context (https or localhost) or a runtime with Web Crypto.");
  }
  const key = await subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return signature.toHex(new Uint8Array(await subtle.sign("HMAC", key, data)));
}
