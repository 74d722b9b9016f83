// Validates values against schemas of a bundled OpenAPI 3.1 document by JSON pointer. The suite
// ships in the light package, so it uses @cfworker/json-schema (no code generation, no
// dependencies) rather than Ajv, the mock's validator: a deployment is checked by a validator
// independent of the one the mock answers with.
import { Validator, type OutputUnit } from "@cfworker/json-schema";

/** Where the document is registered; a name, never fetched. */
const DOCUMENT_URI = "https://hr-service-contract.invalid/openapi.json";

/** Keywords whose error only says that a nested schema failed; the nested error is reported instead. */
const WRAPPERS = new Set(["$ref", "properties", "items", "prefixItems", "allOf", "additionalProperties", "unevaluatedProperties", "dependentSchemas", "then", "else"]);

/** One thing a value breaks: where in the value, the schema keyword, and the validator's words. */
export interface SchemaError {
  /** JSON pointer into the value ("" for the root); for a missing property, the property's own place. */
  pointer: string;
  keyword: string;
  message: string;
  /** The error as one text: the instance location, then the message ("/data/days Instance type …"). */
  text: string;
}

export interface DocumentValidator {
  /** Validates a value against the schema at a JSON pointer of the document; returns error texts. */
  validate(pointer: string, value: unknown): string[];
  /** The same errors, each with its place and keyword. */
  errors(pointer: string, value: unknown): SchemaError[];
}

export function createDocumentValidator(doc: unknown): DocumentValidator {
  // Per pointer, a validator that stops at the first error (most values are valid: about half the
  // work) and one that finds every error, run only when the first found one.
  const cache = new Map<string, { first: Validator; every: Validator }>();
  const make = (pointer: string, shortCircuit: boolean) => {
    const validator = new Validator({ $ref: `${DOCUMENT_URI}#${pointer}` }, "2020-12", shortCircuit);
    validator.addSchema(doc as object, DOCUMENT_URI);
    return validator;
  };
  const errors = (pointer: string, value: unknown): SchemaError[] => {
    let validators = cache.get(pointer);
    if (!validators) {
      validators = { first: make(pointer, true), every: make(pointer, false) };
      cache.set(pointer, validators);
    }
    if (validators.first.validate(value).valid) return [];
    const result = validators.every.validate(value);
    return result.valid ? [] : describe(result.errors);
  };
  return { errors, validate: (pointer, value) => errors(pointer, value).map((e) => e.text) };
}

const REQUIRED_PROPERTY = /required property "([^"]+)"/;

function describe(units: OutputUnit[]): SchemaError[] {
  const leaves = units.filter((unit) => !WRAPPERS.has(unit.keyword));
  const seen = new Set<string>();
  const out: SchemaError[] = [];
  for (const unit of leaves.length ? leaves : units) {
    const at = unit.instanceLocation.replace(/^#/, "");
    const text = `${at || "(root)"} ${unit.error}`;
    if (seen.has(text)) continue;
    seen.add(text);
    const missing = unit.keyword === "required" ? REQUIRED_PROPERTY.exec(unit.error)?.[1] : undefined;
    out.push({ pointer: missing === undefined ? at : `${at}/${missing.replace(/~/g, "~0").replace(/\//g, "~1")}`, keyword: unit.keyword, message: unit.error, text });
  }
  return out;
}
