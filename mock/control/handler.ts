// The control API under /_mock/ (described by ./openapi.yaml): webhook endpoints, the Test
// action, triggers and the delivery log, for the organisation of the Bearer key, which must hold
// Manage Webhooks. Answers are the read API's envelope; failures name the field at fault.
import type { IncomingMessage, ServerResponse } from "node:http";
import { authenticate, forbiddenMessage, hasPermission } from "../auth/authenticate.js";
import type { KeyRegistry } from "../auth/key-registry.js";
import { MANAGE_WEBHOOKS } from "../keys/demo-keys.js";
import { JSON_CONTENT_TYPE, failureBody, successBody } from "../server/envelope.js";
import { oneLine, printable } from "../server/text.js";
import { EndpointError, TriggerError, type WebhookEngine } from "../webhooks/engine.js";
import type { EndpointInput } from "../webhooks/endpoints.js";
import { controlSpec, type ControlOperationId, type ControlRoute } from "./spec.js";

export const CONTROL_PREFIX = "/_mock/";
const MAX_BODY_BYTES = 64 * 1024;

interface Answer {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

interface Call {
  organizationId: string;
  params: Record<string, unknown>;
  body: unknown;
}

type Operation = (engine: WebhookEngine, call: Call) => Answer | Promise<Answer>;

const ok = (status: number, data: unknown): Answer => ({ status, body: successBody(data) });
const fail = (status: number, message: string, headers?: Record<string, string>): Answer => ({ status, body: failureBody(status, message), headers });

const OPERATIONS: Record<ControlOperationId, Operation> = {
  listWebhookEndpoints: (engine, { organizationId }) => ok(200, engine.listEndpoints(organizationId)),
  addWebhookEndpoint: (engine, { organizationId, body }) => ok(201, engine.addEndpoint(body as EndpointInput, organizationId)),
  removeWebhookEndpoint: (engine, { organizationId, params }) => {
    const removed = engine.removeEndpoint(String(params.id), organizationId);
    return removed ? ok(200, removed) : fail(404, `Not found: no webhook endpoint with id ${String(params.id)} in this organisation (id).`);
  },
  testWebhookEndpoint: async (engine, { organizationId, params }) => ok(202, await engine.testEndpoint(String(params.id), organizationId)),
  triggerWebhookEvent: async (engine, { organizationId, body }) => {
    const { type, id } = body as { type: string; id?: string };
    return ok(202, await engine.trigger(type, { id, organisation: organizationId }));
  },
  listWebhookDeliveries: (engine, { organizationId, params }) =>
    ok(
      200,
      engine.deliveries({
        organizationId,
        eventId: params.eventId as string | undefined,
        endpointId: params.endpointId as string | undefined,
        limit: params.limit as number | undefined,
      }),
    ),
};

export interface ControlApiOptions {
  engine: WebhookEngine;
  keys: KeyRegistry;
  /** Internal errors, one line each. */
  onError: (line: string) => void;
}

/** A request handler for everything under /_mock/. */
export function createControlHandler({ engine, keys, onError }: ControlApiOptions): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const spec = controlSpec(); // compiled once, at start-up
  return async (req, res) => {
    let answer: Answer;
    try {
      answer = await handle(req, spec.routes, engine, keys);
    } catch (error) {
      onError(`hr-mock: internal error in the control API on ${req.method} ${printable(pathOf(req.url), 200)}: ${printable(oneLine(String((error as Error)?.stack ?? error), 1000), 200)}`);
      answer = fail(500, "Internal error: the mock failed while answering; its log has the cause.");
    }
    if (res.headersSent || res.destroyed) return;
    res.writeHead(answer.status, {
      ...answer.headers,
      "Content-Type": JSON_CONTENT_TYPE,
      "Content-Length": Buffer.byteLength(answer.body),
      "Cache-Control": "no-store",
    });
    res.end(answer.body);
  };
}

