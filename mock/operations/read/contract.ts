// The seam between the request pipeline (mock/pipeline/) and the resource handlers (this folder).
// Prism has routed the request and validated its parameters against the spec; the handler
// receives them typed (operations[Op]["parameters"]) with the spec's defaults filled in, and
// keeps only the rules the spec cannot express (StartDate with EndDate, ids of the organisation).
import type { components, operations } from "../../../generated/api.js";
import type { parameters } from "../../../generated/facts.js";
import type { Dataset } from "../../data/dataset.js";
import type { OperationResult, OperationTable } from "../operation.js";

export type Schemas = components["schemas"];
export type OperationId = keyof operations;

/** Names of the parameters the spec gives a default: a handler always receives them. */
type DefaultedName = { [K in keyof typeof parameters]: (typeof parameters)[K] extends { default: unknown } ? (typeof parameters)[K]["name"] : never }[keyof typeof parameters];

type Given<T> = [T] extends [undefined] ? Record<string, never> : NonNullable<T>;
type Defaulted<Q> = Q & Required<Pick<Q, Extract<keyof Q, DefaultedName>>>;

/** What a handler knows about the request. */
export interface ResourceRequest<Op extends OperationId = OperationId> {
  /** The organisation of the caller's API key. */
  organizationId: string;
  query: Defaulted<Given<operations[Op]["parameters"]["query"]>>;
  path: Given<operations[Op]["parameters"]["path"]>;
}

/** Data, or a refusal the handler decides (a bad combination of parameters, an unknown id). */
export type ResourceResult = OperationResult;

export type ResourceHandler<Op extends OperationId> = (dataset: Dataset, request: ResourceRequest<Op>) => ResourceResult;

export type ResourceHandlers = { [Op in OperationId]: ResourceHandler<Op> };

/** The handlers as the request pipeline calls them, each reading the caller's world's dataset as it is at the request. */
export function readOperations(handlers: ResourceHandlers): OperationTable {
  return Object.fromEntries(Object.entries(handlers).map(([operationId, handler]) => [operationId, (call) => (handler as ResourceHandler<OperationId>)(call.world.dataset, call as never)]));
}
