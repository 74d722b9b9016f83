// The bundled read API document a pact's matching rules are read from, parsed once, when a pact is
// first asked for.
import { readFileSync } from "node:fs";
import { DEFAULT_SPEC_PATH } from "../kernel/spec.js";

let document: unknown;

export function readDocument(): any {
  document ??= JSON.parse(readFileSync(DEFAULT_SPEC_PATH, "utf8"));
  return document;
}
