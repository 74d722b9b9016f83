// generated/coverage.ts: the types of the coverage report, whose one definition is the control
// document's CoverageReport schema (GET /_mock/coverage answers it). hr-contract writes the same
// format, and the light package must not read the mock's control types (generated/control-api.d.ts
// ships with the mock only), so the report's schemas are typed here on their own, as a .ts file
// both packages compile.
import openapiTS, { astToString } from "openapi-typescript";
import type { BundledDocument } from "./bundle.js";
import { GENERATED_BANNER } from "./banner.js";

type Json = Record<string, any>;
const ROOT = "CoverageReport";

/** The schema named `root` and every component schema it refers to, by name. */
function reachable(schemas: Json, root: string): Json {
  const out: Json = {};
  const queue = [root];
  while (queue.length > 0) {
    const name = queue.pop()!;
    if (name in out) continue;
    if (!(name in schemas)) throw new Error(`the control document has no schema ${name} (the coverage report's)`);
    out[name] = schemas[name];
    for (const [, ref] of JSON.stringify(schemas[name]).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)) queue.push(ref);
  }
  return out;
}

export async function renderCoverageTypes(control: BundledDocument): Promise<string> {
  const schemas = reachable((control.components?.schemas ?? {}) as Json, ROOT);
  const shell = { openapi: "3.1.0", info: { title: "coverage", version: "1" }, paths: {}, components: { schemas: structuredClone(schemas) } };
  const ast = await openapiTS(shell as any, { alphabetize: false, rootTypes: false });
  const body = astToString(ast)
    .replace(/export type paths = Record<string, never>;\n?/, "")
    .replace(/export type webhooks = Record<string, never>;\n?/, "")
    .replace(/export type \$defs = Record<string, never>;\n?/, "")
    .replace(/export type operations = Record<string, never>;\n?/, "");
  const names = Object.keys(schemas).sort();
  return [
    GENERATED_BANNER.trimEnd(),
    "// The coverage report (the control document's CoverageReport and what it refers to).",
    body.trimEnd(),
    "",
    ...names.map((name) => `export type ${name} = components["schemas"]["${name}"];`),
    "",
  ].join("\n");
}
