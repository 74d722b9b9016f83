// Turns what Prism's request validation found (its diagnostics, handed back by Prism's seam as
// `input.validations`) into one 400 message that names each parameter and what was wrong, and
// gives the handler the parameters Prism checked, under the spec's spelling. The one rule added to
// Prism's: an integer is written in decimal digits (Prism's Ajv coerces 1e1, +5, " 10" and 0x10).
import type { IPrismDiagnostic } from "@stoplight/prism-core";
import { quote } from "../kernel/text.js";
import { violation, type Violation } from "../kernel/violations.js";
import type { JsonSchema } from "../kernel/schema-text.js";
import type { SpecOperation, SpecParam } from "../kernel/spec.js";

export type Query = Record<string, string | string[] | undefined>;

/** Parameters as the handler receives them: typed from the spec's schemas, with the spec's defaults. */
export type TypedParams = Record<string, unknown>;

export type ParamCheck =
  | { ok: true; query: Query; typed: { query: TypedParams; path: TypedParams } }
  | { ok: false; violations: Violation[] };

/** A pair with broken percent-encoding: `name` as URLSearchParams reads it, `rawValue` as sent (still encoded). */
type MalformedPair = { name: string; rawValue: string };

/**
 * The first name=value pair whose percent-encoding is broken: a "%" without two hex digits, or
 * escapes that are not UTF-8. URLSearchParams would read the first as literal text and the second
 * as U+FFFD, so a client's encoding bug would pass unnoticed as a search that finds nothing.
 */
export function malformedEscape(search: string): MalformedPair | undefined {
  if (!search.includes("%")) return undefined;
  for (const pair of search.split("&")) {
    if (!pair.includes("%")) continue;
    if (/%(?![0-9A-Fa-f]{2})/.test(pair) || !decodes(pair)) {
      const equals = pair.indexOf("=");
      const name = [...new URLSearchParams(pair).keys()][0] ?? "";
      return { name, rawValue: equals < 0 ? "" : pair.slice(equals + 1) };
    }
  }
  return undefined;
}

/** Whether decodeURIComponent reads `text` (its escapes are UTF-8). */
export function decodes(text: string): boolean {
  try {
    return decodeURIComponent(text) !== undefined;
  } catch {
    return false;
  }
}

const ENCODING_HINT = "write a literal % as %25 and percent-encode text as UTF-8";

function describeMalformed(operation: SpecOperation, pair: MalformedPair): Violation {
  const spec = operation.queryParamsByLowerName.get(pair.name.toLowerCase());
  if (spec) return violation("parameter", `Invalid parameter ${spec.name}: malformed percent-encoding, got ${quote(pair.rawValue)}; ${ENCODING_HINT}.`, spec.name);
  return violation("parameter", `Invalid query string: the parameter name ${quote(pair.name)} has a malformed percent-encoding; ${ENCODING_HINT}.`, pair.name);
}

/** Every parameter at fault, given Prism's diagnostics, one finding each in the spec's order (the mock's refusals and the proxy's findings). */
export function paramProblems(operation: SpecOperation, diagnostics: readonly IPrismDiagnostic[], search: string, query: Query, pathParams: Record<string, string>): Violation[] {
  const malformed = malformedEscape(search);
  if (malformed) return [describeMalformed(operation, malformed)];
  // DiagnosticSeverity.Error of a parameter: security findings have no path, the body's are body-text.ts's.
  const errors = diagnostics.filter((d) => d.severity === 0 && d.path?.[0] !== undefined && d.path[0] !== "body");
  if (errors.length > 0) return describeFailures(operation, errors, query, pathParams);
  return integersNotInDecimal(operation, query).map(([spec, value]) =>
    violation("parameter", `Invalid parameter ${spec.name}: must be ${spec.expected}, written in decimal digits without sign, spaces or leading zeros, got ${quote(value)}.`, spec.name),
  );
}

/**
 * A refusal naming every parameter at fault, or the query the handler sees: the spec's parameters
 * under its spelling (Prism matches names in any case), empty values dropped (Prism reads `PageSize=` as absent).
 */
export function checkParams(
  operation: SpecOperation,
  diagnostics: readonly IPrismDiagnostic[],
  search: string,
  query: Query,
  pathParams: Record<string, string>,
): ParamCheck {
  const violations = paramProblems(operation, diagnostics, search, query, pathParams);
  if (violations.length > 0) return { ok: false, violations };
  const canonical = canonicalQuery(operation, query);
  return { ok: true, query: canonical, typed: { query: typedValues(operation.queryParams, canonical), path: typedValues(operation.pathParams, pathParams) } };
}

/**
 * Values Prism has validated, read as their schemas say: integers as numbers, booleans, arrays, a
 * uuid in the lower case the dataset writes, absent ones as the spec's default. Nothing is checked
 * here; that was Prism's job.
 */
function typedValues(params: readonly SpecParam[], given: Query | Record<string, string>): TypedParams {
  const out: TypedParams = {};
  for (const param of params) {
    const value = given[param.name];
    if (value === undefined || value === "") {
      if (param.schema.default !== undefined) out[param.name] = param.schema.default;
      continue;
    }
    out[param.name] = param.repeated ? (Array.isArray(value) ? value : [value]).map((v) => typedValue(param.schema.items ?? {}, v)) : typedValue(param.schema, Array.isArray(value) ? value[value.length - 1] : value);
  }
  return out;
}

