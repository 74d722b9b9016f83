/**
 * The `Service-Signature` header's rules (service-api.md §5, "Webhook authentication"), free of
 * any crypto library so that every runtime shares them:
 *
 *   Service-Signature: t=<unix seconds>,v1=<lowercase hex HMAC-SHA256 of "<t>." + raw body bytes>
 *
 * keyed with the endpoint's signing secret as UTF-8 text, `whsec_` prefix included.
 * Modelled on stripe-node's `Webhooks.verifyHeader` and the Standard Webhooks verifier:
 * several `v1` values may appear (the sender rotating secrets), unknown schemes are ignored,
 * and digests are compared in constant time. The HMAC itself is computed by Web Crypto
 * (web-crypto.ts, any runtime) or node:crypto (node/signature.ts, synchronous).
 */
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

/** The header as a runtime hands it: Node gives a repeated header as an array, fetch's Headers gives null. */
export type SignatureHeaderValue = string | readonly string[] | null | undefined;

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

/** What verify (node:crypto), verifyAsync (Web Crypto) and their shared checks take. */
export type VerifyParameters = [rawBody: RawBody, header: SignatureHeaderValue, secret: SigningSecrets, options?: VerifyOptions];

export interface VerifiedSignature {
  /** The signed `t` value, Unix seconds. */
  timestamp: number;
}

/** What is left to check once the header, clock and secrets have passed: the digests. */
export interface PendingVerification {
  timestamp: number;
  /** The `v1` values of the header. */
  signatures: readonly string[];
  secrets: readonly string[];
  /** The bytes the HMAC covers: `<t>.` followed by the body. */
  signedPayload: Uint8Array<ArrayBuffer>;
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
 * Every check of a delivery that needs no HMAC, in the order the verifiers report them: arguments,
 * header present and well formed, timestamp within the tolerance of now. Throws
 * WebhookSignatureError (or TypeError / RangeError for a programming error); never parses the body.
 */
export function prepareVerification(
  ...[rawBody, header, secret, { toleranceSeconds = DEFAULT_TOLERANCE_SECONDS, now = nowInSeconds() } = {}]: VerifyParameters
): PendingVerification {
  const secrets = toSecretList(secret);
  assertTolerance(toleranceSeconds);
  if (!Number.isFinite(now)) throw new RangeError(`now must be finite Unix seconds, got ${now}.`);
  const body = toBytes(rawBody);
  const headerText = joinHeader(header);
  if (headerText.trim() === "") {
    throw new WebhookSignatureError("missing_header", `The request has no ${SIGNATURE_HEADER} header.`);
  }
  const { timestamp, signatures } = parseSignatureHeader(headerText);
  checkTimestamp(timestamp, now, toleranceSeconds);
  return { timestamp, signatures, secrets, signedPayload: signedPayload(body, timestamp) };
}

/** The verdict once each secret's digest is known: the timestamp, or no_matching_signature. */
export function finishVerification(pending: PendingVerification, expectedHex: readonly string[]): VerifiedSignature {
  if (!anySignatureMatches(expectedHex, pending.signatures)) {
    throw new WebhookSignatureError(
      "no_matching_signature",
      `No v1 signature in ${SIGNATURE_HEADER} matches the body and signing secret ` +
        "(wrong secret, or the body was changed after signing, e.g. parsed and re-serialized).",
    );
  }
  return { timestamp: pending.timestamp };
}

/** The bytes a signature covers: `<timestamp>.` then the body's bytes. Checks both arguments. */
export function signedPayload(rawBody: RawBody, timestamp: number): Uint8Array<ArrayBuffer> {
  assertTimestamp(timestamp);
  const body = toBytes(rawBody);
  const prefix = new TextEncoder().encode(`${timestamp}.`);
  const payload = new Uint8Array(prefix.length + body.length);
  payload.set(prefix, 0);
  payload.set(body, prefix.length);
  return payload;
}

/** The header value for a timestamp and its digest, or one digest per secret while the sender rotates secrets. */
export function formatSignatureHeader(timestamp: number, ...digestsHex: [string, ...string[]]): string {
  return [`t=${timestamp}`, ...digestsHex.map((digest) => `${SIGNATURE_SCHEME}=${digest}`)].join(",");
}

/** Lowercase hex of bytes, as the header carries digests. */
export function toHex(bytes: Uint8Array): string {
  let hex = "";
  for (const byte of bytes) hex += HEX_OF_BYTE[byte];
  return hex;
}

const HEX_OF_BYTE = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

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
 * Compares every candidate against every expected digest without stopping early. The hex text
 * itself is compared, so uppercase, non-hex or wrong-length candidates simply do not match (the
 * spec signs lowercase hex).
 */
function anySignatureMatches(expectedHex: readonly string[], candidates: readonly string[]): boolean {
  let matched = false;
  for (const expected of expectedHex) {
    for (const candidate of candidates) {
      if (constantTimeEqual(candidate, expected)) matched = true;
    }
  }
  return matched;
}

/**
 * Equality whose time depends only on the lengths: every character is visited and the differences
 * are OR-ed, never branched on (as Deno's timingSafeEqual, used by Standard Webhooks). The length of a
 * valid digest is public (64 hex characters), so an early exit on a length mismatch reveals nothing.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

/** The body's bytes; a string is encoded as UTF-8 like the sender's body. */
function toBytes(rawBody: RawBody): Uint8Array {
  if (typeof rawBody === "string") return new TextEncoder().encode(rawBody);
  if (rawBody instanceof Uint8Array) return rawBody;
  // A parsed object here means the bytes that were signed are already lost.
  throw new TypeError(
    "Webhook body must be the raw request body (string, Uint8Array or Buffer), not a parsed object.",
  );
}

/** A repeated header arrives as an array; joined, a second `t` then fails as malformed. */
function joinHeader(header: SignatureHeaderValue): string {
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

export function assertSecret(secret: unknown): asserts secret is string {
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

export function nowInSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
