// The control API's operations for the request pipeline: the webhook operations act on the webhook
// service of the caller's world for the caller's organisation (sandboxes, faults, the journal and
// pacts have modules of their own). Bodies and parameters arrive validated against the control
// document; the service checks only what it cannot say (a URL's host, an unknown id, the endpoint limit).
import type { OperationCall, OperationResult, OperationTable } from "../operation.js";
import type { SpecOperation } from "../../kernel/spec.js";
import type { Worlds } from "../../worlds/world.js";
import type { EndpointInput } from "../../webhooks/endpoints.js";
import { operationResult, refusalText, type Result } from "../../kernel/results.js";
import { andThen, type Awaitable } from "../../kernel/awaitable.js";
import type { WorldWebhooks } from "../../webhooks/port.js";
import type { TriggerRequest } from "../../webhooks/triggers.js";
import type { ResendFilter } from "../../webhooks/resend.js";
import type { components } from "../../../generated/control-api.js";
import { datasetToDataFile } from "../../data/export.js";
import { sandboxOperations } from "./sandboxes.js";
import { journalOperations } from "./journal.js";
import { pactOperations } from "./pact.js";

type ResendRequest = components["schemas"]["ResendRequest"];

export function controlOperations(worlds: Worlds, operations: ReadonlyMap<string, SpecOperation>): OperationTable {
  return {
    listWebhookEndpoints: webhooks(({ organizationId }, service) => andThen(service.listEndpoints(organizationId), (data) => ({ ok: true, data }))),
    addWebhookEndpoint: webhooks(({ organizationId, body }, service) => answer(service.addEndpoint(organizationId, body as EndpointInput))),
    removeWebhookEndpoint: webhooks(({ organizationId, path }, service) => answer(service.removeEndpoint(organizationId, String(path.id)))),
    testWebhookEndpoint: webhooks(({ organizationId, path }, service) => answer(service.trigger({ organizationId, type: "webhook.test", id: String(path.id) }))),
    triggerWebhookEvent: webhooks(({ organizationId, body }, service) => answer(service.trigger({ ...(body as TriggerRequest), organizationId }))),
    resendWebhookEvent: webhooks(({ organizationId, path, body }, service) => answer(service.resend(organizationId, String(path.eventId), (body as ResendRequest | undefined)?.endpointId))),
    resendWebhookEvents: webhooks(({ organizationId, body }, service) => answer(service.resendMatching(organizationId, body as ResendFilter))),
    listWebhookDeliveries: webhooks(({ organizationId, query }, service) =>
      andThen(service.deliveries({ organizationId, eventId: query.eventId as string | undefined, endpointId: query.endpointId as string | undefined, limit: query.limit as number | undefined }), (data) => ({ ok: true, data })),
    ),
    // GET /_mock/data: the caller's world's dataset as a data file (hr-mock export --mock-url).
    exportData: ({ world }) => ({ ok: true, data: datasetToDataFile(world.dataset) }),
    ...sandboxOperations(worlds, operations),
    ...journalOperations(worlds, operations),
    ...pactOperations(worlds),
  };
}

/** A service's answer, now or when it comes, as the operation's result. */
function answer<T>(result: Awaitable<Result<T>>): Awaitable<OperationResult> {
  return andThen(result, (done) => operationResult(done));
}

/** An operation on the webhook service of the caller's world. */
function webhooks(operation: (call: OperationCall, service: WorldWebhooks) => Awaitable<OperationResult>): (call: OperationCall) => Awaitable<OperationResult> {
  return (call) => {
    const service = call.world.webhooks;
    if (!service) return { ok: false, kind: "unavailable", message: refusalText({ kind: "unavailable", message: "this mock has no webhook engine" }) };
    return operation(call, service);
  };
}
