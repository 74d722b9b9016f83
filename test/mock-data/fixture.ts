// Shared by the mock-data suites: a fixed "today", so every run sees the same dataset.
import { forkDataset, writableOrganization } from "../../mock/data/copy-on-write.js";
import type { Dataset } from "../../mock/data/dataset.js";
import { sharedStartDataset } from "../../mock/data/start-datasets.js";
import { parameters } from "../../generated/facts.js";
import { handlers } from "../../mock/operations/read/index.js";
import type { OperationId, ResourceRequest, ResourceResult } from "../../mock/operations/read/contract.js";

export const TODAY = "2026-05-14";

/**
 * A dataset as createDataset({ seed, scale, today: TODAY }) makes it, to read or change: a fork of the
 * start the mocks of this process share (start-datasets.ts), so it is generated once per worker, not
 * per test. Each organisation is the fork's own from the start (its arrays and indexes copied, the
 * records shared, as copy-on-write.ts does on a first change), so an organisation read before a
 * change is the one the change updates; a change that reached the start would show in the next
 * test's dataset. Tests of generation itself call createDataset.
 */
export function freshDataset(seed = 1, scale = 1): Dataset {
  const dataset = forkDataset(sharedStartDataset({ seed, scale, today: TODAY }));
  for (const org of dataset.organizations) writableOrganization(dataset, org.id);
  return dataset;
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
