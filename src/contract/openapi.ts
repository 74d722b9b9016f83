// What the suite knows about the contract, read from the bundled OpenAPI document only: the
// operations, the response schema for a status, the failure envelope, the status names, the fields
// list items and details share, and every x-assumption mark.
import fs from "node:fs";
import path from "node:path";
import { operationIndex } from "../../generated/client.js";
import { rateLimit } from "../../generated/facts.js";
import { BUNDLED_OPENAPI } from "./bundled.js";
import { createDocumentValidator, type SchemaError } from "./schema-validator.js";
import { escapeToken, flatten, resolvePointer, responseKeyOf, walk } from "./spec-document.js";

export type OperationId = (typeof operationIndex)[number]["operationId"];
export type OperationInfo = (typeof operationIndex)[number];

export const FAILURE_ENVELOPE_POINTER = "/components/schemas/FailureEnvelope";

/** One x-assumption mark: where it sits in which document, and its sentence. */
export interface AssumptionMark {
  source: "openapi" | "asyncapi";
  /** "webhooks" for marks only the webhook events use: a GET-only suite never sees those. */
  scope: "api" | "webhooks";
  pointer: string;
  sentence: string;
}

export interface ContractSpec {
  doc: any;
  operations: readonly OperationInfo[];
  operation(id: OperationId): OperationInfo;
  /** The documented response key for a status (exact code, then its class such as 5XX, then default). */
  documentedResponse(id: OperationId, status: number): string | undefined;
  documentedStatuses(id: OperationId): string[];
  /** JSON pointer of the JSON schema of the documented response for a status. */
  responseSchemaPointer(id: OperationId, status: number): string | undefined;
  /** Headers the documented response for a status declares. */
  responseHeaders(id: OperationId, status: number): { name: string; required: boolean; schemaPointer: string; integer: boolean }[];
  /** Validates a value against the schema at a pointer; returns error texts. */
  validate(pointer: string, value: unknown): string[];
  /** The same errors, each with its place in the value and its schema keyword. */
  schemaErrors(pointer: string, value: unknown): SchemaError[];
  /** Status number to name, from LeaveStatusId's enum and x-enum-varnames. */
  statusNames: ReadonlyMap<number, string>;
  /** Fields of a leave request list item, which its details repeat. */
  leaveRequestListFields: string[];
  /** Fields a department's list item and its details share. */
  departmentSharedFields: string[];
  defaultPageSize: number;
  /** Requests a key may make in the rate limit's window (generated/facts.ts rateLimit, the spec's x-rate-limit). */
  rateLimit?: number;
  assumptions: AssumptionMark[];
}


/** The components (as /components/<kind>/<name>) reached through $refs from a part of the document. */
export function componentsReachedFrom(doc: any, rootPointer: string): Set<string> {
  const reached = new Set<string>();
  const queue: any[] = [resolvePointer(doc, `#${rootPointer}`)];
  while (queue.length) {
    for (const [, node] of walk(queue.pop())) {
      if (typeof node.$ref !== "string" || !node.$ref.startsWith("#/components/")) continue;
      const key = node.$ref.slice(1).split("/").slice(0, 4).join("/");
      if (reached.has(key)) continue;
      reached.add(key);
      queue.push(resolvePointer(doc, `#${key}`));
    }
  }
  return reached;
}

/** Every x-assumption of a document, with its pointer, in document order. */
export function collectAssumptions(doc: any, source: AssumptionMark["source"]): AssumptionMark[] {
  const fromPaths = source === "openapi" && doc.paths ? componentsReachedFrom(doc, "/paths") : new Set<string>();
  const fromWebhooks = source === "openapi" && doc.webhooks ? componentsReachedFrom(doc, "/webhooks") : new Set<string>();
  const out: AssumptionMark[] = [];
  for (const [pointer, node] of walk(doc)) {
    const sentence = node["x-assumption"];
    if (typeof sentence !== "string") continue;
    const component = pointer.split("/").slice(0, 4).join("/");
    const webhooksOnly =
      source === "asyncapi" || pointer.startsWith("/webhooks/") || (!fromPaths.has(component) && fromWebhooks.has(component));
    out.push({ source, scope: webhooksOnly ? "webhooks" : "api", pointer, sentence });
  }
  return out;
}


/**
 * The last contract specs made in this process, by their documents' texts: a process that runs the
 * suite again (tests, a script checking several deployments) reuses the parse, the assumptions and
 * the schemas compiled by then. Nothing changes a ContractSpec once made.
 */
