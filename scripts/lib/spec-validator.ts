// Ajv 2020 over a bundled document: any schema inside it can be compiled by JSON pointer.
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

/**
 * One Ajv per document text and id in a process, with the schemas compiled so far: the test files a
 * worker runs (isolate: false) load the same documents and compile the same response schemas.
 * Ajv holds a copy of its own, which no caller can change.
 */
const compilers = new Map<string, { ajv: any; cache: Map<string, any> }>();

function compilerFor(doc: any, id: string): { ajv: any; cache: Map<string, any> } {
  const key = `${id}\n${JSON.stringify(doc)}`;
  let found = compilers.get(key);
  if (!found) {
    // strict: false because OpenAPI adds keywords (example, x-*) that are not JSON Schema.
    const ajv = new (Ajv2020 as any)({ strict: false, allErrors: true, validateSchema: false });
    (addFormats as any)(ajv);
    ajv.addSchema(structuredClone(doc), id);
    compilers.set(key, (found = { ajv, cache: new Map() }));
  }
  return found;
}

export function createDocumentValidator(doc: any, id = "doc") {
  const { ajv, cache } = compilerFor(doc, id);
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