async function handle(req: IncomingMessage, routes: ControlRoute[], engine: WebhookEngine, keys: KeyRegistry): Promise<Answer> {
  const method = (req.method ?? "GET").toUpperCase();
  const url = new URL(req.url ?? "/", "http://mock.invalid");
  const path = url.pathname;
  const matching = routes.filter((r) => r.pattern.test(path));
  if (matching.length === 0) {
    drain(req);
    return fail(404, `Not found: no control operation at ${printable(path, 200)}; the control API is described in mock/control/openapi.yaml.`);
  }
  const route = matching.find((r) => r.method === method);
  if (!route) {
    drain(req);
    const allow = matching.map((r) => r.method).join(", ");
    return fail(404, `Not found: ${/^[A-Z]{1,16}$/.test(method) ? method : "this method"} is not an operation of ${printable(path, 200)}; it answers ${allow}.`, { Allow: allow });
  }

  const header = req.headers.authorization;
  const auth = authenticate(Array.isArray(header) ? header[0] : header, keys);
  if (!auth.ok) {
    drain(req);
    return fail(401, auth.message, { "WWW-Authenticate": "Bearer" });
  }
  if (!hasPermission(auth.apiKey, MANAGE_WEBHOOKS)) {
    drain(req);
    return fail(403, forbiddenMessage(MANAGE_WEBHOOKS));
  }

  const match = route.pattern.exec(path) ?? [];
  const given: Record<string, string | undefined> = {};
  route.pathParams.forEach((name, i) => (given[name] = safeDecode(match[i + 1] ?? "")));
  for (const [name, value] of url.searchParams) given[name] = value;
  const params = route.checkParams(given);
  if (!params.ok) {
    drain(req);
    return fail(400, params.message);
  }

  let body: unknown;
  if (route.checkBody) {
    const read = await readJson(req);
    // Closing stops a client that is still streaming an oversized body.
    if (!read.ok) return fail(read.status, read.message, read.status === 413 ? { Connection: "close" } : undefined);
    body = read.value;
    const problem = route.checkBody(body);
    if (problem) return fail(400, problem);
  } else {
    drain(req);
  }

  try {
    return await OPERATIONS[route.operationId](engine, { organizationId: auth.apiKey.organizationId, params: params.values, body });
  } catch (error) {
    if (error instanceof TriggerError) return fail(error.status, error.message);
    if (error instanceof EndpointError) {
      const prefix = error.status === 409 ? "" : error.status === 404 ? "Not found: " : "Bad request: ";
      const field = error.field ? ` (${error.field})` : "";
      return fail(error.status, `${prefix}${error.message}${field}.`);
    }
    throw error;
  }
}

type JsonRead = { ok: true; value: unknown } | { ok: false; status: number; message: string };

/** The request body as JSON: an object, at most 64 KiB. */
function readJson(req: IncomingMessage): Promise<JsonRead> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (result: JsonRead) => {
      if (done) return;
      done = true;
      resolve(result);
    };
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        finish({ ok: false, status: 413, message: `Payload too large: the body exceeds ${MAX_BODY_BYTES} bytes.` });
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on("error", () => finish({ ok: false, status: 400, message: "Bad request: the body could not be read." }));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      if (text.trim() === "") return finish({ ok: false, status: 400, message: "Bad request: the body is empty; send a JSON object (body)." });
      try {
        const value: unknown = JSON.parse(text);
        if (typeof value !== "object" || value === null || Array.isArray(value)) {
          return finish({ ok: false, status: 400, message: "Bad request: the body must be a JSON object (body)." });
        }
        finish({ ok: true, value });
      } catch (error) {
        finish({ ok: false, status: 400, message: `Bad request: the body is not valid JSON: ${printable((error as Error).message, 200)} (body).` });
      }
    });
  });
}

/** Reads and discards a body nobody needs, so the connection can be reused. */
function drain(req: IncomingMessage): void {
  req.resume();
}

function pathOf(url: string | undefined): string {
  return (url ?? "").split("?")[0];
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

