// Prism's validation of a request's parameters, with its per-operation work done once. Prism's own
// (its `validateInput` component) rebuilds an operation's parameter schema, deserialises the query
// through lodash and fp-ts, and compiles the path template on every request: about two thirds of the
// pipeline's cost on the mock's read operations. This component does the same steps in the same order
// (the form and simple styles as Prism reads them, the JSON Schema Prism builds from the parameters,
// Ajv with Prism's options, Prism's wording of each error) and stands in for Prism's validator, never
// beside it: a request with a body, and an operation with anything else (header parameters, another
// style, an object or array in the path, a deprecated parameter, a date-time format Prism checks with
// a rule of its own), goes to Prism's. param-validation.test.ts holds both to the same diagnostics.
import AjvModule, { type ErrorObject, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import type { IPrismDiagnostic } from "@stoplight/prism-core";
import type { PrismHttpComponents } from "@stoplight/prism-http";
import type { SpecOperation } from "../kernel/spec.js";

type ValidateInput = PrismHttpComponents["validateInput"];
type Resource = SpecOperation["prism"];
type Request = NonNullable<Resource["request"]>;
type Param = NonNullable<Request["query"]>[number] | NonNullable<Request["path"]>[number];
type Values = Record<string, unknown>;

/** An operation's parameters of one place (query or path), as Prism checks them. */
interface Checked {
  prefix: "query" | "path";
  /** Each parameter by its name in lower case (Prism matches names in any case; of two the last). */
  params: { lower: string; type: unknown; explode: boolean }[];
  names: Set<string>;
  /** The schema Prism builds from the parameters; compiled when first used, as Prism does. */
  schema: object;
  validate?: ValidateFunction | "failed";
}

interface Compiled {
  query?: Checked;
  path?: Checked & { match: (path: string) => Values | null };
}

// Ajv ships CommonJS; under NodeNext its default export arrives as the module object.
const Ajv = ((AjvModule as any).default ?? AjvModule) as typeof AjvModule.default;
const addFormats = ((addFormatsModule as any).default ?? addFormatsModule) as (ajv: unknown) => void;

/**
 * Formats whose check is the same in Prism's copy of ajv-formats as in the mock's (Prism's is older:
 * its time, date-time and ipv4 differ, and it checks date-time with a rule of its own).
 */
const SAME_FORMATS = new Set(["date", "uuid", "int32", "int64", "email"]);

/** Prism's Ajv options (coercing, every error); its logger keeps quiet about unknown formats only. */
const ajv = new Ajv({
  allErrors: true,
  allowUnionTypes: true,
  allowMatchingProperties: true,
  strict: false,
  coerceTypes: true,
  logger: { warn: (...args: unknown[]) => (typeof args[0] === "string" && args[0].startsWith("unknown format") ? undefined : console.warn(...args)), log: console.log, error: console.error },
});
addFormats(ajv);

/** Prism's validator for the operations it knows, Prism's own (`fallback`) for the rest and for any request with a body. */
export function parameterValidator(operations: readonly SpecOperation[], fallback: ValidateInput): ValidateInput {
  const compiled = new Map<Resource, Compiled>();
  for (const op of operations) {
    const one = compile(op.prism);
    if (one) compiled.set(op.prism, one);
  }
  return (input) => {
    const { resource, element } = input;
    const own = compiled.get(resource as Resource);
    if (!own || element.body !== undefined || hasContentLength(element.headers)) return fallback(input);
    const found: IPrismDiagnostic[] = [];
    if (own.query) check(own.query, element.url.query ?? {}, found);
    if (own.path) check(own.path, own.path.match(element.url.path) ?? {}, found);
    return (found.length > 0 ? { _tag: "Left", left: found } : { _tag: "Right", right: element }) as ReturnType<ValidateInput>;
  };
}

function hasContentLength(headers: Record<string, string> | undefined): boolean {
  for (const name in headers) if (name.toLowerCase() === "content-length") return true;
  return false;
}

/** What this module checks of an operation, or undefined when Prism's own validator must. */
function compile(resource: Resource): Compiled | undefined {
  const request = resource.request;
  if (!request || request.body || request.headers?.length) return undefined;
  const all = [...(request.query ?? []), ...(request.path ?? [])];
  if (all.some((p) => p.deprecated || !formatsOf(p.schema).every((format) => SAME_FORMATS.has(format)))) return undefined;
  if (request.query?.some((p) => !["form", "simple", "unspecified", undefined].includes(p.style) || p.schema?.type === "object")) return undefined;
  if (request.path?.some((p) => !["simple", undefined].includes(p.style) || p.schema?.type === "object" || p.schema?.type === "array")) return undefined;
  const out: Compiled = {};
  const bundle = (resource as { __bundled__?: unknown }).__bundled__;
  if (request.query) out.query = checked("query", request.query, bundle);
  if (request.path) {
    const match = templateMatcher(resource.path);
    if (!match) return undefined;
    out.path = { ...checked("path", request.path, bundle), match };
  }
  return out;
}

/** Every `format` a schema names, at any depth. */
function formatsOf(schema: unknown): string[] {
  const found: string[] = [];
  JSON.stringify(schema ?? {}, (key, value: unknown) => {
    if (key === "format") found.push(String(value));
    return value;
  });
  return found;
}

function checked(prefix: Checked["prefix"], params: readonly Param[], bundle: unknown): Checked {
  // Prism's createJsonSchemaFromParams: the schemas by lower-case name (of two, the last), those named required.
  const byName = new Map(params.map((p) => [p.name.toLowerCase(), p]));
  const properties = Object.fromEntries([...byName].filter(([, p]) => p.schema).map(([name, p]) => [name, p.schema]));
  const required = params.filter((p) => p.required).map((p) => p.name.toLowerCase());
  return {
    prefix,
    params: [...byName].map(([lower, p]) => ({ lower, type: (properties[lower] as { type?: unknown } | undefined)?.type, explode: p.explode || false })),
    names: new Set(byName.keys()),
    // Prism compiles its schema with the operation's bundle beside it (where its $refs point).
    schema: { type: "object", properties, required, __bundled__: bundle },
  };
}

/** Prism's validateParams for one place: the values as its deserialisers read them, then its schema. */
function check(checked: Checked, target: Values, found: IPrismDiagnostic[]): void {
  if (checked.params.length === 0) return;
  // lodash mapKeys(target, lower case): of names alike but for case, the last.
  const given: Values = {};
  for (const key of Object.keys(target)) {
    const lower = key.toLowerCase();
    if (checked.names.has(lower)) given[lower] = target[key];
  }
  const values: Values = {};
  for (const { lower, type, explode } of checked.params) {
    const value = checked.prefix === "query" ? formStyle(given[lower], type, explode) : given[lower];
    // lodash pickBy: a value that is not truthy ("" or none) is left out.
    if (value) values[lower] = value;
  }
  if (checked.validate === undefined) {
    try {
      checked.validate = ajv.compile(checked.schema);
    } catch {
      checked.validate = "failed";
    }
  }
  // Prism finds nothing where Ajv cannot compile or run.
  if (checked.validate === "failed") return;
  try {
    if (checked.validate(values)) return;
  } catch {
    return;
  }
  for (const error of checked.validate.errors ?? []) found.push(diagnostic(error, checked.prefix));
}

/** Prism's form-style query deserialiser (objects go to Prism's own). */
function formStyle(value: unknown, type: unknown, explode: boolean): unknown {
  if (!value) return undefined;
  if (type !== "array") return value;
  if (explode) return Array.isArray(value) ? value : [value];
  return String(Array.isArray(value) ? value[value.length - 1] : value).split(",");
}

/** Prism's wording of an Ajv error (convertAjvErrors), in a request's query or path. */
function diagnostic(error: ErrorObject, prefix: string): IPrismDiagnostic {
  const params = error.params as Record<string, unknown>;
  const allowed = "allowedValues" in params ? `: ${(params.allowedValues as unknown[]).join(", ")}` : "";
  const additional = "additionalProperty" in params ? `; found '${String(params.additionalProperty)}'` : "";
  const unevaluated = "unevaluatedProperty" in params ? `: '${String(params.unevaluatedProperty)}'` : "";
  const at = error.instancePath.split("/").filter((segment) => segment !== "");
  const source = `Request ${prefix} ${at.length > 0 ? "parameter " : ""}${at.join(".").trim()}${at.length > 0 ? " " : ""}`;
  // DiagnosticSeverity.Error.
  return { path: [prefix, ...at], code: error.keyword || "", message: `${source}${error.message || ""}${allowed}${additional}${unevaluated}`, severity: 0 };
}

/**
 * The path parameters as Prism reads them (uri-template-lite's Template match): each {name} matches
 * lazily, values split at commas and percent-decoded, a list when there are several. Undefined for a
 * template with other expressions, which Prism's own validator then reads.
 */
function templateMatcher(template: string): ((path: string) => Values | null) | undefined {
  const parts = template.split(/(\{[A-Za-z0-9_]+\})/);
  const names = parts.filter((_, i) => i % 2 === 1).map((part) => part.slice(1, -1));
  if (new Set(names).size !== names.length || parts.some((part, i) => i % 2 === 0 && /[{}]/.test(part))) return undefined;
  const re = new RegExp(`^${parts.map((part, i) => (i % 2 === 1 ? "(.*?)" : part.replace(/[$-/?[-^{|}]/g, "\\$&"))).join("")}$`);
  return (path) => {
    const match = re.exec(path);
    if (!match) return null;
    const out: Values = {};
    names.forEach((name, i) => {
      const values = (match[i + 1] || "").split(",").map(decodeURIComponent);
      out[name] = values.length > 1 ? values : values[0];
    });
    return out;
  };
}
