// The coverage report, built the same way on both sides of the contract: by the mock, from the
// requests a world received (GET /_mock/coverage, hr-mock coverage), and by hr-contract, from the
// requests its suite sent (--coverage FILE). Its format is the control document's CoverageReport
// (generated/coverage.ts); the operations and event types come from the specs, never from here.
import type { CoverageApi, CoverageEvent, CoverageOperation, CoverageReport, CoverageWebhooks } from "../../generated/coverage.js";

export type { CoverageApi, CoverageEvent, CoverageOperation, CoverageReport, CoverageWebhooks };

/** An operation of the read API as its document declares it. */
export interface DeclaredOperation {
  operationId: string;
  method: string;
  path: string;
  /** Response codes as the document writes them (200, 5XX). */
  statuses: readonly string[];
  pathParameters: readonly string[];
  queryParameters: readonly string[];
}

/** What a run did of one operation. */
export interface OperationCounts {
  requests: number;
  /** Requests by the status answered. */
  statuses: ReadonlyMap<number, number>;
  /** Requests by query parameter name as sent (any letter case). */
  parameters: ReadonlyMap<string, number>;
}

/** A delivery of an event to an endpoint, as a delivery log keeps it. */
export interface DeliveryRecord {
  type: string;
  /** Whether it ended with a 2xx (succeeded), ended without one (failed), or is still under way. */
  outcome: "succeeded" | "failed" | "pending";
  /** Each attempt's answer: the status, or null when none came in time. */
  attempts: readonly (number | null)[];
}

/** A part of a whole as a percentage with one decimal (0 of 0 is 0). */
export function percentOf(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 1000) / 10;
}

/** Every declared operation with its counts (none when the run never reached it). */
export function apiCoverage(declared: readonly DeclaredOperation[], countsOf: (operationId: string) => OperationCounts | undefined, unmatched: number): CoverageApi {
  const operations = declared.map((operation) => operationCoverage(operation, countsOf(operation.operationId)));
  const exercised = operations.filter((o) => o.requests > 0).length;
  const requests = operations.reduce((sum, o) => sum + o.requests, 0) + unmatched;
  return { percent: percentOf(exercised, operations.length), exercised, total: operations.length, requests, unmatched, operations };
}

function operationCoverage(operation: DeclaredOperation, counts: OperationCounts | undefined): CoverageOperation {
  const requests = counts?.requests ?? 0;
  const seen: Record<string, number> = {};
  for (const [status, count] of [...(counts?.statuses ?? new Map<number, number>())].sort(([a], [b]) => a - b)) seen[String(status)] = count;
  const byLowerName = new Map(operation.queryParameters.map((name) => [name.toLowerCase(), name]));
  const used: Record<string, number> = {};
  // A path parameter is part of every request routed to the operation.
  if (requests > 0) for (const name of operation.pathParameters) used[name] = requests;
  const unknown: string[] = [];
  for (const [sent, count] of counts?.parameters ?? new Map<string, number>()) {
    const name = byLowerName.get(sent.toLowerCase());
    if (name === undefined) unknown.push(sent);
    else used[name] = (used[name] ?? 0) + count;
  }
  const declared = [...operation.pathParameters, ...operation.queryParameters];
  const ordered: Record<string, number> = {};
  for (const name of declared) if (used[name] !== undefined) ordered[name] = used[name];
  return {
    operationId: operation.operationId,
    method: operation.method.toUpperCase(),
    path: operation.path,
    requests,
    statuses: { declared: [...operation.statuses], seen },
    parameters: { declared, used: ordered, unknown },
  };
}

/** Every event type with its deliveries and the answers its attempts got. */
export function webhookCoverage(types: readonly string[], deliveries: Iterable<DeliveryRecord>): CoverageWebhooks {
  const events = new Map<string, CoverageEvent>(types.map((type) => [type, { type: type as CoverageEvent["type"], deliveries: 0, attempts: 0, answers: {}, succeeded: 0, failed: 0 }]));
  for (const delivery of deliveries) {
    const event = events.get(delivery.type);
    if (!event) continue;
    event.deliveries++;
    if (delivery.outcome === "succeeded") event.succeeded++;
    if (delivery.outcome === "failed") event.failed++;
    for (const status of delivery.attempts) {
      event.attempts++;
      const answer = status === null ? "none" : String(status);
      event.answers[answer] = (event.answers[answer] ?? 0) + 1;
    }
  }
  const list = [...events.values()];
  const exercised = list.filter((e) => e.deliveries > 0).length;
  return { percent: percentOf(exercised, list.length), exercised, total: list.length, events: list };
}

/** The operations (and, when the report has webhooks, the event types) a run never reached. */
export function neverExercised(report: CoverageReport): { operations: CoverageOperation[]; events: CoverageEvent[] } {
  return {
    operations: report.api.operations.filter((o) => o.requests === 0),
    events: report.webhooks?.events.filter((e) => e.deliveries === 0) ?? [],
  };
}
