// What the contract suite's requests covered of the read API, as the coverage report the mock's
// GET /_mock/coverage writes (src/coverage/report.ts): every operation with the requests the suite
// sent it, the statuses declared against those it got, the parameters declared against those used.
// The operations come from the bundled document (ContractSpec); each request is put to the
// operation whose path template its path fits.
import { apiCoverage, type CoverageReport, type DeclaredOperation, type OperationCounts } from "../coverage/report.js";
import type { Exchange } from "./exchange.js";
import type { ContractSpec, OperationId } from "./openapi.js";

export function contractCoverage(spec: ContractSpec, exchanges: readonly Exchange[], scope: string, now: Date): CoverageReport {
  const declared: DeclaredOperation[] = spec.operations.map((op) => ({
    operationId: op.operationId,
    method: op.method,
    path: op.path,
    statuses: spec.documentedStatuses(op.operationId as OperationId),
    pathParameters: [...op.pathParams],
    queryParameters: [...op.queryParams],
  }));
  const templates = declared.map((op) => ({ id: op.operationId, segments: op.path.split("/") }));
  const counts = new Map<string, { requests: number; statuses: Map<number, number>; parameters: Map<string, number> }>();
  let unmatched = 0;
  for (const exchange of exchanges) {
    const segments = exchange.path.split("/");
    const match = templates.find((t) => t.segments.length === segments.length && t.segments.every((s, i) => (/^\{.+\}$/.test(s) ? segments[i] !== "" : s === segments[i])));
    if (!match) {
      unmatched++;
      continue;
    }
    let count = counts.get(match.id);
    if (!count) counts.set(match.id, (count = { requests: 0, statuses: new Map(), parameters: new Map() }));
    count.requests++;
    // A request that got no answer (a network failure) has no status to count.
    if (exchange.status !== undefined) count.statuses.set(exchange.status, (count.statuses.get(exchange.status) ?? 0) + 1);
    for (const name of new Set(exchange.query.map(([n]) => n))) count.parameters.set(name, (count.parameters.get(name) ?? 0) + 1);
  }
  return {
    tool: "hr-contract",
    scope,
    generatedAt: now.toISOString(),
    api: apiCoverage(declared, (id): OperationCounts | undefined => counts.get(id), unmatched),
    webhooks: null,
  };
}
