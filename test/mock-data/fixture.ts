// Shared by the mock-data suites: a fixed "today", so every run sees the same dataset.
import { createDataset, type Dataset } from "../../mock/data/dataset.js";
import { handlers } from "../../mock/resources/index.js";
import type { OperationId, ResourceRequest, ResourceResult } from "../../mock/resources/contract.js";

export const TODAY = "2026-05-14";

export function freshDataset(seed = 1, scale = 1): Dataset {
  return createDataset({ seed, scale, today: TODAY });
}

/** Calls a handler as the HTTP layer would, for the caller's organisation. */
export function call(
  dataset: Dataset,
  operationId: OperationId,
  organizationId: string,
  query: ResourceRequest["query"] = {},
  path: Record<string, string> = {},
): ResourceResult {
  return handlers[operationId](dataset, { organizationId, query, path });
}

/** The data of a successful result, or a thrown error that says what came instead. */
export function dataOf<T = any>(result: ResourceResult): T {
  if (!result.ok) throw new Error(`expected success, got ${result.status}: ${result.message}`);
  return result.data as T;
}
