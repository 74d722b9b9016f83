// The control API's operations (mock/control/openapi.yaml) for the request pipeline: each calls the
// webhook service for the caller's organisation. The body and parameters arrive validated against the
// control document, so the service checks only what the document cannot say (a URL's host, an
// unknown id, the endpoint limit) and answers a reason; statusOf (mock/server/operations.ts) is
// where a reason's kind becomes a status.
import type { OperationResult, OperationTable } from "../server/operations.js";
import type { EndpointInput } from "../webhooks/endpoints.js";
import type { Reason, Result } from "../webhooks/reasons.js";
import type { WebhookService } from "../webhooks/service.js";
import type { TriggerRequest } from "../webhooks/triggers.js";

/** The path under which the control API's operations live (the document's paths all start with it). */
export const CONTROL_PREFIX = "/_mock/";

export function controlOperations(service: WebhookService): OperationTable {
  return {
    listWebhookEndpoints: ({ organizationId }) => ({ ok: true, data: service.listEndpoints(organizationId) }),
    addWebhookEndpoint: ({ organizationId, body }) => answer(service.addEndpoint(organizationId, body as EndpointInput)),
    removeWebhookEndpoint: ({ organizationId, path }) => answer(service.removeEndpoint(organizationId, String(path.id))),
    testWebhookEndpoint: ({ organizationId, path }) => answer(service.trigger({ organizationId, type: "webhook.test", id: String(path.id) })),
    triggerWebhookEvent: ({ organizationId, body }) => answer(service.trigger({ ...(body as TriggerRequest), organizationId })),
    listWebhookDeliveries: ({ organizationId, query }) => ({
      ok: true,
      data: service.deliveries({ organizationId, eventId: query.eventId as string | undefined, endpointId: query.endpointId as string | undefined, limit: query.limit as number | undefined }),
    }),
  };
}

/** The words the envelope's message starts with, per kind of refusal. */
const LEAD: Record<Reason["kind"], string> = { invalid: "Bad request: ", "not-found": "Not found: ", conflict: "Conflict: ", unavailable: "Service unavailable: " };

/** A service result as the pipeline's: data, or the refusal with a message naming the field. */
function answer<T>(result: Result<T>): OperationResult {
  if (result.ok) return { ok: true, data: result.value };
  const { kind, field, message } = result.reason;
  return { ok: false, kind, message: `${LEAD[kind]}${message}${field ? ` (${field})` : ""}.` };
}
