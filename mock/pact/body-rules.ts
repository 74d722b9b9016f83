// A response body for a Pact interaction and its matching rules, both read from the OpenAPI schema
// of the answer (never from one recording): the body is the schema's own examples (every required
// field, one item per list), and each value gets the rule that any value the schema allows meets —
// a type, a regex for a pattern or a format, the enum as a regex, a minimum length for a list — so a
// pact holds against a mock of any seed and any --today, and against the real service.

import { effective, flatten } from "../../src/contract/spec-document.js";

/** A JSON Schema node of the bundled document (only what this reads). */
type Schema = Record<string, any>;

/** Pact V4 matchers of one place: `{ combine, matchers }`. */
export interface RuleSet {
  combine: "AND";
  matchers: Record<string, unknown>[];
}

export interface BodyWithRules {
  body: unknown;
  /** Matching rules by Pact path ($.data.data[*].id). */
  rules: Record<string, RuleSet>;
}

/** Regexes of the formats the contract uses (RFC 3339 date-time, RFC 4122 uuid, an address). */
const FORMAT_REGEX: Record<string, string> = {
  "date-time": "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})?$",
  date: "^\\d{4}-\\d{2}-\\d{2}$",
  uuid: "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$",
  email: "^[^@\\s]+@[^@\\s]+$",
};

const FORMAT_EXAMPLE: Record<string, string> = {
  "date-time": "2026-01-05T09:00:00Z",
  date: "2026-01-05",
  uuid: "00000000-0000-4000-8000-000000000000",
  email: "someone@example.com",
};

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/** The enum as one anchored alternation. */
export const enumRegex = (values: readonly unknown[]) => `^(${values.map((v) => escapeRegex(String(v))).join("|")})$`;

/** A Pact path step for a property name ($.a or $['a b']). */
const step = (name: string) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? `.${name}` : `['${name.replace(/'/g, "\\'")}']`);

/** The body and matching rules of a value of `schema` at Pact path `at` ("$" for the body). */
export function bodyWithRules(doc: unknown, schema: Schema, at = "$"): BodyWithRules {
  const rules: Record<string, RuleSet> = {};
  const body = walk(doc, schema, at, rules);
  return { body, rules };
}

const rule = (...matchers: Record<string, unknown>[]): RuleSet => ({ combine: "AND", matchers });

function walk(doc: unknown, raw: Schema, at: string, rules: Record<string, RuleSet>): unknown {
  // Keywords merged through $ref and allOf; an object's properties and required names through flatten.
  const schema = effective(doc, raw);
  if ("const" in schema) {
    rules[at] = rule({ match: "equality" });
    return schema.const;
  }
  const type = schema.type ?? (schema.properties ? "object" : schema.items ? "array" : undefined);
  if (type === "object") {
    const { properties, required } = flatten(doc, raw);
    const out: Record<string, unknown> = {};
    // Only the required fields: Pact lets an answer carry more than the pact names, never less.
    for (const name of required) {
      const sub = properties[name];
      if (sub) out[name] = walk(doc, sub, `${at}${step(name)}`, rules);
    }
    return out;
  }
  if (type === "array") {
    const min = typeof schema.minItems === "number" ? schema.minItems : 0;
    rules[at] = rule({ match: "type", min });
    const item = schema.items ? walk(doc, schema.items, `${at}[*]`, rules) : undefined;
    return item === undefined ? [] : [item];
  }
  const example = schema.example ?? (Array.isArray(schema.examples) ? schema.examples[0] : undefined);
  if (Array.isArray(schema.enum)) {
    const matchers: Record<string, unknown>[] = [{ match: "regex", regex: enumRegex(schema.enum) }];
    if (type === "integer") matchers.unshift({ match: "integer" });
    rules[at] = rule(...matchers);
    return example ?? schema.enum[0];
  }
  if (type === "string") {
    const regex = schema.pattern ?? FORMAT_REGEX[schema.format as string];
    rules[at] = regex ? rule({ match: "regex", regex }) : rule({ match: "type" });
    return example ?? FORMAT_EXAMPLE[schema.format as string] ?? "text";
  }
  if (type === "integer" || type === "number") {
    rules[at] = rule({ match: type });
    return example ?? schema.minimum ?? 0;
  }
  if (type === "boolean") {
    rules[at] = rule({ match: "type" });
    return example ?? true;
  }
  if (type === "null") {
    rules[at] = rule({ match: "null" });
    return null;
  }
  // A schema without a type (any value): the example as it is, matched by type.
  rules[at] = rule({ match: "type" });
  return example ?? null;
}
