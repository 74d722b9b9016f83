// The bundled read API document the packages ship (generated/ in a clone, dist/generated/ once
// installed): where it is, and the document parsed once per process for the readers that take it
// as it ships (the mock's operations, the pact export). A browser has no file to read: there the
// read rejects, and its callers say what they cannot do.
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

export const BUNDLED_OPENAPI = fileURLToPath(new URL("../../generated/openapi.json", import.meta.url));

let document: Promise<any> | undefined;

/** The bundled document, parsed once; nothing may change it. A failed read is not kept: the next ask tries again. */
export function readBundledOpenapi(): Promise<any> {
  document ??= readFile(BUNDLED_OPENAPI, "utf8")
    .then((text) => JSON.parse(text))
    .catch((error: unknown) => {
      document = undefined;
      throw error;
    });
  return document;
}
