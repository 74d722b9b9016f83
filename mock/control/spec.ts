// The control API's own OpenAPI document, read and compiled once: its routes (path templates and
// methods to operationIds) and Ajv validators for request bodies and parameters.
import { readFileSync } from "node:fs";
import Ajv2020Module from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import YAML from "yaml";

export const CONTROL_SPEC_PATH = new URL("./openapi.yaml", import.meta.url);

export type ControlOperationId =
  | "listWebhookEndpoints"
  | "addWebhookEndpoint"
  | "removeWebhookEndpoint"
  | "testWebhookEndpoint"
  | "triggerWebhookEvent"
  | "listWebhookDeliveries";

export interface ControlRoute {
  operationId: ControlOperationId;
  method: string;
  template: string;
  pattern: RegExp;
  /** Names of the path template's parameters, in order. */
  pathParams: string[];
  /** Checks path and query parameters (query values coerced to their types); a message naming the parameter, or undefined. */
  checkParams(params: Record<string, string | undefined>): { ok: true; values: Record<string, unknown> } | { ok: false; message: string };
  /** Checks the JSON body; a message naming the field, or undefined. Absent when the operation takes no body. */
  checkBody?: (body: unknown) => string | undefined;
}

export interface ControlSpec {
  document: Record<string, any>;
  routes: ControlRoute[];
}

const Ajv2020 = ((Ajv2020Module as any).default ?? Ajv2020Module) as new (options: object) => any;
const addFormats = ((addFormatsModule as any).default ?? addFormatsModule) as (ajv: unknown) => void;

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

let loaded: ControlSpec | undefined;
export function controlSpec(): ControlSpec {
  loaded ??= compile(YAML.parse(readFileSync(CONTROL_SPEC_PATH, "utf8")) as Record<string, any>);
  return loaded;
}

function compile(document: Record<string, any>): ControlSpec {
  // verbose: errors carry their schema, so a failed oneOf can quote what the field accepts.
  const bodies = new Ajv2020({ strict: false, allErrors: true, validateSchema: false, verbose: true });
  // Query values arrive as text: coerce "20" to 20 before checking.
  const params = new Ajv2020({ strict: false, allErrors: true, validateSchema: false, coerceTypes: true, useDefaults: true, verbose: true });
  addFormats(bodies);
  addFormats(params);
  bodies.addSchema(document, "control");
  params.addSchema(document, "control");

  const routes: ControlRoute[] = [];
  for (const [template, item] of Object.entries<Record<string, any>>(document.paths ?? {})) {
    const pathParams = [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    const pattern = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "([^/]+)")}/?$`);
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const parameters = (operation.parameters ?? []).map((p: any) => resolve(document, p));
      const paramSchema = {
        type: "object",
        properties: Object.fromEntries(parameters.map((p: any) => [p.name, p.schema])),
        required: parameters.filter((p: any) => p.required).map((p: any) => p.name),
      };
      const validateParams = params.compile(paramSchema);
      const bodySchema = operation.requestBody?.content?.["application/json"]?.schema;
      const validateBody = bodySchema ? bodies.compile({ $ref: `control#${pointerOf(bodySchema.$ref)}` }) : undefined;
      routes.push({
        operationId: operation.operationId,
        method: method.toUpperCase(),
        template,
        pattern,
        pathParams,
        checkParams(given) {
          const values: Record<string, unknown> = {};
          for (const [name, value] of Object.entries(given)) if (value !== undefined && name in paramSchema.properties) values[name] = value;
          if (validateParams(values)) return { ok: true, values };
          return { ok: false, message: describeErrors(validateParams.errors, "parameter") };
        },
        checkBody: validateBody ? (body) => (validateBody(body) ? undefined : describeErrors(validateBody.errors, "field")) : undefined,
      });
    }
  }
  return { document, routes };
}

function pointerOf(ref: unknown): string {
  if (typeof ref !== "string" || !ref.startsWith("#/")) throw new Error(`mock/control/openapi.yaml: request bodies must $ref a local schema, got ${String(ref)}`);
  return ref.slice(1);
}

function resolve(document: Record<string, any>, node: any): any {
  if (!node?.$ref) return node;
  return pointerOf(node.$ref)
    .split("/")
    .slice(1)
    .reduce((at: any, key) => at?.[key.replace(/~1/g, "/").replace(/~0/g, "~")], document);
}

/** `/events/0` as `events[0]`. */
function fieldName(instancePath: string, extra?: string): string {
  const parts = instancePath.split("/").slice(1);
  if (extra !== undefined) parts.push(extra);
  return parts.reduce((name, part) => (/^\d+$/.test(part) ? `${name}[${part}]` : name ? `${name}.${part}` : part), "");
}

/**
 * One sentence from Ajv's errors, naming the field: a missing or unknown field first, else the
 * most specific error. A field that fails every branch of a oneOf is described by its schema.
 */
export function describeErrors(errors: any[] | null | undefined, what: "field" | "parameter"): string {
  const list = errors ?? [];
  const missing = list.find((e) => e.keyword === "required");
  if (missing) return `Bad request: ${what} ${fieldName(missing.instancePath, missing.params.missingProperty)} is required (${fieldName(missing.instancePath, missing.params.missingProperty)}).`;
  const unknown = list.find((e) => e.keyword === "additionalProperties");
  if (unknown) {
    const name = fieldName(unknown.instancePath, unknown.params.additionalProperty);
    const allowed = Object.keys(unknown.parentSchema?.properties ?? {}).join(", ");
    return `Bad request: ${what} ${name} is not allowed${allowed ? `; the fields are ${allowed}` : ""} (${name}).`;
  }
  if (list.length === 0) return "Bad request: the request is not valid.";
  const depth = (e: any) => (e.instancePath === "" ? 0 : e.instancePath.split("/").length);
  const deepest = list.reduce((best, e) => (depth(e) > depth(best) ? e : best), list[0]);
  const name = fieldName(deepest.instancePath) || "the body";
  const top = fieldName(deepest.instancePath.split("/").slice(0, 2).join("/")) || name;
  const choice = list.find((e) => e.instancePath === deepest.instancePath && (e.keyword === "oneOf" || e.keyword === "anyOf"));
  if (choice && deepest.keyword !== "enum") {
    const accepts = String(choice.parentSchema?.description ?? "one of the forms the control API's description lists").replace(/\.$/, "");
    return `Bad request: ${what} ${name} is not valid; expected ${lowerFirst(accepts)} (${top}).`;
  }
  let detail = String(deepest.message ?? "is not valid");
  if (deepest.keyword === "enum") detail = `must be one of ${deepest.params.allowedValues.join(", ")}`;
  if (deepest.keyword === "format") detail = `must be a ${deepest.params.format}`;
  // A writeOnly value (a signing secret) is not echoed, not even a malformed one.
  const got = deepest.data === undefined || deepest.parentSchema?.writeOnly === true ? "" : `, got ${shown(deepest.data)}`;
  return `Bad request: ${what} ${name} ${detail}${got} (${top}).`;
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