const made = new Map<string, ContractSpec>();
const KEPT = 4;

export function loadContractSpec(openapiPath = BUNDLED_OPENAPI): ContractSpec {
  const text = fs.readFileSync(openapiPath, "utf8");
  const asyncapiPath = path.join(path.dirname(openapiPath), "asyncapi.json");
  const events = fs.existsSync(asyncapiPath) ? fs.readFileSync(asyncapiPath, "utf8") : undefined;
  const key = `${openapiPath}\0${text}\0${events ?? ""}`;
  let spec = made.get(key);
  if (!spec) {
    spec = contractSpecOf(JSON.parse(text), events === undefined ? undefined : JSON.parse(events));
    if (made.size >= KEPT) made.delete(made.keys().next().value!);
    made.set(key, spec);
  }
  return spec;
}

function contractSpecOf(doc: any, asyncapi: any): ContractSpec {
  const validator = createDocumentValidator(doc);
  const byId = new Map(operationIndex.map((o) => [o.operationId as OperationId, o]));

  const operationObject = (id: OperationId) => {
    const info = byId.get(id);
    if (!info) throw new Error(`unknown operation ${id}`);
    return doc.paths[info.path][info.method];
  };

  const documentedResponse = (id: OperationId, status: number) => responseKeyOf(operationObject(id).responses ?? {}, status);

  /** Pointer of the documented response object for a status, following $refs to shared responses. */
  const responsePointer = (id: OperationId, status: number) => {
    const key = documentedResponse(id, status);
    if (key === undefined) return undefined;
    const info = byId.get(id)!;
    return followRefs(`/paths/${escapeToken(info.path)}/${info.method}/responses/${escapeToken(key)}`);
  };

  const followRefs = (start: string) => {
    let pointer = start;
    let node = resolvePointer(doc, `#${pointer}`);
    while (node && typeof node.$ref === "string") {
      pointer = node.$ref.slice(1);
      node = resolvePointer(doc, node.$ref);
    }
    return pointer;
  };

  const responseSchemaPointer = (id: OperationId, status: number) => {
    const pointer = responsePointer(id, status);
    if (pointer === undefined) return undefined;
    return resolvePointer(doc, `#${pointer}`)?.content?.["application/json"]?.schema ? `${pointer}/content/application~1json/schema` : undefined;
  };

  const responseHeaders = (id: OperationId, status: number) => {
    const pointer = responsePointer(id, status);
    if (pointer === undefined) return [];
    const headers = resolvePointer(doc, `#${pointer}`)?.headers ?? {};
    return Object.keys(headers).map((name) => {
      const headerPointer = followRefs(`${pointer}/headers/${escapeToken(name)}`);
      const header = resolvePointer(doc, `#${headerPointer}`);
      return { name, required: header.required === true, schemaPointer: `${headerPointer}/schema`, integer: header.schema?.type === "integer" };
    });
  };

  const statusSchema = doc.components.schemas.LeaveStatusId;
  const statusNames = new Map<number, string>(statusSchema.enum.map((n: number, i: number) => [n, statusSchema["x-enum-varnames"][i]]));

  const summary = Object.keys(flatten(doc, doc.components.schemas.LeaveRequestSummary).properties);
  const deptList = Object.keys(flatten(doc, doc.components.schemas.DepartmentSummary).properties);
  const deptDetails = new Set(Object.keys(flatten(doc, doc.components.schemas.DepartmentDetails).properties));

  const assumptions = collectAssumptions(doc, "openapi");
  if (asyncapi !== undefined) {
    // The events document repeats no API assumption, but guard against double listing all the same.
    const seen = new Set(assumptions.map((a) => a.sentence));
    for (const mark of collectAssumptions(asyncapi, "asyncapi")) {
      if (!seen.has(mark.sentence)) assumptions.push(mark), seen.add(mark.sentence);
    }
  }

  return {
    doc,
    operations: operationIndex,
    operation: (id) => byId.get(id)!,
    documentedResponse,
    documentedStatuses: (id) => Object.keys(operationObject(id).responses ?? {}),
    responseSchemaPointer,
    responseHeaders,
    validate: (pointer, value) => validator.validate(pointer, value),
    schemaErrors: (pointer, value) => validator.errors(pointer, value),
    statusNames,
    leaveRequestListFields: summary,
    departmentSharedFields: deptList.filter((f) => deptDetails.has(f)),
    defaultPageSize: doc.components.parameters.PageSize.schema.default,
    rateLimit: rateLimit.requests,
    assumptions,
  };
}
