// Shared by the webhook engine suites: a test receiver built on src/webhooks' createReceiver that
// records every request and can be told how to answer, a client for the control API, and
// validators for headers and bodies from the bundled AsyncAPI document.
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { DEMO_KEY, type RunningMock } from "../../mock/index.js";
import { isFinal, type DeliveryLogEntry } from "../../mock/webhooks/delivery-log.js";
import { createReceiver, listen, type ListeningReceiver, type Rejection, type WebhookEvent } from "../../src/webhooks/node/index.js";
import { expect } from "vitest";
import { createDocumentValidator } from "../../scripts/lib/spec-validator.js";
import { loadAsyncApi } from "../../scripts/lib/spec-document.js";
import { bundleApi } from "../../scripts/generate/bundle.js";

export const WEBHOOKS_KEY = DEMO_KEY.org1WebhooksAdmin;
export const ORG2_WEBHOOKS_KEY = DEMO_KEY.org2Full;

/** How the receiver answers one request: hand it to createReceiver (after an optional delay), or answer itself. */
export type Behaviour =
  | { kind: "verify"; delayMs?: number }
  | { kind: "status"; status: number; headers?: Record<string, string>; body?: string }
  | { kind: "hold" };

export interface ReceivedRequest {
  /** 1 for the first request this receiver got. */
  number: number;
  headers: IncomingHttpHeaders;
  deliveryId: string | undefined;
  eventId: string | undefined;
  /** What the receiver did with it. */
  behaviour: Behaviour["kind"];
}

/**
 * A receiver on 127.0.0.1:0 that verifies with createReceiver once `useSecret` is called. Every
 * request is recorded; `answer` decides per request (by its number) how it is answered.
 */
export class TestReceiver {
  readonly requests: ReceivedRequest[] = [];
  readonly events: Array<{ event: WebhookEvent; deliveryId: string | undefined }> = [];
  readonly rejections: Rejection[] = [];
  readonly duplicates: Array<{ eventId: string; deliveryId: string | undefined }> = [];
  answer: (request: ReceivedRequest) => Behaviour = () => ({ kind: "verify" });
  server!: ListeningReceiver;
  private verifier: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  private readonly held: ServerResponse[] = [];
  private waiters: Array<() => void> = [];

  async start(port = 0): Promise<this> {
    this.server = await listen((req, res) => this.handle(req, res), { port });
    return this;
  }

  get url(): string {
    return `${this.server.url}/hooks`;
  }

  useSecret(secret: string): this {
    this.verifier = createReceiver({
      secret,
      onEvent: (event, delivery) => {
        this.events.push({ event, deliveryId: delivery.deliveryId });
        this.notify();
      },
      onRejected: (rejection) => {
        this.rejections.push(rejection);
        this.notify();
      },
      onDuplicate: (event, delivery) => {
        this.duplicates.push({ eventId: event.id, deliveryId: delivery.deliveryId });
        this.notify();
      },
    });
    return this;
  }

  /** Resolves once the condition holds; checked after every request and event. */
  until(condition: () => boolean, what: string, timeoutMs = WAIT_BOUND_MS): Promise<void> {
    if (condition()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}; got ${this.describe()}`)), timeoutMs);
      const check = () => {
        if (!condition()) return false;
        clearTimeout(timer);
        resolve();
        return true;
      };
      const waiter = () => {
        if (!check()) this.waiters.push(waiter);
      };
      this.waiters.push(waiter);
    });
  }

  /** The verified event with this id (waits for it). */
  async event(id: string): Promise<WebhookEvent> {
    await this.until(() => this.events.some((e) => e.event.id === id), `event ${id}`);
    return this.events.find((e) => e.event.id === id)!.event;
  }

  requestsFor(eventId: string): ReceivedRequest[] {
    return this.requests.filter((r) => r.eventId === eventId);
  }

  /** Answers every held request with 200 (without verifying). */
  releaseHeld(): void {
    for (const res of this.held.splice(0)) if (!res.writableEnded && !res.destroyed) res.writeHead(200).end("{}");
  }

  async close(): Promise<void> {
    this.releaseHeld();
    this.server.server.closeAllConnections();
    await this.server.close();
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const request: ReceivedRequest = {
      number: this.requests.length + 1,
      headers: req.headers,
      deliveryId: single(req.headers["service-delivery-id"]),
      eventId: single(req.headers["service-event-id"]),
      behaviour: "verify",
    };
    const behaviour = this.answer(request);
    request.behaviour = behaviour.kind;
    this.requests.push(request);
    this.notify();
    if (behaviour.kind === "status") {
      req.resume();
      res.writeHead(behaviour.status, { "Content-Type": "application/json", ...behaviour.headers }).end(behaviour.body ?? "{}");
    } else if (behaviour.kind === "hold") {
      req.resume();
      this.held.push(res);
    } else {
      const verify = this.verifier;
      if (!verify) throw new Error("TestReceiver: useSecret() was not called before a delivery");
      if (behaviour.delayMs) setTimeout(() => verify(req, res), behaviour.delayMs);
      else verify(req, res);
    }
  }

  private notify(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) waiter();
  }

  private describe(): string {
    return `${this.requests.length} requests, ${this.events.length} verified events, ${this.rejections.length} rejections (${this.rejections.map((r) => r.reason).join(", ")})`;
  }
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export interface ControlAnswer {
  status: number;
  body: any;
  headers: Headers;
}

/** One call of the control API with a key, or with none when key is null. */
export async function control(mock: RunningMock, method: string, path: string, body?: unknown, key: string | null = WEBHOOKS_KEY): Promise<ControlAnswer> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (key !== null) headers.authorization = `Bearer ${key}`;
  const response = await fetch(mock.url + path, { method, headers, body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body) });
  const text = await response.text();
  let parsed: any = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // left as text: the assertion will show it
  }
  return { status: response.status, body: parsed, headers: response.headers };
}

/** Adds an endpoint through the control API and has the receiver verify with its secret. */
export async function register(mock: RunningMock, receiver: TestReceiver, extra: Record<string, unknown> = {}, key: string = WEBHOOKS_KEY): Promise<{ id: string; secret: string }> {
  const answer = await control(mock, "POST", "/_mock/webhooks/endpoints", { url: receiver.url, ...extra }, key);
  if (answer.status !== 201) throw new Error(`registering ${receiver.url} failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  receiver.useSecret(answer.body.data.secret);
  return { id: answer.body.data.id, secret: answer.body.data.secret };
}

/** How long a wait for something the mock will do may take before the test fails saying what it waited for. */
export const WAIT_BOUND_MS = 60_000;

/**
 * The log entry of an event to an endpoint once it is final (isFinal: succeeded, failed, cancelled,
 * stopped). Checked now and after every attempt (a removal or close() that ends it without an
 * attempt happens before the call); fails naming the delivery after WAIT_BOUND_MS.
 */
export async function settled(mock: RunningMock, eventId: string, endpointId: string): Promise<DeliveryLogEntry> {
  const final = async () => (await mock.webhooks.deliveries({ eventId, endpointId })).find((entry) => isFinal(entry.state));
  const found = await final();
  if (found) return found;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(async () => {
      stop();
      const log = JSON.stringify(await mock.webhooks.deliveries({ eventId, endpointId })).slice(0, 600);
      reject(new Error(`timed out waiting for the delivery of ${eventId} to ${endpointId} to finish; the log: ${log}`));
    }, WAIT_BOUND_MS);
    const stop = mock.webhooks.onAttempt(async () => {
      const entry = await final();
      if (!entry) return;
      clearTimeout(timer);
      stop();
      resolve(entry);
    });
  });
}

