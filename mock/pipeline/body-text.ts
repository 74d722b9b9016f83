// Turns what Prism's request validation found in a JSON body (diagnostics whose path starts with
// "body") into one sentence naming the field and what it accepts, in the words parameters get
// (params.ts): "Missing field url: it is required, ...", "Invalid field events[1]: must be one of
// ...". Which field is missing or unknown is read from the body and the spec's schema, not from
// Prism's message text.
import type { IPrismDiagnostic } from "@stoplight/prism-core";
import { describeSchema, fieldName, lowerFirst, type JsonSchema } from "../kernel/schema-text.js";
import type { SpecBody } from "../kernel/spec.js";
import { quote } from "../kernel/text.js";
import { violation, type Violation } from "../kernel/violations.js";

type Segment = string | number;

/** The first problem of the body, as one finding naming its field; undefined when the diagnostics name none. */
export function describeBodyFailures(body: SpecBody, value: unknown, diagnostics: readonly IPrismDiagnostic[]): Violation | undefined {
  const errors = diagnostics.filter((d) => d.path?.[0] === "body");
  if (errors.length === 0) return undefined;
  const at = (d: IPrismDiagnostic) => d.path!.slice(1) as Segment[];

  // Missing and unknown fields first: they are the usual mistakes, and say the most.
  for (const error of errors.filter((d) => d.code === "required")) {
    const path = at(error);
    const schema = schemaAt(body.schema, path, value);
    const given = valueAt(value, path);
    const missing = (schema?.required as string[] | undefined)?.find((name) => !isObject(given) || !(name in given));
    if (missing !== undefined) {
      const field = [...path, missing];
      const expected = schemaAt(body.schema, field, value);
      return violation("body", `Missing field ${fieldName(field)}: it is required${expected ? `, ${describeSchema(expected)}` : ""}.`, fieldName(field));
    }
  }
  for (const error of errors.filter((d) => d.code === "additionalProperties")) {
    const path = at(error);
    const schema = schemaAt(body.schema, path, value);
    const given = valueAt(value, path);
    const known = Object.keys((schema?.properties as Record<string, unknown> | undefined) ?? {});
    const unknown = isObject(given) ? Object.keys(given).find((name) => !known.includes(name)) : undefined;
    if (unknown !== undefined) return violation("body", `Unknown field ${fieldName([...path, unknown])}: the fields are ${known.join(", ")}.`, fieldName([...path, unknown]));
  }

  // Otherwise the deepest field at fault, described by its schema (a choice by its description).
  const deepest = errors.reduce((best, e) => (at(e).length > at(best).length ? e : best), errors[0]);
  const path = at(deepest);
  const schema = schemaAt(body.schema, path, value);
  const expected = schema ? expectedOf(schema) : "as the control API's description says";
  const name = path.length === 0 ? "body" : fieldName(path);
  // A writeOnly value (a signing secret) is not echoed, not even a malformed one.
  const got = schema?.writeOnly === true ? "" : `, got ${shown(valueAt(value, path))}`;
  return violation("body", `Invalid ${path.length === 0 ? "body" : `field ${name}`}: must be ${expected}${got}.`, path.length === 0 ? undefined : name);
}

function expectedOf(schema: JsonSchema): string {
  // A choice reads better in the spec's own description of the field (written to follow "must be").
  if ((schema.oneOf || schema.anyOf) && typeof schema.description === "string") return lowerFirst(schema.description.replace(/:.*$|\.$/s, ""));
  // An object that takes no fields (a trigger type without overrides) says why in its description.
  if (schema.maxProperties === 0) return `an empty object (${lowerFirst(String(schema.description ?? "").replace(/\.$/, ""))})`;
  if (schema.type === "object") return "a JSON object";
  // A field's description says what it is for, not what it accepts: the pattern itself does.
  return describeSchema({ ...schema, description: undefined });
}

/**
 * The schema of the field at `path`, walking properties and items (into the first oneOf/anyOf
 * branch that has the field, and into the `then` of an allOf part whose `if` the value meets: the
 * trigger body's `set` is the schema its `type` selects).
 */
function schemaAt(root: JsonSchema, path: readonly Segment[], value: unknown): JsonSchema | undefined {
  let schema: JsonSchema | undefined = root;
  let at = value;
  for (const segment of path) {
    schema = step(schema, segment, at);
    at = valueAt(at, [segment]);
  }
  return schema;
}

function step(schema: JsonSchema | undefined, segment: Segment, value: unknown): JsonSchema | undefined {
  if (!schema) return undefined;
  for (const part of (schema.allOf ?? []) as JsonSchema[]) {
    if (part.if && part.then && meetsIf(part.if as JsonSchema, value)) {
      const found = step(part.then as JsonSchema, segment, value);
      if (found) return found;
    }
  }
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  if (properties && typeof segment === "string" && segment in properties) return properties[segment];
  if (schema.items && /^\d+$/.test(String(segment))) return schema.items;
  for (const branch of schema.oneOf ?? schema.anyOf ?? []) {
    const found = step(branch, segment, value);
    if (found) return found;
  }
  return undefined;
}

/** Whether the value meets an `if` made of required names and const or enum properties (the only form the control document uses). */
function meetsIf(condition: JsonSchema, value: unknown): boolean {
  if (!isObject(value)) return false;
  if (((condition.required ?? []) as string[]).some((name) => !(name in value))) return false;
  return Object.entries((condition.properties ?? {}) as Record<string, JsonSchema>).every(([name, rule]) => {
    if (!(name in value)) return true;
    if ("const" in rule) return value[name] === rule.const;
    if (Array.isArray(rule.enum)) return rule.enum.includes(value[name]);
    return true;
  });
}

function valueAt(value: unknown, path: readonly Segment[]): unknown {
  let at = value;
  for (const segment of path) at = isObject(at) || Array.isArray(at) ? (at as Record<string, unknown>)[segment as string] : undefined;
  return at;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A value for a message, never serialised whole: a body may be large or deeply nested. */
function shown(value: unknown): string {
  if (value === undefined) return "nothing";
  if (typeof value === "string") return quote(value);
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (isObject(value)) return "an object";
  return String(value);
}
