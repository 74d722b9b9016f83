// The seam between the request pipeline (mock/pipeline/) and the code that answers an operation,
// for both documents: the read API's resource handlers (read/) and the control API's operations
// (control/). Operations receive what the spec let through, typed and defaulted, and answer data or
// a refusal in domain terms (mock/kernel/results.ts); the pipeline turns a refusal into a status.
import type { OperationResult } from "../kernel/results.js";
import type { World } from "../worlds/world.js";

export type { OperationResult } from "../kernel/results.js";

/** What an operation knows about the request. */
export interface OperationCall {
  /** The organisation of the caller's API key. */
  organizationId: string;
  /** The world of the caller's API key (the default world or a sandbox): the data and webhooks it acts on. */
  world: World;
  query: Record<string, unknown>;
  path: Record<string, unknown>;
  /** The JSON body, validated against the operation's schema (absent when it takes none). */
  body?: unknown;
}

/** Operations by operationId, from every document the mock serves. */
export type OperationTable = Readonly<Record<string, (call: OperationCall) => OperationResult | Promise<OperationResult>>>;
