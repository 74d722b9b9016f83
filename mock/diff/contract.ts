// What the diff compares: the two bundled documents of one version of the contract.
import type { Json } from "./json.js";

export interface Contract {
  /** Where it came from, as the report names it ("git HEAD~3", "folder contract-releases/0.1.0", ...). */
  label: string;
  openapi: Json;
  asyncapi: Json;
}

export type ChangeKind = "breaking" | "non-breaking" | "info";

/** The read API (OpenAPI paths), the OpenAPI webhooks, the AsyncAPI events. */
export type ChangeScope = "read API" | "webhooks" | "events";

export interface Change {
  kind: ChangeKind;
  document: "OpenAPI" | "AsyncAPI";
  scope: ChangeScope;
  /** The operation, webhook or event, and the spot inside it ("GET /v1/department/{id} · response 404"). */
  place: string;
  /** What changed, one short phrase. */
  what: string;
  /** Why it has its kind: whom it breaks, or why it does not. */
  why: string;
  /** Stable name for acknowledgements: document, scope, place and JSON path of the change, and its action. */
  id: string;
}

export interface AssumptionChange {
  change: "added" | "removed" | "reworded";
  document: "OpenAPI" | "AsyncAPI";
  /** JSON pointer of the mark in the bundled document. */
  where: string;
  before?: string;
  after?: string;
}

export interface ContractDiff {
  base: string;
  head: string;
  changes: Change[];
  assumptions: AssumptionChange[];
}
