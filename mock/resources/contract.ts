// The seam between the HTTP layer (mock/server/) and the resource handlers (mock/resources/).
// The HTTP layer authenticates, rate-limits and validates the request against the spec through
// Prism, then calls the handler of the operation; the handler answers from the seeded dataset.
import type { components, operations } from "../../generated/api.js";
import type { Dataset } from "../data/dataset.js";

export type Schemas = components["schemas"];
export type OperationId = keyof operations;

/** What a handler knows about the request. */
export interface ResourceRequest {
  /** The organisation of the caller's API key. */
  organizationId: string;
  /** Query parameters as they came in the URL: a repeated parameter gives an array. */
  query: Record<string, string | string[] | undefined>;
  /** Path parameters by name (`id`). */
  path: Record<string, string>;
}

export type ResourceResult =
  | { ok: true; data: unknown }
  /** A failure the handler decides (a bad combination of parameters, an unknown id): 400 or 404. */
  | { ok: false; status: 400 | 404; message: string };

export type ResourceHandler = (dataset: Dataset, request: ResourceRequest) => ResourceResult;

export type ResourceHandlers = Record<OperationId, ResourceHandler>;
