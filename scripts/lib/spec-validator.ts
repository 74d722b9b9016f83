// Ajv 2020 over a bundled document: any schema inside it can be compiled by JSON pointer.
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

export function createDocumentValidator(doc: any, id = "doc") {
  // strict: false because OpenAPI adds keywords (example, x-*) that are not JSON Schema.
  const ajv = new (Ajv2020 as any)({ strict: false, allErrors: true, validateSchema: false });
  (addFormats as any)(ajv);
  ajv.addSchema(doc, id);
  const cache = new Map<string, any>();
  return {
    /** Validates a value against the schema at a JSON pointer of the document; returns error texts. */
    validate(pointer: string, value: unknown): string[] {
      let fn = cache.get(pointer);
      if (!fn) {
        fn = ajv.compile({ $ref: `${id}#${pointer}` });
        cache.set(pointer, fn);
      }
      return fn(value) ? [] : (fn.errors ?? []).map((e: any) => `${e.instancePath || "(root)"} ${e.message}`);
    },
  };
}

export { walk } from "../../src/contract/spec-document.js";
