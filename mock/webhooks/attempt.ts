// One delivery attempt as the provider makes it: the delivery headers of the AsyncAPI document, a
// fresh Service-Delivery-Id, the body signed now with the endpoint's secret, posted through the
// endpoint's agent. Shared by the lanes of one process and the replicas of a shared queue.
import { randomUUID } from "node:crypto";
import type { OutgoingHttpHeaders } from "node:http";
import { webhookHeaders, webhookHeaderValues } from "../../generated/webhook-facts.js";
import { sign } from "../../src/webhooks/node/index.js";
import type { SentAttempt } from "./attempt-outcome.js";
import type { DeliveryLogEntry } from "./delivery-log.js";
import { shownUrl, type Endpoint } from "./endpoints.js";
import { send, type EndpointAgent } from "./send.js";

export async function attemptDelivery(endpoint: Endpoint, agent: EndpointAgent, entry: Pick<DeliveryLogEntry, "eventId" | "type">, body: Buffer, timeoutMs: number, nowMs: number): Promise<SentAttempt> {
  const deliveryId = randomUUID();
  const startedAt = new Date(nowMs).toISOString();
  const headers: OutgoingHttpHeaders = {
    ...webhookHeaderValues,
    [webhookHeaders.serviceEventId]: entry.eventId,
    [webhookHeaders.serviceEventType]: entry.type,
    [webhookHeaders.serviceDeliveryId]: deliveryId,
    [webhookHeaders.serviceSignature]: sign(body, endpoint.secret),
    "Content-Length": body.length,
  };
  const outcome = await send(endpoint.url, agent, headers, body, timeoutMs);
  return { ...outcome, deliveryId, startedAt };
}

/**
 * The line of a delivery dropped at a bound, on an endpoint's 1st, 10th, 100th... drop, so that a
 * flood of them is a few lines, never silence; undefined for the drops in between.
 */
export function droppedLine(endpoint: Endpoint, entry: Pick<DeliveryLogEntry, "eventId" | "type">, count: number, why: string): string | undefined {
  if (!Number.isInteger(Math.log10(count))) return undefined;
  return `hr-mock: webhooks: dropped the oldest waiting delivery for ${shownUrl(endpoint)} (${entry.type} ${entry.eventId}; ${count} dropped so far): ${why}.`;
}
