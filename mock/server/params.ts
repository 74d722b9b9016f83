// Request validation through Prism's own parameter validators (prism-http validator/validators:
// the same deserialisers, Ajv options and caches as Prism's request pipeline), with Prism's
// diagnostics turned into one 400 message that names each parameter and what was wrong.
import { createRequire } from "node:module";
import type { IPrismDiagnostic } from "@stoplight/prism-core";
import { quote } from "../resources/query.js";
import type { SpecOperation, SpecParam } from "./spec.js";

type Either<L, R> = { _tag: "Left"; left: L } | { _tag: "Right"; right: R };
type ParamValidator = (
  target: Record<string, unknown>,
  specs: unknown[],
  context: number,
  bundle?: unknown,
) => Either<IPrismDiagnostic[], unknown>;

const require = createRequire(import.meta.url);
const prismValidators = require("@stoplight/prism-http/dist/validator/validators/index.js") as {
  validateQuery: ParamValidator;
  validatePath: ParamValidator;
};
const INPUT_CONTEXT = 0; // prism-http ValidationContext.Input

export type Query = Record<string, string | string[] | undefined>;

export type ParamCheck =
  | { ok: true; query: Query }
  | { ok: false; message: string };

/**
 * The query string (without "?") and path parameters of a request routed to `operation`, checked:
 * first that the query string is well percent-encoded, then every parameter through checkParams.
 */
export function checkRequest(operation: SpecOperation, search: string, pathParams: Record<string, string>): ParamCheck {
  const malformed = malformedEscape(search);
  if (malformed) return { ok: false, message: describeMalformed(operation, malformed) };
  return checkParams(operation, parseQuery(search), pathParams);
}

/** Query string to name → value, a repeated name giving an array (as Prism's server does). */
export function parseQuery(search: string): Query {
  const query: Query = {};
  if (search === "") return query;
  for (const [name, value] of new URLSearchParams(search)) {
    const previous = query[name];
    if (previous === undefined) query[name] = value;
    else if (Array.isArray(previous)) previous.push(value);
    else query[name] = [previous, value];
  }
  return query;
}

interface MalformedPair {
  /** The parameter's name as URLSearchParams reads it. */
  name: string;
  /** The value as sent, still encoded. */
  rawValue: string;
}

/**
 * The first name=value pair whose percent-encoding is broken: a "%" without two hex digits, or
 * escapes that are not UTF-8. URLSearchParams would read the first as literal text and the second
 * as U+FFFD, so a client's encoding bug would pass unnoticed as a search that finds nothing.
 */
export function malformedEscape(search: string): MalformedPair | undefined {
  if (!search.includes("%")) return undefined;
  for (const pair of search.split("&")) {
    if (!pair.includes("%")) continue;
    let broken = /%(?![0-9A-Fa-f]{2})/.test(pair);
    if (!broken) {
      try {
        decodeURIComponent(pair);
      } catch {
        broken = true;
      }
    }
    if (broken) {
      const equals = pair.indexOf("=");
      const name = [...new URLSearchParams(pair).keys()][0] ?? "";
      return { name, rawValue: equals < 0 ? "" : pair.slice(equals + 1) };
    }
  }
  return undefined;
}

const ENCODING_HINT = "write a literal % as %25 and percent-encode text as UTF-8";

function describeMalformed(operation: SpecOperation, pair: MalformedPair): string {
  const spec = operation.queryParamsByLowerName.get(pair.name.toLowerCase());
  if (spec) return `Invalid parameter ${spec.name}: malformed percent-encoding, got ${quote(pair.rawValue)}; ${ENCODING_HINT}.`;
  return `Invalid query string: the parameter name ${quote(pair.name)} has a malformed percent-encoding; ${ENCODING_HINT}.`;
}

/**
 * Validates the query and path parameters of a request routed to `operation`. On success it gives
 * the query the handler sees: spec parameters under the spec's spelling (Prism matches names
 * without regard to case, so the handler must see what Prism checked), empty values dropped
 * (Prism treats `PageSize=` as absent) and numbers written canonically ("+07" is 7). Numbers
 * Prism would coerce from other notations (1e1, 0x10, 2.0) are refused.
 */
