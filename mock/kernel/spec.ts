// Start-up work on the specs, done once: Prism's public reader (`getHttpOperationsFromSpec`) parses
// both OpenAPI documents the mock serves (the read API and the mock's control API) into one list of
// operations, and this module gathers per operation what the dispatcher needs (operationId, which
// document, permission, the statuses it may answer, its parameters with a readable description).
// Prism's reader ran at `npm run generate`: its output is generated/prism-operations.json (the
// reader dereferences and de-cycles both documents, the slowest step of a start).
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { getHttpOperationsFromSpec } from "@stoplight/prism-http";
import { BUNDLED_OPENAPI, readBundledOpenapi } from "../../src/contract/bundled.js";
import { describeSchema, type JsonSchema } from "./schema-text.js";

/** An operation as Prism parses it (the type of Prism's public reader, not of its internals). */
export type PrismOperation = Awaited<ReturnType<typeof getHttpOperationsFromSpec>>[number];
type PrismRequest = NonNullable<PrismOperation["request"]>;
type PrismParam = NonNullable<PrismRequest["query"]>[number] | NonNullable<PrismRequest["path"]>[number];

/** The mock's own control API (webhook endpoints, triggers, the delivery log), bundled from mock/control/openapi/. */
const CONTROL_SPEC_PATH = fileURLToPath(new URL("../../generated/control-openapi.json", import.meta.url));
/** Prism's reader's output for the two bundled documents, by file name (written by npm run generate). */
const PRISM_OPERATIONS_PATH = fileURLToPath(new URL("../../generated/prism-operations.json", import.meta.url));

/** Prism's operations of the bundled documents, as generated/prism-operations.json holds them. */
export type PrismOperations = Record<"openapi.json" | "control-openapi.json", PrismOperation[]>;

export type Api = "read" | "control";

export interface SpecParam {
  /** The name as the spec writes it (`PageSize`). */
  name: string;
  in: "query" | "path";
  required: boolean;
  schema: JsonSchema;
  /** What the parameter accepts, for failure messages: "an integer from 1 to 100". */
  expected: string;
  /** Accepts an integer (alone or as one of its alternatives): its text must be decimal digits. */
  integer: boolean;
  /** An array parameter (`Companies`), given by repeating it. */
  repeated: boolean;
  /** The spec's `x-case-insensitive` (read from the document: Prism keeps no extensions): the enum's values by their lower case. */
  caseInsensitive?: Map<string, string>;
}

export interface SpecOperation {
  operationId: string;
  api: Api;
  /** Upper case, as on the wire. */
  method: string;
  /** The path template (`/v1/department/{id}`). */
  path: string;
  /** The permission the spec's `x-permission` names. */
  permission: string;
  /** `security: []`: it answers without a key (the probes; Pact's state change endpoint, acting for nobody in the default world). */
  keyless: boolean;
  /** Tagged Operators: about the replica itself (the probes), answered before admission: never rate-limited, journaled or delayed. */
  operator: boolean;
  /** Response codes the spec lists for the operation ("200", "404", "5XX"). */
  statuses: string[];
  queryParams: SpecParam[];
  pathParams: SpecParam[];
  /** Query parameters by lower-cased name: Prism matches query names without regard to case. */
  queryParamsByLowerName: Map<string, SpecParam>;
  /** The request body the operation takes, if any. */
  body?: SpecBody;
  /** Prism's parsed operation, for its pipeline. */
  prism: PrismOperation;
}

export interface SpecBody {
  required: boolean;
  /** The media types the spec lists for it. */
  mediaTypes: string[];
  /** The body's JSON Schema with every local $ref resolved, for failure messages. */
  schema: JsonSchema;
  /** The request body's `x-max-bytes`: a larger body is answered 413. */
  maxBytes: number;
  /** The request body's `x-max-depth`: a body nested deeper is refused before anything walks it. */
  maxDepth: number;
}

export interface LoadedSpec {
  operations: SpecOperation[];
  byOperationId: Map<string, SpecOperation>;
}

// Reading the specs is the slow part of start-up, and Prism compiles its validators per schema
// object: mocks and callers in one process share one reading (nothing changes it).
let loaded: Promise<LoadedSpec> | undefined;

/** The bundled read API's and control API's operations, read once in a process. */
export function loadSpec(): Promise<LoadedSpec> {
  if (!loaded) {
    loaded = parseSpec();
    loaded.catch(() => (loaded = undefined));
  }
  return loaded;
}

async function parseSpec(): Promise<LoadedSpec> {
  const [ahead, read, control] = await Promise.all([
    readJson<PrismOperations>(PRISM_OPERATIONS_PATH),
    readBundledOpenapi().catch(unreadable(BUNDLED_OPENAPI)),
    readJson<Document>(CONTROL_SPEC_PATH),
  ]);
  const operations = await Promise.all([operationsOf(read, "read", BUNDLED_OPENAPI, ahead["openapi.json"]), operationsOf(control, "control", CONTROL_SPEC_PATH, ahead["control-openapi.json"])]);
  return indexed(operations.flat(), `${BUNDLED_OPENAPI} and ${CONTROL_SPEC_PATH}`);
}

