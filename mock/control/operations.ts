// The control API's operations (mock/control/openapi.yaml) for the request pipeline: each calls the
// webhook engine for the caller's organisation. The body and parameters arrive validated against the
// control document; what the engine refuses (a URL's host, an unknown id, the endpoint limit) comes
// back as a refusal in domain terms.
import type { OperationResult, OperationTable, RefusalKind } from "../server/operations.js";
import { EndpointError, TriggerError, type WebhookEngine } from "../webhooks/engine.js";
import type { EndpointInput } from "../webhooks/endpoints.js";

/** The path under which the control API's operations live (the document's paths all start with it). */
export const CONTROL_PREFIX = "/_mock/";

export function controlOperations(engine: WebhookEngine): OperationTable {
  return {
    listWebhookEndpoints: ({ organizationId }) => ok(engine.listEndpoints(organizationId)),
    addWebhookEndpoint: ({ organizationId, body }) => refused(() => ok(engine.addEndpoint(body as EndpointInput, organizationId))),
    removeWebhookEndpoint: ({ organizationId, path }) => {
      const removed = engine.removeEndpoint(String(path.id), organizationId);
      return removed ? ok(removed) : { ok: false, kind: "not-found", message: `Not found: no webhook endpoint with id ${String(path.id)} in this organisation (id).` };
    },
    testWebhookEndpoint: ({ organizationId, path }) => refused(async () => ok(await engine.testEndpoint(String(path.id), organizationId))),
    triggerWebhookEvent: ({ organizationId, body }) => {
      const { type, id } = body as { type: string; id?: string };
      return refused(async () => ok(await engine.trigger(type, { id, organisation: organizationId })));
    },
    listWebhookDeliveries: ({ organizationId, query }) =>
      ok(engine.deliveries({ organizationId, eventId: query.eventId as string | undefined, endpointId: query.endpointId as string | undefined, limit: query.limit as number | undefined })),
  };
}

const ok = (data: unknown): OperationResult => ({ ok: true, data });

const KINDS: Record<number, RefusalKind> = { 400: "invalid", 404: "not-found", 409: "conflict", 503: "unavailable" };

/** The engine's errors as refusals; anything else (a 500 of the engine included) is a bug and propagates. */
function refused(run: () => OperationResult | Promise<OperationResult>): OperationResult | Promise<OperationResult> {
  const translate = (error: unknown): OperationResult => {
    const kind = error instanceof EndpointError || error instanceof TriggerError ? KINDS[error.status] : undefined;
    if (!kind) throw error;
    if (error instanceof TriggerError) return { ok: false, kind, message: error.message };
    const prefix = kind === "conflict" ? "" : kind === "not-found" ? "Not found: " : "Bad request: ";
    const field = (error as EndpointError).field ? ` (${(error as EndpointError).field})` : "";
    return { ok: false, kind, message: `${prefix}${(error as Error).message}${field}.` };
  };
  try {
    const result = run();
    return result instanceof Promise ? result.catch(translate) : result;
  } catch (error) {
    return translate(error);
  }
}
