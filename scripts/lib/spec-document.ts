// Reading the bundled specs (tests, the contract suite): load, follow $refs, and see a schema's properties through allOf.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export function loadJson(relative: string): any {
  return JSON.parse(fs.readFileSync(path.join(repoRoot, relative), "utf8"));
}

export const loadOpenApi = () => loadJson("generated/openapi.json");
export const loadAsyncApi = () => loadJson("generated/asyncapi.json");

export { resolvePointer, deref, flatten, effective } from "../../src/contract/spec-document.js";

/** Every operation of an OpenAPI document as [method, path, operation]. */
export function operationsOf(openapi: any): [string, string, any][] {
  const out: [string, string, any][] = [];
  for (const [p, item] of Object.entries<any>(openapi.paths ?? {})) {
    for (const m of ["get", "post", "put", "patch", "delete"]) if (item[m]) out.push([m, p, item[m]]);
  }
  return out;
}