/**
 * The read API, from its parsed document rather than a file (a browser has no files), with any of
 * the control API's operations `control.only` keeps: what the MSW handlers serve.
 */
export async function loadReadSpec(
  document: object,
  name = "the bundled OpenAPI description",
  control?: { document: object; only: (operationId: string) => boolean },
  /** Prism's reader's output for these documents, when it ran ahead (generated/prism-operations.json). */
  parsed?: Partial<PrismOperations>,
): Promise<LoadedSpec> {
  const read = await operationsOf(document as Document, "read", name, parsed?.["openapi.json"]);
  // The control API's operations the caller serves too (the MSW handlers: sandboxes and faults).
  const extra = control ? (await operationsOf(control.document as Document, "control", "the control API", parsed?.["control-openapi.json"])).filter((op) => control.only(op.operationId)) : [];
  return indexed([...read, ...extra], name);
}

function indexed(operations: SpecOperation[], where: string): LoadedSpec {
  const byOperationId = new Map<string, SpecOperation>();
  for (const operation of operations) {
    if (byOperationId.has(operation.operationId)) throw new Error(`operationId ${operation.operationId} is used twice across ${where}`);
    byOperationId.set(operation.operationId, operation);
  }
  return { operations, byOperationId };
}

/** Whether a response code of the spec ("404", or a range such as "5XX") covers a status. */
export function covers(responseCode: string, status: number): boolean {
  return /^\d{3}$/.test(responseCode) ? Number(responseCode) === status : Math.floor(status / 100) === Number(responseCode[0]);
}

/** The largest body any operation reads (its x-max-bytes): the edge stops reading after it. */
export function bodyLimit(spec: LoadedSpec): number {
  return Math.max(0, ...spec.operations.map((op) => op.body?.maxBytes ?? 0));
}

/** The deepest nesting any operation reads (its x-max-depth). */
export function depthLimit(spec: LoadedSpec): number {
  return Math.max(0, ...spec.operations.map((op) => op.body?.maxDepth ?? 0));
}

async function readJson<T>(path: string): Promise<T> {
  return readFile(path, "utf8")
    .then((text) => JSON.parse(text) as T)
    .catch(unreadable(path));
}

/** A reading's failure, naming the file. */
const unreadable = (path: string) => (error: unknown): never => {
  throw new Error(`cannot read the OpenAPI description ${path}: ${(error as Error).message}`);
};

/**
 * Prism's operations of `document` (read ahead of time, or by Prism's reader, which dereferences
 * what it is given in place, so it gets a copy: the document may be shared), with what Prism drops
 * read from the document itself.
 */
async function operationsOf(document: Document, api: Api, name: string, ahead?: PrismOperation[]): Promise<SpecOperation[]> {
  let parsed: PrismOperation[];
  try {
    parsed = ahead ?? (await getHttpOperationsFromSpec(structuredClone(document)));
  } catch (error) {
    throw new Error(`cannot read the OpenAPI description ${name}: ${(error as Error).message}`);
  }
  if (parsed.length === 0) throw new Error(`the OpenAPI description ${name} has no operations`);
  return parsed.filter((op) => !answeredAtEdge(op)).map((op) => withBody(withExtensions(toSpecOperation(op, api), document), document, name));
}

type Document = { paths?: Record<string, Record<string, { operationId?: string; parameters?: Record<string, unknown>[]; requestBody?: Record<string, any> }>> };

/**
 * What withBody and withExtensions read of `document` for the operations `keep` names, every $ref
 * resolved: a small document loadReadSpec takes in the whole's place (generated/msw-spec.json).
 */
export function documentExtras(document: object, keep: (operationId: string) => boolean): object {
  const whole = document as Document;
  const paths: NonNullable<Document["paths"]> = {};
  for (const [path, item] of Object.entries(whole.paths ?? {})) {
    for (const [method, operation] of Object.entries(item)) {
      if (typeof operation !== "object" || operation === null || typeof operation.operationId !== "string" || !keep(operation.operationId)) continue;
      const parameters = (operation.parameters ?? []).map((entry) => resolved(whole, entry) as Record<string, unknown>).filter((parameter) => parameter["x-case-insensitive"] === true);
      const requestBody = operation.requestBody === undefined ? undefined : (resolved(whole, operation.requestBody) as Record<string, unknown>);
      (paths[path] ??= {})[method] = { ...(parameters.length > 0 ? { parameters } : {}), ...(requestBody ? { requestBody } : {}) };
    }
  }
  return { paths };
}

/** The request body as the document declares it (Prism keeps neither its extensions nor resolved schemas). */
function withBody(operation: SpecOperation, document: Document, file: string): SpecOperation {
  const declared = document.paths?.[operation.path]?.[operation.method.toLowerCase()]?.requestBody;
  if (declared === undefined) return operation;
  const body = resolved(document, declared) as Record<string, any>;
  const maxBytes = body["x-max-bytes"];
  const maxDepth = body["x-max-depth"];
  if (!Number.isInteger(maxBytes) || maxBytes < 1) throw new Error(`${file}: the request body of ${operation.operationId} needs x-max-bytes, the largest body the mock reads`);
  if (!Number.isInteger(maxDepth) || maxDepth < 1) throw new Error(`${file}: the request body of ${operation.operationId} needs x-max-depth, the deepest nesting the mock reads`);
  const content = (body.content ?? {}) as Record<string, { schema?: unknown }>;
  const mediaTypes = Object.keys(content);
  operation.body = { required: body.required === true, mediaTypes, schema: resolved(document, content[mediaTypes[0]]?.schema ?? {}) as JsonSchema, maxBytes, maxDepth };
  return operation;
}