/** Removes every endpoint of both organisations, so one test's endpoints get no other test's events. */
export async function removeAllEndpoints(mock: RunningMock): Promise<void> {
  for (const organisation of [1, 2]) for (const e of await mock.webhooks.listEndpoints(organisation)) await mock.webhooks.removeEndpoint(e.id, organisation);
}

/** Fires an event through the control API. */
export async function trigger(mock: RunningMock, type: string, id?: string, key: string = WEBHOOKS_KEY): Promise<ControlAnswer> {
  return control(mock, "POST", "/_mock/webhooks/events", id === undefined ? { type } : { type, id }, key);
}

const asyncapi = loadAsyncApi();
const asyncapiValidator = createDocumentValidator(asyncapi, "asyncapi");

/** Errors of a body against its type's event schema in the AsyncAPI document. */
export function eventSchemaErrors(body: WebhookEvent): string[] {
  const message = Object.values<any>(asyncapi.components.messages).find((m) => m.name === body.type);
  if (!message) return [`no AsyncAPI message named ${body.type}`];
  return asyncapiValidator.validate(message.payload.$ref.slice(1), body);
}

/** Errors of delivery headers (names as sent) against the AsyncAPI WebhookHeaders schema. */
export function headerSchemaErrors(headers: IncomingHttpHeaders): string[] {
  const schema = asyncapi.components.schemas.WebhookHeaders;
  // Node lower-cases header names; the schema spells them as the document does.
  const byName: Record<string, unknown> = {};
  for (const name of Object.keys(schema.properties)) byName[name] = headers[name.toLowerCase()];
  return asyncapiValidator.validate("/components/schemas/WebhookHeaders", byName);
}

let controlDocument: Promise<any> | undefined;
/** The control API's document (mock/control/openapi/, the root redocly.yaml names) bundled into one, as npm run generate bundles it, for Ajv. */
export function bundledControlSpec(): Promise<any> {
  controlDocument ??= bundleApi("mock-control");
  return controlDocument;
}

/** Fails unless the answer's body is what the control document declares for its operation and status. */
export type AnswerCheck = (path: string, method: string, answer: ControlAnswer) => void;

/** The check of control API answers against the control document (bundled once). */
export async function controlAnswerChecker(): Promise<AnswerCheck> {
  const spec = await bundledControlSpec();
  const validator = createDocumentValidator(spec, "control");
  return (path, method, answer) => {
    const template = Object.keys(spec.paths).find((t) => new RegExp(`^${t.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(path.split("?")[0]));
    expect(template, `a path of the control spec matches ${path}`).toBeDefined();
    const responses = spec.paths[template!][method.toLowerCase()].responses;
    let response = responses[String(answer.status)];
    expect(response, `${method} ${template} lists status ${answer.status}`).toBeDefined();
    if (response.$ref) response = response.$ref.slice(2).split("/").reduce((node: any, key: string) => node[key], spec);
    const schema = response.content["application/json"].schema;
    const pointer = schema.$ref ? schema.$ref.slice(1) : undefined;
    expect(pointer, "response schemas are components").toBeDefined();
    expect(validator.validate(pointer, answer.body), `${method} ${path} ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`).toEqual([]);
  };
}
