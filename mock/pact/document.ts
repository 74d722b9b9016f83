// The bundled read API document a pact's matching rules are read from, parsed once, when a pact is
// first asked for (Node only: a browser's MSW handlers have no file to read).
import { readFile } from "node:fs/promises";
import { DEFAULT_SPEC_PATH } from "../kernel/spec.js";

let document: Promise<any> | undefined;

export function readDocument(): Promise<any> {
  // A failed read is not kept: the next ask tries again.
  document ??= readFile(DEFAULT_SPEC_PATH, "utf8")
    .then((text) => JSON.parse(text))
    .catch((error: unknown) => {
      document = undefined;
      throw error;
    });
  return document;
}