/** `node` with every local $ref replaced by its target (the documents have no recursive schemas). */
function resolved(document: unknown, node: unknown, depth = 0): unknown {
  if (depth > 64) throw new Error("a $ref chain in the OpenAPI description is too deep (recursive schema?)");
  if (Array.isArray(node)) return node.map((item) => resolved(document, item, depth + 1));
  if (typeof node !== "object" || node === null) return node;
  const ref = (node as { $ref?: unknown }).$ref;
  if (typeof ref === "string" && ref.startsWith("#/")) {
    const target = ref
      .slice(2)
      .split("/")
      .reduce<any>((at, key) => at?.[key.replace(/~1/g, "/").replace(/~0/g, "~")], document);
    return resolved(document, target, depth + 1);
  }
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, resolved(document, value, depth + 1)]));
}

/** The parameter extensions Prism drops, read from the bundled document. */
function withExtensions(operation: SpecOperation, document: Document): SpecOperation {
  const declared = document.paths?.[operation.path]?.[operation.method.toLowerCase()]?.parameters ?? [];
  for (const entry of declared) {
    const parameter = resolved(document, entry) as Record<string, unknown> | undefined;
    if (parameter?.["x-case-insensitive"] !== true) continue;
    const spec = [...operation.queryParams, ...operation.pathParams].find((p) => p.name === parameter.name);
    if (spec) spec.caseInsensitive = new Map(textValues(spec.schema).map((value) => [value.toLowerCase(), value]));
  }
  return operation;
}

function textValues(schema: JsonSchema): string[] {
  const own = (schema.enum ?? []).filter((v): v is string => typeof v === "string");
  return [...own, ...(schema.anyOf ?? schema.oneOf ?? []).flatMap(textValues)];
}

/** The control document's tag of the operations about a replica itself (the probes, the metrics). */
const OPERATORS_TAG = "Operators";

/**
 * An operation marked `x-edge: true` (GET /_mock/metrics) is answered by the node:http edge before
 * the request pipeline, with no key, rate limit or journal: Prism never routes it and the operation
 * table has no entry for it.
 */
export function answeredAtEdge(op: { extensions?: unknown }): boolean {
  return (op.extensions as Record<string, unknown> | undefined)?.["x-edge"] === true;
}

function toSpecOperation(op: PrismOperation, api: Api): SpecOperation {
  const operationId = op.iid;
  if (!operationId) throw new Error(`operation ${op.method.toUpperCase()} ${op.path} has no operationId`);
  const permission = (op.extensions as Record<string, unknown> | undefined)?.["x-permission"];
  if (typeof permission !== "string" || permission === "") {
    throw new Error(`operation ${operationId} has no x-permission; every operation must name the permission it needs`);
  }
  const queryParams = (op.request?.query ?? []).map((p) => toSpecParam(p, "query"));
  const pathParams = (op.request?.path ?? []).map((p) => toSpecParam(p, "path"));
  return {
    operationId,
    api,
    method: op.method.toUpperCase(),
    path: op.path,
    permission,
    keyless: Array.isArray(op.security) && op.security.length === 0,
    operator: (op.tags ?? []).some((tag) => tag.name === OPERATORS_TAG),
    statuses: op.responses.map((r) => r.code),
    queryParams,
    pathParams,
    queryParamsByLowerName: new Map(queryParams.map((p) => [p.name.toLowerCase(), p])),
    prism: withoutEmptyParameterLists(op),
  };
}

/**
 * Prism's reader gives every operation empty lists of header, cookie and path parameters; Prism's
 * validator takes an empty list for parameters to check and compiles the path template on every
 * request. Absent lists mean the same (nothing to check) at no cost.
 */
function withoutEmptyParameterLists(op: PrismOperation): PrismOperation {
  const request = op.request;
  if (!request) return op;
  const kept = Object.fromEntries(Object.entries(request).filter(([, value]) => !(Array.isArray(value) && value.length === 0)));
  return { ...op, request: kept } as PrismOperation;
}

function toSpecParam(param: PrismParam, location: "query" | "path"): SpecParam {
  const schema = (param.schema ?? {}) as JsonSchema;
  return {
    name: param.name,
    in: location,
    required: param.required === true,
    schema,
    expected: describeSchema(schema),
    integer: acceptsInteger(schema),
    repeated: schema.type === "array",
  };
}

function acceptsInteger(schema: JsonSchema): boolean {
  if (schema.type === "integer") return true;
  if (schema.type === "array" && schema.items) return acceptsInteger(schema.items);
  return (schema.anyOf ?? schema.oneOf ?? []).some(acceptsInteger);
}
