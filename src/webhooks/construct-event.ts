/**
 * From a raw delivery (body bytes + headers) to a typed event: verify the signature first, then
 * parse, then check that the identity headers agree with the body (service-api.md §6.1).
 */
import { WebhookEventError, type WebhookEventErrorReason } from "./errors.js";
import { SIGNATURE_HEADER, type RawBody, type SigningSecrets, type VerifyOptions } from "./signature.js";
import { verifyAsync } from "./web-crypto.js";

// Type-only: erased at run time, so the entry still loads no module beyond its own.
import type { WebhookEvent } from "../../generated/events.js";
import { webhookHeaders } from "../../generated/webhook-facts.js";

export type { WebhookEvent };

/** The delivery headers the AsyncAPI document names (generated/webhook-facts.ts). */
export const EVENT_ID_HEADER: string = webhookHeaders.serviceEventId;
export const EVENT_TYPE_HEADER: string = webhookHeaders.serviceEventType;
export const DELIVERY_ID_HEADER: string = webhookHeaders.serviceDeliveryId;

/** Node's `IncomingHttpHeaders` (or any plain header record) or a WHATWG `Headers`. */
export type HeaderSource =
  | { get(name: string): string | null }
  | Readonly<Record<string, string | readonly string[] | number | undefined>>;

/**
 * Verifies `Service-Signature` over the raw body with Web Crypto, parses it, and checks
 * `Service-Event-Id` and `Service-Event-Type` against the body's `id` and `type`. Rejects with
 * WebhookSignatureError or WebhookEventError; resolves to the event, to be narrowed with
 * `switch (event.type)`. Runs wherever `crypto.subtle` does (edge runtimes, workers, browsers, Node).
 */
export async function constructEventAsync(
  rawBody: RawBody,
  headers: HeaderSource,
  secret: SigningSecrets,
  options: VerifyOptions = {},
): Promise<WebhookEvent> {
  await verifyAsync(rawBody, readHeader(headers, SIGNATURE_HEADER), secret, options);
  return eventOfVerifiedBody(rawBody, headers);
}

/**
 * The event of a body whose signature has been verified: JSON object, identity present, headers
 * agreeing. Throws WebhookEventError. Shared by constructEventAsync and the Node constructEvent.
 */
export function eventOfVerifiedBody(rawBody: RawBody, headers: HeaderSource): WebhookEvent {
  const body = parseJsonObject(rawBody);
  // Only the identity is checked by hand: it is what dedupe and the header checks rely on; the
  // rest of the shape is the signed contract (validate against generated/asyncapi.json if wanted).
  const id = requireText(body, "id");
  const type = requireText(body, "type");
  expectHeader(headers, EVENT_ID_HEADER, id, "event_id_mismatch");
  expectHeader(headers, EVENT_TYPE_HEADER, type, "event_type_mismatch");
  return body as WebhookEvent;
}

/** A header's value by case-insensitive name; a repeated header is joined with ", " as Node does. */
export function readHeader(headers: HeaderSource, name: string): string | undefined {
  if (typeof headers.get === "function") return (headers as { get(n: string): string | null }).get(name) ?? undefined;
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== wanted || value === undefined) continue;
    return Array.isArray(value) ? value.join(", ") : String(value);
  }
  return undefined;
}

/** JSON text of the body, which must decode as UTF-8 and hold an object. */
function parseJsonObject(rawBody: RawBody): Record<string, unknown> {
  let parsed: unknown;
  try {
    const text = typeof rawBody === "string" ? rawBody : new TextDecoder("utf-8", { fatal: true }).decode(rawBody);
    parsed = JSON.parse(text);
  } catch (error) {
    throw new WebhookEventError("invalid_json", `Webhook body is not valid UTF-8 JSON: ${(error as Error).message}`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new WebhookEventError("invalid_json", "Webhook body is JSON but not an object.");
  }
  return parsed as Record<string, unknown>;
}

function requireText(body: Record<string, unknown>, field: string): string {
  const value = body[field];
  if (typeof value !== "string" || value === "") {
    throw new WebhookEventError("missing_field", `Webhook body has no "${field}" text field.`);
  }
  return value;
}

/** The headers name the event for routing before the body is read; they must not disagree with it. */
function expectHeader(headers: HeaderSource, name: string, bodyValue: string, reason: WebhookEventErrorReason): void {
  const headerValue = readHeader(headers, name);
  if (headerValue === bodyValue) return;
  const field = reason === "event_id_mismatch" ? "id" : "type";
  const got = headerValue === undefined ? "is absent" : `is ${JSON.stringify(headerValue.slice(0, 80))}`;
  throw new WebhookEventError(reason, `${name} header ${got} but the body's ${field} is ${JSON.stringify(bodyValue)}.`);
}
