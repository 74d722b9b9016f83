// Start-up work on the spec, done once: Prism parses the bundled OpenAPI into operations, and this
// module gathers per operation what the hot path needs (operationId, permission, the statuses it
// may answer, its parameters with a readable description of what each accepts).
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type { IHttpOperation, IHttpParam } from "@stoplight/types";
import type { OperationId } from "../resources/contract.js";
import { describeSchema, type JsonSchema } from "./schema-text.js";

// Prism's spec reader alone: the package index also loads the mocker (faker 6, json-schema-faker),
// over half a second of start-up that only Prefer requests need (prefer.ts loads it on first use).
const { getHttpOperationsFromSpec } = createRequire(import.meta.url)("@stoplight/prism-http/dist/utils/operations.js") as {
  getHttpOperationsFromSpec(specFilePathOrObject: string | object): Promise<IHttpOperation[]>;
};

/** The bundled spec next to the package's sources. */
export const DEFAULT_SPEC_PATH = fileURLToPath(new URL("../../generated/openapi.json", import.meta.url));

export interface SpecParam {
  /** The name as the spec writes it (`PageSize`). */
  name: string;
  in: "query" | "path";
  required: boolean;
  schema: JsonSchema;
  /** What the parameter accepts, for failure messages: "an integer from 1 to 100". */
  expected: string;
  /** Accepts a number (alone or as one of its alternatives): its values are written canonically. */
  numeric: boolean;
  /** An array parameter (`Companies`), given by repeating it. */
  repeated: boolean;
}

export interface SpecOperation {
  operationId: OperationId;
  /** Upper case, as on the wire. */
  method: string;
  /** The path template (`/v1/department/{id}`). */
  path: string;
  /** The permission the spec's `x-permission` names. */
  permission: string;
  /** Response codes the spec lists for the operation ("200", "404", "5XX"). */
  statuses: string[];
  queryParams: SpecParam[];
  pathParams: SpecParam[];
  /** Query parameters by lower-cased name: Prism matches query names without regard to case. */
  queryParamsByLowerName: Map<string, SpecParam>;
  /** Prism's parsed operation, for its validator and mocker. */
  prism: IHttpOperation;
}

export interface LoadedSpec {
  operations: SpecOperation[];
  /** Prism's operations, in the spec's order, for `prism.request`. */
  prismOperations: IHttpOperation[];
}

export async function loadSpec(specPath: string = DEFAULT_SPEC_PATH): Promise<LoadedSpec> {
  let prismOperations: IHttpOperation[];
  try {
    prismOperations = await getHttpOperationsFromSpec(specPath);
  } catch (error) {
    throw new Error(`cannot read the OpenAPI description ${specPath}: ${(error as Error).message}`);
  }
  if (prismOperations.length === 0) throw new Error(`the OpenAPI description ${specPath} has no operations`);
  return { operations: prismOperations.map(toSpecOperation), prismOperations };
}

function toSpecOperation(op: IHttpOperation): SpecOperation {
  const operationId = op.iid;
  if (!operationId) throw new Error(`operation ${op.method.toUpperCase()} ${op.path} has no operationId`);
  const permission = (op.extensions as Record<string, unknown> | undefined)?.["x-permission"];
  if (typeof permission !== "string" || permission === "") {
    throw new Error(`operation ${operationId} has no x-permission; every operation must name the permission it needs`);
  }
  const queryParams = (op.request?.query ?? []).map((p) => toSpecParam(p, "query"));
  const pathParams = (op.request?.path ?? []).map((p) => toSpecParam(p, "path"));
  return {
    operationId: operationId as OperationId,
    method: op.method.toUpperCase(),
    path: op.path,
    permission,
    statuses: op.responses.map((r) => r.code),
    queryParams,
    pathParams,
    queryParamsByLowerName: new Map(queryParams.map((p) => [p.name.toLowerCase(), p])),
    prism: op,
  };
}

function toSpecParam(param: IHttpParam, location: "query" | "path"): SpecParam {
  const schema = (param.schema ?? {}) as JsonSchema;
  return {
    name: param.name,
    in: location,
    required: param.required === true,
    schema,
    expected: describeSchema(schema),
    numeric: acceptsNumber(schema),
    repeated: schema.type === "array",
  };
}

function acceptsNumber(schema: JsonSchema): boolean {
  if (schema.type === "integer" || schema.type === "number") return true;
  return (schema.anyOf ?? schema.oneOf ?? []).some(acceptsNumber);
}
