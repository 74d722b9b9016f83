/**
 * Signing and verifying the `Service-Signature` header (service-api.md §5, "Webhook authentication"):
 *
 *   Service-Signature: t=<unix seconds>,v1=<lowercase hex HMAC-SHA256 of "<t>." + raw body bytes>
 *
 * keyed with the endpoint's signing secret as UTF-8 text, `whsec_` prefix included.
 * Modelled on stripe-node's `Webhooks.verifyHeader` and the Standard Webhooks verifier:
 * several `v1` values may appear (the sender rotating secrets), unknown schemes are ignored,
 * and digests are compared in constant time.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { deliveryRules, webhookHeaders } from "../../generated/webhook-facts.js";
import { WebhookSignatureError } from "./errors.js";

/** Header that carries the signature (the AsyncAPI document's). HTTP header names are case-insensitive. */
export const SIGNATURE_HEADER: string = webhookHeaders.serviceSignature;

/** The reference receiver's replay window: |now − t| may be at most this many seconds (x-signature-tolerance-seconds). */
export const DEFAULT_TOLERANCE_SECONDS: number = deliveryRules.signatureToleranceSeconds;

/** The only scheme this version signs with; other `key=value` entries are ignored. */
const SIGNATURE_SCHEME = "v1";

/** A raw request body exactly as received: a string is taken as its UTF-8 bytes. */
export type RawBody = string | Uint8Array;

/** One signing secret, or several accepted at once while the receiver rotates secrets. */
export type SigningSecrets = string | readonly string[];

export interface ParsedSignatureHeader {
  /** The `t` value, Unix seconds. */
  timestamp: number;
  /** Every `v1` value in header order, unchecked (they may be non-hex). */
  signatures: string[];
}

export interface SignOptions {
  /** Unix seconds to sign with; defaults to now. */
  timestamp?: number;
}

export interface VerifyOptions {
  /** Largest accepted |now − t| in seconds; defaults to 300. */
  toleranceSeconds?: number;
  /** The current time in Unix seconds; defaults to the clock. Tests and replays of stored deliveries pin it. */
  now?: number;
}

export interface VerifiedSignature {
  /** The signed `t` value, Unix seconds. */
  timestamp: number;
}

/** Hex HMAC-SHA256 of `<timestamp>.` followed by the body's bytes, keyed with the secret's text. */
export function computeSignature(rawBody: RawBody, secret: string, timestamp: number): string {
  assertSecret(secret);
  assertTimestamp(timestamp);
  return createHmac("sha256", secret).update(`${timestamp}.`, "utf8").update(toBytes(rawBody)).digest("hex");
}

/** The `Service-Signature` header value for a body, signed now or at `options.timestamp`. */
export function sign(rawBody: RawBody, secret: string, { timestamp = nowInSeconds() }: SignOptions = {}): string {
  return `t=${timestamp},${SIGNATURE_SCHEME}=${computeSignature(rawBody, secret, timestamp)}`;
}

/**
 * Splits a header value into its timestamp and `v1` values.
 * Throws WebhookSignatureError: `malformed_header`, `timestamp_not_integer` or `no_v1_signature`.
 */
export function parseSignatureHeader(header: string): ParsedSignatureHeader {
  let timestampText: string | undefined;
  const signatures: string[] = [];
  for (const [key, value] of splitEntries(header)) {
    if (key === "t") {
      // A second `t` would leave it ambiguous which time the digest covers.
      if (timestampText !== undefined) throw malformed("it has more than one t= entry");
      timestampText = value;
    } else if (key === SIGNATURE_SCHEME) {
      signatures.push(value);
    }
  }
  if (timestampText === undefined) throw malformed("it has no t= entry");
  const timestamp = parseTimestamp(timestampText);
  if (signatures.length === 0) {
    throw new WebhookSignatureError("no_v1_signature", `${SIGNATURE_HEADER} header has no v1= signature.`);
  }
  return { timestamp, signatures };
}

/**
 * Checks a delivery's signature: the header parses, `t` is within the tolerance of now, and one
 * of its `v1` values equals the digest computed with (one of) the secret(s). Returns the signed
 * timestamp; throws WebhookSignatureError with the reason otherwise. Never parses the body.
 */
export function verify(
  rawBody: RawBody,
  header: string | readonly string[] | null | undefined,
  secret: SigningSecrets,
  { toleranceSeconds = DEFAULT_TOLERANCE_SECONDS, now = nowInSeconds() }: VerifyOptions = {},
): VerifiedSignature {
  const secrets = toSecretList(secret);
  assertTolerance(toleranceSeconds);
  if (!Number.isFinite(now)) throw new RangeError(`now must be finite Unix seconds, got ${now}.`);
  const bytes = toBytes(rawBody);
  const headerText = joinHeader(header);
  if (headerText.trim() === "") {
    throw new WebhookSignatureError("missing_header", `The request has no ${SIGNATURE_HEADER} header.`);
  }
  const { timestamp, signatures } = parseSignatureHeader(headerText);
  checkTimestamp(timestamp, now, toleranceSeconds);
  const expected = secrets.map((s) => computeSignature(bytes, s, timestamp));
  if (!anySignatureMatches(expected, signatures)) {
    throw new WebhookSignatureError(
      "no_matching_signature",
      `No v1 signature in ${SIGNATURE_HEADER} matches the body and signing secret ` +
        "(wrong secret, or the body was changed after signing, e.g. parsed and re-serialized).",
    );
  }
  return { timestamp };
}

