// Validates values against schemas of a bundled OpenAPI 3.1 document by JSON pointer. The suite
// ships in the light package, so it uses @cfworker/json-schema (no code generation, no
// dependencies) rather than Ajv, the mock's validator: a deployment is checked by a validator
// independent of the one the mock answers with.
import { Validator, type OutputUnit } from "@cfworker/json-schema";

/** Where the document is registered; a name, never fetched. */
const DOCUMENT_URI = "https://hr-service-contract.invalid/openapi.json";

/** Keywords whose error only says that a nested schema failed; the nested error is reported instead. */
const WRAPPERS = new Set(["$ref", "properties", "items", "prefixItems", "allOf", "additionalProperties", "unevaluatedProperties", "dependentSchemas", "then", "else"]);

export interface DocumentValidator {
  /** Validates a value against the schema at a JSON pointer of the document; returns error texts. */
  validate(pointer: string, value: unknown): string[];
}

export function createDocumentValidator(doc: unknown): DocumentValidator {
  const cache = new Map<string, Validator>();
  return {
    validate(pointer, value) {
      let validator = cache.get(pointer);
      if (!validator) {
        validator = new Validator({ $ref: `${DOCUMENT_URI}#${pointer}` }, "2020-12", false);
        validator.addSchema(doc as object, DOCUMENT_URI);
        cache.set(pointer, validator);
      }
      const result = validator.validate(value);
      return result.valid ? [] : describe(result.errors);
    },
  };
}

function describe(errors: OutputUnit[]): string[] {
  const leaves = errors.filter((error) => !WRAPPERS.has(error.keyword));
  return [...new Set((leaves.length ? leaves : errors).map((error) => `${error.instanceLocation.replace(/^#/, "") || "(root)"} ${error.error}`))];
}