export function checkParams(operation: SpecOperation, query: Query, pathParams: Record<string, string>): ParamCheck {
  const bundle = (operation.prism as unknown as { __bundled__?: unknown }).__bundled__;
  const diagnostics: IPrismDiagnostic[] = [];
  const request = operation.prism.request;
  if (request?.query && request.query.length > 0) {
    const result = prismValidators.validateQuery(query, request.query, INPUT_CONTEXT, bundle);
    if (result._tag === "Left") diagnostics.push(...result.left);
  }
  if (request?.path && request.path.length > 0) {
    const result = prismValidators.validatePath(pathParams, request.path, INPUT_CONTEXT, bundle);
    if (result._tag === "Left") diagnostics.push(...result.left);
  }
  const errors = diagnostics.filter((d) => d.severity === 0); // DiagnosticSeverity.Error
  if (errors.length > 0) return { ok: false, message: describeFailures(operation, errors, query, pathParams) };
  const notDecimal = numbersNotInDecimal(operation, query);
  if (notDecimal.length > 0) {
    return { ok: false, message: notDecimal.map(([spec, value]) => `Invalid parameter ${spec.name}: must be ${spec.expected}, written in decimal digits, got ${quote(value)}.`).join(" ") };
  }
  return { ok: true, query: canonicalQuery(operation, query) };
}

/**
 * Numbers Prism's Ajv accepted that a service reading decimal integers would refuse: 1e2, 0x10,
 * 2.0 (JavaScript's Number reads them all). A mock more lenient than the service would let a
 * client's bug through, so they are a 400 here, as the LeaveStatus assumption says ("the numbers 0
 * to 5; anything else is a 400"). Signs, leading zeros and surrounding spaces stay accepted.
 */
function numbersNotInDecimal(operation: SpecOperation, query: Query): [SpecParam, string][] {
  const found: [SpecParam, string][] = [];
  for (const [name, value] of Object.entries(query)) {
    const spec = operation.queryParamsByLowerName.get(name.toLowerCase());
    if (!spec?.numeric || typeof value !== "string") continue;
    if (readsAsNumber(value) && !DECIMAL_INTEGER.test(value)) found.push([spec, value]);
  }
  return found;
}

const DECIMAL_INTEGER = /^\s*[+-]?\d+\s*$/;

function readsAsNumber(value: string): boolean {
  return value.trim() !== "" && Number.isFinite(Number(value));
}

function canonicalQuery(operation: SpecOperation, query: Query): Query {
  const out: Query = {};
  for (const [name, value] of Object.entries(query)) {
    const spec = operation.queryParamsByLowerName.get(name.toLowerCase());
    if (!spec) {
      out[name] = value;
      continue;
    }
    if (value === undefined || value === "") {
      delete out[spec.name];
      continue;
    }
    // " 07" and "+7" are read as 7 by Prism; the handler then reads "7".
    out[spec.name] = spec.numeric && typeof value === "string" && readsAsNumber(value) ? String(Number(value)) : value;
  }
  return out;
}

/** One sentence per failing parameter, in the spec's order of parameters. */
function describeFailures(
  operation: SpecOperation,
  errors: IPrismDiagnostic[],
  query: Query,
  pathParams: Record<string, string>,
): string {
  const missing = new Set<SpecParam>();
  const invalid = new Set<SpecParam>();
  const unattributed: string[] = [];
  for (const error of errors) {
    const location = error.path?.[0];
    const params = location === "path" ? operation.pathParams : operation.queryParams;
    if (error.code === "required") {
      const name = /required property '([^']+)'/.exec(error.message)?.[1];
      const spec = params.find((p) => p.name.toLowerCase() === name?.toLowerCase());
      if (spec) missing.add(spec);
      else unattributed.push(error.message);
      continue;
    }
    const name = error.path?.[1];
    const spec = params.find((p) => p.name.toLowerCase() === name?.toLowerCase());
    if (spec) invalid.add(spec);
    else unattributed.push(error.message);
  }
  const sentences: string[] = [];
  for (const spec of [...operation.pathParams, ...operation.queryParams]) {
    if (missing.has(spec)) {
      sentences.push(`Missing parameter ${spec.name}: it is required, ${spec.expected}.`);
    } else if (invalid.has(spec)) {
      const given = spec.in === "path" ? pathParams[spec.name] : valueOf(query, spec.name);
      if (spec.repeated && typeof given === "string" && given.includes(",")) {
        // The usual mistake with an array parameter: Companies=a,b instead of Companies=a&Companies=b.
        sentences.push(`Invalid parameter ${spec.name}: give one value per ${spec.name} parameter and repeat it (${spec.name}=a&${spec.name}=b), not values separated by commas; got ${showValue(given)}.`);
      } else {
        sentences.push(`Invalid parameter ${spec.name}: must be ${spec.expected}, got ${showValue(given)}.`);
      }
    }
  }
  for (const message of unattributed) sentences.push(`Invalid request: ${message}.`);
  return sentences.join(" ");
}

/** The value Prism validated: names match without regard to case, and the last one wins. */
function valueOf(query: Query, name: string): string | string[] | undefined {
  let found: string | string[] | undefined;
  for (const [key, value] of Object.entries(query)) {
    if (key.toLowerCase() === name.toLowerCase()) found = value;
  }
  return found;
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