/** Comma-separated `key=value` entries; whitespace around an entry is tolerated, not inside it. */
function splitEntries(header: string): Array<[string, string]> {
  return header.split(",").map((raw) => {
    const entry = raw.trim();
    const eq = entry.indexOf("=");
    if (eq <= 0 || eq === entry.length - 1) throw malformed(`entry ${quote(entry)} is not key=value`);
    return [entry.slice(0, eq), entry.slice(eq + 1)];
  });
}

/** Whole, non-negative decimal Unix seconds only: no sign, fraction, exponent or hex. */
function parseTimestamp(text: string): number {
  const value = Number(text);
  if (!/^[0-9]+$/.test(text) || !Number.isSafeInteger(value)) {
    throw new WebhookSignatureError(
      "timestamp_not_integer",
      `${SIGNATURE_HEADER} t=${quote(text)} is not a whole number of Unix seconds.`,
    );
  }
  return value;
}

/** Replay guard: both a stale and a future-dated signature are refused. */
function checkTimestamp(timestamp: number, now: number, toleranceSeconds: number): void {
  const age = now - timestamp;
  if (age > toleranceSeconds) {
    throw new WebhookSignatureError(
      "timestamp_too_old",
      `Signature timestamp is ${age} s old; at most ${toleranceSeconds} s is accepted (replay or delayed delivery).`,
    );
  }
  if (-age > toleranceSeconds) {
    throw new WebhookSignatureError(
      "timestamp_in_future",
      `Signature timestamp is ${-age} s in the future; at most ${toleranceSeconds} s is accepted (check the clocks).`,
    );
  }
}

/**
 * Compares every candidate against every expected digest without stopping early, each in
 * constant time. The hex text itself is compared, so uppercase, non-hex or wrong-length
 * candidates simply do not match (the spec signs lowercase hex).
 */
function anySignatureMatches(expectedHex: readonly string[], candidates: readonly string[]): boolean {
  let matched = false;
  for (const expected of expectedHex) {
    const want = Buffer.from(expected, "utf8");
    for (const candidate of candidates) {
      const got = Buffer.from(candidate, "utf8");
      // timingSafeEqual needs equal lengths; the length of a valid digest is public anyway.
      if (got.length === want.length && timingSafeEqual(got, want)) matched = true;
    }
  }
  return matched;
}

/** The body's bytes without copying; a string is encoded as UTF-8 like the sender's body. */
function toBytes(rawBody: RawBody): Buffer {
  if (typeof rawBody === "string") return Buffer.from(rawBody, "utf8");
  if (rawBody instanceof Uint8Array) return Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
  // A parsed object here means the bytes that were signed are already lost.
  throw new TypeError(
    "Webhook body must be the raw request body (string, Buffer or Uint8Array), not a parsed object.",
  );
}

/** Node may hand a repeated header as an array; joined, a second `t` then fails as malformed. */
function joinHeader(header: string | readonly string[] | null | undefined): string {
  if (header === null || header === undefined) return "";
  return typeof header === "string" ? header : header.join(",");
}

/** The secret(s) as a list; a TypeError for an empty or non-text secret (for the receiver's start-up check too). */
export function toSecretList(secret: SigningSecrets): readonly string[] {
  const secrets = typeof secret === "string" ? [secret] : secret;
  if (!Array.isArray(secrets) || secrets.length === 0) {
    throw new TypeError("Webhook signing secret must be a non-empty string or a non-empty array of them.");
  }
  secrets.forEach(assertSecret);
  return secrets;
}

function assertSecret(secret: unknown): asserts secret is string {
  // An empty key still yields an HMAC; refusing it catches an unset environment variable.
  if (typeof secret !== "string" || secret === "") {
    throw new TypeError("Webhook signing secret must be a non-empty string (it begins whsec_).");
  }
}

function assertTimestamp(timestamp: number): void {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new RangeError(`Signature timestamp must be whole non-negative Unix seconds, got ${timestamp}.`);
  }
}

/** A RangeError unless the tolerance is a finite number of seconds >= 0. */
export function assertTolerance(toleranceSeconds: number): void {
  if (typeof toleranceSeconds !== "number" || !Number.isFinite(toleranceSeconds) || toleranceSeconds < 0) {
    throw new RangeError(`toleranceSeconds must be a finite number >= 0, got ${toleranceSeconds}.`);
  }
}

function malformed(why: string): WebhookSignatureError {
  return new WebhookSignatureError("malformed_header", `${SIGNATURE_HEADER} header is malformed: ${why}.`);
}

/** Header text echoed in messages is quoted and shortened: it comes from the network and lands in logs. */
function quote(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}

function nowInSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