function typedValue(schema: JsonSchema, text: string): unknown {
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return alternatives.some((a) => a.type === "integer") && DECIMAL_INTEGER.test(text) ? Number(text) : text;
  switch (schema.type) {
    case "integer":
    case "number":
      return Number(text);
    case "boolean":
      return text === "true";
    default:
      return schema.format === "uuid" ? text.toLowerCase() : text;
  }
}

/**
 * Values of a parameter the spec marks `x-case-insensitive`, written as its enum writes them
 * (approved → Approved), before Prism checks them against the enum.
 */
export function canonicalCase(operations: readonly SpecOperation[], query: Query): void {
  for (const operation of operations) {
    for (const param of operation.queryParams) {
      if (!param.caseInsensitive) continue;
      for (const [name, value] of Object.entries(query)) {
        if (name.toLowerCase() !== param.name.toLowerCase() || value === undefined) continue;
        const spelled = (v: string) => param.caseInsensitive!.get(v.toLowerCase()) ?? v;
        query[name] = Array.isArray(value) ? value.map(spelled) : spelled(value);
      }
    }
  }
}

/**
 * Integers Prism's Ajv accepted that a service reading decimal integers would refuse: 1e1, 0x10,
 * 2.0, +5, " 10", 010 (JavaScript's Number reads them all). A mock more lenient than the service
 * would let a client's bug through, so every integer parameter is written one way: digits, a minus
 * sign for a negative number, no leading zero.
 */
function integersNotInDecimal(operation: SpecOperation, query: Query): [SpecParam, string][] {
  const found: [SpecParam, string][] = [];
  for (const [name, value] of Object.entries(query)) {
    const spec = operation.queryParamsByLowerName.get(name.toLowerCase());
    if (!spec?.integer) continue;
    for (const one of Array.isArray(value) ? value : [value]) {
      if (one !== undefined && readsAsNumber(one) && !DECIMAL_INTEGER.test(one)) found.push([spec, one]);
    }
  }
  return found;
}

const DECIMAL_INTEGER = /^-?(?:0|[1-9][0-9]*)$/;

function readsAsNumber(value: string): boolean {
  return value.trim() !== "" && Number.isFinite(Number(value));
}

function canonicalQuery(operation: SpecOperation, query: Query): Query {
  const out: Query = {};
  for (const [name, value] of Object.entries(query)) {
    const spelled = operation.queryParamsByLowerName.get(name.toLowerCase())?.name;
    if (spelled === undefined) out[name] = value;
    else if (value === undefined || value === "") delete out[spelled];
    else out[spelled] = value;
  }
  return out;
}

/** One finding per failing parameter, in the spec's order of parameters. */
function describeFailures(
  operation: SpecOperation,
  errors: IPrismDiagnostic[],
  query: Query,
  pathParams: Record<string, string>,
): Violation[] {
  const missing = new Set<SpecParam>();
  const invalid = new Set<SpecParam>();
  const unattributed: string[] = [];
  for (const error of errors) {
    const location = error.path?.[0];
    const params = location === "path" ? operation.pathParams : operation.queryParams;
    const required = error.code === "required";
    const name = required ? /required property '([^']+)'/.exec(error.message)?.[1] : error.path?.[1];
    const spec = params.find((p) => p.name.toLowerCase() === name?.toLowerCase());
    if (spec) (required ? missing : invalid).add(spec);
    else unattributed.push(error.message);
  }
  const found: Violation[] = [];
  const add = (spec: SpecParam, sentence: string) => found.push(violation("parameter", sentence, spec.name));
  for (const spec of [...operation.pathParams, ...operation.queryParams]) {
    if (missing.has(spec)) {
      add(spec, `Missing parameter ${spec.name}: it is required, ${spec.expected}.`);
    } else if (invalid.has(spec)) {
      const given = spec.in === "path" ? pathParams[spec.name] : valueOf(query, spec.name);
      if (spec.repeated && typeof given === "string" && given.includes(",")) {
        // The usual mistake with an array parameter: Companies=a,b instead of Companies=a&Companies=b.
        add(spec, `Invalid parameter ${spec.name}: give one value per ${spec.name} parameter and repeat it (${spec.name}=a&${spec.name}=b), not values separated by commas; got ${showValue(given)}.`);
      } else {
        add(spec, `Invalid parameter ${spec.name}: must be ${spec.expected}, got ${showValue(given)}.`);
      }
    }
  }
  for (const message of unattributed) found.push(violation("parameter", `Invalid request: ${message}.`));
  return found;
}

/** The value Prism validated: names match without regard to case, and the last one wins. */
function valueOf(query: Query, name: string): string | string[] | undefined {
  return Object.entries(query).findLast(([key]) => key.toLowerCase() === name.toLowerCase())?.[1];
}

/** A value for a message; of many values only the first few, so the message stays one short line. */
function showValue(value: string | string[] | undefined): string {
  if (value === undefined) return "nothing";
  if (Array.isArray(value)) {
    const shown = value.slice(0, SHOWN_VALUES).map(quote);
    return `${value.length} values (${shown.join(", ")}${value.length > SHOWN_VALUES ? ", ..." : ""})`;
  }
  return quote(value);
}

const SHOWN_VALUES = 3;
