// A world's coverage report (GET /_mock/coverage): every operation of the read API with what the
// world's requests did of it (the journal's tally, which outlasts its ring), and every event type
// with the deliveries to the world's endpoints (its delivery log). Built by the light package's
// src/coverage, which hr-contract shares, so both sides write one format.
import { webhookEventTypes } from "../../../generated/events.js";
import { apiCoverage, webhookCoverage, type CoverageReport, type DeclaredOperation, type DeliveryRecord } from "../../../src/coverage/report.js";
import type { SpecOperation } from "../../kernel/spec.js";
import { isFinal, type DeliveryLogEntry } from "../../webhooks/delivery-log.js";
import { andThen, type Awaitable } from "../../kernel/awaitable.js";
import type { World } from "../world.js";

/** The read API's operations as the coverage report declares them, from the spec the mock serves. */
export function declaredOperations(operations: readonly SpecOperation[]): DeclaredOperation[] {
  return operations
    .filter((op) => op.api === "read")
    .map((op) => ({ operationId: op.operationId, method: op.method, path: op.path, statuses: op.statuses, pathParameters: op.pathParams.map((p) => p.name), queryParameters: op.queryParams.map((p) => p.name) }));
}

export function worldCoverage(world: World, declared: readonly DeclaredOperation[], now: Date = new Date()): Awaitable<CoverageReport> {
  return andThen(world.journal.view(), ({ tally }) => {
    const api = apiCoverage(declared, (id) => tally.operations.get(id), tally.unmatched);
    const service = world.webhooks;
    const report = (webhooks: CoverageReport["webhooks"]): CoverageReport => ({ tool: "hr-mock", scope: world.id, generatedAt: now.toISOString(), api, webhooks });
    if (!service) return report(null);
    return andThen(service.deliveries({ limit: Number.POSITIVE_INFINITY }), (entries) => report(webhookCoverage(webhookEventTypes, deliveriesOf(entries))));
  });
}

function* deliveriesOf(entries: readonly DeliveryLogEntry[]): Generator<DeliveryRecord> {
  for (const entry of entries) {
    const outcome = entry.state === "succeeded" ? "succeeded" : isFinal(entry.state) ? "failed" : "pending";
    yield { type: entry.type, outcome, attempts: entry.attempts.map((a) => a.status) };
  }
}
