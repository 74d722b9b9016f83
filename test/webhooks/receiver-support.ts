// Shared by the receiver suites: signed leave.approved deliveries, a POST helper and a receiver that
// records what its callbacks saw.
import { request } from "node:http";
import { expect } from "vitest";
import {
  createReceiver,
  listen,
  sign,
  type DeliveryInfo,
  type ListeningReceiver,
  type ReceiverOptions,
  type Rejection,
  type WebhookEvent,
} from "../../src/webhooks/node/index.js";
import asyncapi from "../../generated/asyncapi.json" with { type: "json" };
import vectorFile from "./signature-vectors.json" with { type: "json" };

export const SECRET = "whsec_receiver_tests";
const leaveTemplate = JSON.parse(vectorFile.vectors.find((v) => v.name === "leave.approved event")!.body) as WebhookEvent;

/** A leave.approved body with its own id, serialized once: these exact bytes get signed. */
export function eventBody(id: string, overrides: Partial<WebhookEvent> = {}): string {
  return JSON.stringify({ ...leaveTemplate, id, ...overrides });
}

const fixedHeaders = asyncapi.components.schemas.WebhookHeaders.properties;

/** Headers the service sends with a body (the AsyncAPI WebhookHeaders), signed now. */
export function deliveryHeaders(body: string, deliveryId: string, secret = SECRET): Record<string, string> {
  const { id, type } = JSON.parse(body) as WebhookEvent;
  return {
    "Content-Type": fixedHeaders["Content-Type"].const,
    "User-Agent": fixedHeaders["User-Agent"].const,
    "Service-Event-Id": id,
    "Service-Event-Type": type,
    "Service-Delivery-Id": deliveryId,
    "Service-Signature": sign(body, secret),
  };
}

export async function post(url: string, body: string, headers: Record<string, string>) {
  const res = await fetch(url, { method: "POST", body, headers });
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, headers: res.headers };
}

/** A receiver on an ephemeral port that records what its callbacks saw. */
export class Recorder {
  events: Array<{ event: WebhookEvent; delivery: DeliveryInfo }> = [];
  errors: Array<{ error: unknown; eventId: string | undefined }> = [];
  rejections: Rejection[] = [];
  duplicates: string[] = [];
  server!: ListeningReceiver;
  private waiters: Array<{ id: string; resolve: () => void }> = [];

  constructor(private readonly extra: Partial<ReceiverOptions> & { throwFor?: Set<string> } = {}) {}

  async start(): Promise<this> {
    const { throwFor, ...options } = this.extra;
    this.server = await listen(
      createReceiver({
        secret: SECRET,
        onEvent: (event, delivery) => {
          this.events.push({ event, delivery });
          this.settle(event.id);
          if (throwFor?.has(event.id)) throw new Error(`handler failed on ${event.id}`);
        },
        onError: (error, event) => {
          this.errors.push({ error, eventId: event?.id });
          this.settle(`error:${event?.id}`);
        },
        onRejected: (rejection) => this.rejections.push(rejection),
        onDuplicate: (event) => this.duplicates.push(event.id),
        ...options,
      }),
      { port: 0 },
    );
    return this;
  }

  /** Resolves once onEvent (or, with the "error:" prefix, onError) has seen the id; fails naming it after 20 s. */
  seen(key: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for the receiver to hand on ${key}; it handed on ${this.eventIds().join(", ")}`)), 20_000);
      this.waiters.push({ id: key, resolve: () => (clearTimeout(timer), resolve()) });
    });
  }

  eventIds(): string[] {
    return this.events.map((e) => e.event.id);
  }

  private settle(key: string): void {
    for (const w of this.waiters.filter((w) => w.id === key)) w.resolve();
    this.waiters = this.waiters.filter((w) => w.id !== key);
  }
}

/**
 * "onEvent was not called for X" cannot be observed by waiting; instead a later good delivery is
 * awaited: handlers run in arrival order, so if X had been handed on it would show up before it.
 */
export async function deliverBarrier(r: Recorder, id: string): Promise<void> {
  const body = eventBody(id);
  const handled = r.seen(id);
  expect((await post(r.server.url, body, deliveryHeaders(body, `dlv_${id}`))).status, "barrier delivery").toBe(200);
  await handled;
}

/**
 * Status of a request whose body is over the cap, read with node:http so the early answer is
 * observed: either only a large Content-Length is declared (the body is never sent), or the body
 * is streamed chunked until the server answers.
 */
export function oversizeStatus(url: string, how: { declaredLength?: number; chunkedBytes?: number }): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { "Content-Type": "application/json" };
    if (how.declaredLength !== undefined) headers["Content-Length"] = how.declaredLength;
    const req = request(url, { method: "POST", headers });
    req.on("response", (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
      req.destroy(); // stop sending; the server has already answered
    });
    req.on("error", (error) => reject(error));
    if (how.declaredLength !== undefined) {
      req.flushHeaders();
      return;
    }
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    for (let sent = 0; sent < (how.chunkedBytes ?? 0); sent += chunk.length) req.write(chunk);
  });
}
