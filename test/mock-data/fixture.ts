// Shared by the mock-data suites: a fixed "today", so every run sees the same dataset.
import { createDataset, type Dataset } from "../../mock/data/dataset.js";
import { parameters } from "../../generated/facts.js";
import { handlers } from "../../mock/operations/read/index.js";
import type { OperationId, ResourceRequest, ResourceResult } from "../../mock/operations/read/contract.js";

export const TODAY = "2026-05-14";

export function freshDataset(seed = 1, scale = 1): Dataset {
  return createDataset({ seed, scale, today: TODAY });
}

/** The spec's defaults by parameter name (PageSize 25, ...), as the HTTP layer fills them in. */
const DEFAULTS: Record<string, unknown> = Object.fromEntries(
  Object.values(parameters).flatMap((p) => ("default" in p && p.in === "query" ? [[p.name, p.default]] : [])),
);

/** Calls a handler as the HTTP layer would, for the caller's organisation: typed parameters, the spec's defaults filled in. */
export function call<Op extends OperationId>(
  dataset: Dataset,
  operationId: Op,
  organizationId: string,
  query: Partial<ResourceRequest<Op>["query"]> = {},
  path: Partial<ResourceRequest<Op>["path"]> = {},
): ResourceResult {
  const handler = handlers[operationId] as (dataset: Dataset, request: unknown) => ResourceResult;
  return handler(dataset, { organizationId, query: { ...DEFAULTS, ...query }, path });
}

/** The data of a successful result, or a thrown error that says what came instead. */
export function dataOf<T = any>(result: ResourceResult): T {
  if (!result.ok) throw new Error(`expected success, got ${result.kind}: ${result.message}`);
  return result.data as T;
}
