// The seam between the request pipeline (dispatch.ts, mock-component.ts) and the code that answers
// an operation, for both documents: the read API's resource handlers and the control API's webhook
// operations. Operations receive what the spec let through, typed and defaulted, and answer data
// or a refusal in domain terms; only statusOf, at the HTTP side, turns a refusal into a status.
import type { World } from "../worlds/world.js";

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

export type RefusalKind =
  /** The input breaks a rule the spec cannot state (StartDate after EndDate, a URL's host). */
  | "invalid"
  /** An id that is not a record of the caller's organisation. */
  | "not-found"
  /** The state does not allow it (no record left to change, the endpoint limit reached). */
  | "conflict"
  /** The mock is shutting down. */
  | "unavailable";

export type OperationResult = { ok: true; data: unknown } | { ok: false; kind: RefusalKind; message: string };

export type Operation = (call: OperationCall) => OperationResult | Promise<OperationResult>;

/** Operations by operationId, from every document the mock serves. */
export type OperationTable = Readonly<Record<string, Operation>>;

const STATUS: Record<RefusalKind, number> = { invalid: 400, "not-found": 404, conflict: 409, unavailable: 503 };

export function statusOf(kind: RefusalKind): number {
  return STATUS[kind];
}
