// A delivery as the service sends it (service-api.md 6.1): the body's bytes once, and every header
// of the section, signed with the package's own signer (src/webhooks). The cases change one thing of
// a good delivery at a time: the bytes, a header, the signing time or secret.
import { webhookHeaders, webhookHeaderValues } from "../../../generated/webhook-facts.js";
import { formatSignatureHeader } from "../../webhooks/signature.js";
import { computeSignatureAsync, signAsync } from "../../webhooks/web-crypto.js";
import type { EventBody } from "./events.js";

export interface Delivery {
  /** Header name to value, as sent; a header left out is absent. */
  headers: Record<string, string>;
  /** The body's text, sent as its UTF-8 bytes. */
  body: string;
}

export interface SignAt {
  secret: string;
  /** Unix seconds the signature's `t` carries. */
  timestamp: number;
}

/** The delivery of an event with every header of section 6.1, signed at `timestamp` with `secret`. */
export async function deliver(event: EventBody, deliveryId: string, { secret, timestamp }: SignAt): Promise<Delivery> {
  const body = JSON.stringify(event);
  return {
    headers: {
      ...webhookHeaderValues,
      [webhookHeaders.serviceEventId]: event.id,
      [webhookHeaders.serviceEventType]: event.type,
      [webhookHeaders.serviceDeliveryId]: deliveryId,
      [webhookHeaders.serviceSignature]: await signAsync(body, secret, { timestamp }),
    },
    body,
  };
}

/** The same delivery with a header replaced, or removed when `value` is undefined. */
export function withHeader(delivery: Delivery, name: string, value: string | undefined): Delivery {
  const headers = Object.fromEntries(Object.entries(delivery.headers).filter(([key]) => key.toLowerCase() !== name.toLowerCase()));
  if (value !== undefined) headers[name] = value;
  return { ...delivery, headers };
}

/**
 * A `Service-Signature` whose `t` is `<seconds>.5`, correctly signed over that text: the signer
 * covers `<t>.` + body, so signing `5.` + body at `<seconds>` gives the digest of `<seconds>.5.` + body.
 */
export async function fractionalSignature(body: string, { secret, timestamp }: SignAt): Promise<string> {
  return formatSignatureHeader(timestamp + 0.5, await computeSignatureAsync(`5.${body}`, secret, timestamp));
}

/** A `Service-Signature` with one `v1` per secret, in the order given (a sender rotating secrets). */
export async function rotationSignature(body: string, secrets: readonly [string, ...string[]], timestamp: number): Promise<string> {
  const digests = await Promise.all(secrets.map((secret) => computeSignatureAsync(body, secret, timestamp)));
  return formatSignatureHeader(timestamp, ...(digests as [string, ...string[]]));
}
