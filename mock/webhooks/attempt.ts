// One delivery attempt as the provider makes it, and what is told of it: one home for the lanes of
// one process (service.ts) and the replicas sharing a queue in Redis (state/redis/webhooks/pump.ts).
// An attempt carries the AsyncAPI document's delivery headers, a fresh delivery id and the body signed now.
import { randomUUID } from "node:crypto";
import { webhookHeaders, webhookHeaderValues } from "../../generated/webhook-facts.js";
import { sign } from "../../src/webhooks/node/index.js";
import { attemptLine, snapshot, type AttemptRecord, type DeliveryLogEntry } from "./delivery-log.js";
import { shownUrl, type Endpoint } from "./endpoints.js";
import { createAgent, send, type EndpointAgent, type SendOutcome } from "./send.js";
import type { EngineSettings, WebhookEngineOptions } from "./settings.js";

export type AttemptListener = (entry: DeliveryLogEntry, attempt: AttemptRecord) => void;

/** One attempt as it was made. */
export interface SentAttempt extends SendOutcome {
  deliveryId: string;
  startedAt: string;
}

export interface AttemptOutcome {
  record: AttemptRecord;
  state: "succeeded" | "failed" | "cancelled" | "retry-scheduled";
  /** Milliseconds until the next attempt (retry-scheduled only). */
  delayMs?: number;
}

/**
 * A 2xx is success; anything else (another status, a redirect not followed, no answer in time) is
 * a failure, retried after the schedule's next delay while one is left and the endpoint is not removed.
 */
export function attemptOutcome(entry: DeliveryLogEntry, sent: SentAttempt, retryDelaysMs: readonly number[], removed: boolean, nowMs: number): AttemptOutcome {
  const attempt = entry.attempts.length + 1;
  const succeeded = sent.error === undefined && sent.status !== undefined && sent.status >= 200 && sent.status < 300;
  const delay = retryDelaysMs[attempt];
  const retry = !succeeded && delay !== undefined && !removed;
  const redirect = sent.status !== undefined && sent.status >= 300 && sent.status < 400;
  const record: AttemptRecord = {
    attempt,
    deliveryId: sent.deliveryId,
    startedAt: sent.startedAt,
    durationMs: sent.durationMs,
    status: sent.status ?? null,
    error: sent.error ?? (redirect ? "redirect not followed" : null),
    answer: sent.answer ?? null,
    outcome: succeeded ? "succeeded" : "failed",
    nextRetryAt: retry ? new Date(nowMs + delay).toISOString() : null,
  };
  if (succeeded) return { record, state: "succeeded" };
  if (removed) return { record, state: "cancelled" };
  if (!retry) return { record, state: "failed" };
  return { record, state: "retry-scheduled", delayMs: delay };
}

/** Drops are told on an endpoint's 1st, 10th, 100th... so that a flood of them is a few lines, never silence. */
export function isToldDrop(count: number): boolean {
  return Number.isInteger(Math.log10(count));
}

export interface AttemptParts extends Pick<WebhookEngineOptions, "log" | "observe"> {
  settings: Pick<EngineSettings, "concurrency" | "responseTimeoutMs">;
  onError(line: string): void;
}

export class DeliveryAttempts {
  private readonly agents = new Map<string, EndpointAgent>();

  constructor(private readonly parts: AttemptParts) {}

  async send(endpoint: Endpoint, entry: Pick<DeliveryLogEntry, "eventId" | "type">, body: Buffer, nowMs: number): Promise<SentAttempt> {
    const { concurrency, responseTimeoutMs } = this.parts.settings;
    let agent = this.agents.get(endpoint.id);
    if (!agent) this.agents.set(endpoint.id, (agent = createAgent(endpoint.url, concurrency)));
    const deliveryId = randomUUID();
    const startedAt = new Date(nowMs).toISOString();
    const headers = {
      ...webhookHeaderValues,
      [webhookHeaders.serviceEventId]: entry.eventId,
      [webhookHeaders.serviceEventType]: entry.type,
      [webhookHeaders.serviceDeliveryId]: deliveryId,
      [webhookHeaders.serviceSignature]: sign(body, endpoint.secret),
      "Content-Length": body.length,
    };
    const outcome = await send(endpoint.url, agent, headers, body, responseTimeoutMs);
    return { ...outcome, deliveryId, startedAt };
  }

  /** Once the entry shows the state the attempt left it in. */
  told(entry: DeliveryLogEntry, record: AttemptRecord, listeners: Iterable<AttemptListener> = []): void {
    this.parts.log?.(attemptLine(entry, record));
    this.parts.observe?.(entry, record);
    for (const listener of listeners) {
      try {
        listener(snapshot(entry), { ...record });
      } catch {
        // A failing listener must not break deliveries.
      }
    }
  }

  /** The endpoint's `count`th delivery dropped at a bound (its log entry says "dropped"). */
  dropped(endpoint: Endpoint, entry: Pick<DeliveryLogEntry, "eventId" | "type">, count: number, why: string): void {
    if (!isToldDrop(count)) return;
    this.parts.onError(`hr-mock: webhooks: dropped the oldest waiting delivery for ${shownUrl(endpoint)} (${entry.type} ${entry.eventId}; ${count} dropped so far): ${why}.`);
  }

  /** An endpoint removed and quiet: its connections go. */
  forget(endpointId: string): void {
    this.agents.get(endpointId)?.destroy();
    this.agents.delete(endpointId);
  }

  close(): void {
    for (const id of [...this.agents.keys()]) this.forget(id);
  }
}
