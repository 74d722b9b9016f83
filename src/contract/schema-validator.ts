// Validates values against schemas of a bundled OpenAPI 3.1 document by JSON pointer. The suite
// ships in the light package, so it uses @cfworker/json-schema (no code generation, no
// dependencies) rather than Ajv, the mock's validator: a deployment is checked by a validator
// independent of the one the mock answers with.
import { dereference, validate, type OutputUnit } from "@cfworker/json-schema";
import { resolvePointer } from "./spec-document.js";

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
  // The document is walked once (every schema by its URI); each pointer's schema is validated
  // against in place. A Validator per pointer would walk the whole document again for each one.
  const lookup = dereference({ ...(doc as object), $id: DOCUMENT_URI });
  const roots = new Map<string, unknown>();
  const errors = (pointer: string, value: unknown): SchemaError[] => {
    let root = roots.get(pointer);
    if (root === undefined) {
      root = resolvePointer(doc, `#${pointer}`);
      // Entered under its pointer as well: a schema in a list the walk above does not enter (an
      // operation's inline parameters) is known from then on; one it entered is the same object,
      // already known, and stays as it was.
      dereference(root as object, lookup, new URL(DOCUMENT_URI), pointer);
      roots.set(pointer, root);
    }
    // Most values are valid: a pass that stops at the first error is about half the work, and the
    // pass that finds every error runs only when it found one.
    if (validate(value, root as object, "2020-12", lookup, true).valid) return [];
    const result = validate(value, root as object, "2020-12", lookup, false);
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
