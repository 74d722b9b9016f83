// The data file's JSON Schema and TypeScript types, from mock/data/data-file.schema.yaml: each
// `openapi.json#<pointer>` reference is replaced by a copy of that part of the bundled OpenAPI
// document (its own references resolved the same way), so a field the API shows has the API's type,
// enum and limits without being written twice. Examples and x- extensions are the API's; not copied.
import fs from "node:fs";
import path from "node:path";
import YAML from "yaml";
import type { BundledDocument } from "./bundle.js";
import { repoRoot } from "./bundle.js";
import { renderApiTypes } from "./types.js";

const SOURCE = path.join(repoRoot, "mock/data/data-file.schema.yaml");
const OPENAPI_REF = "openapi.json#";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export function renderDataFileSchema(openapi: BundledDocument): Record<string, Json> {
  const source = YAML.parse(fs.readFileSync(SOURCE, "utf8")) as Record<string, Json>;
  const schema = inline(source, openapi as unknown as Json, 0) as Record<string, Json>;
  return { $schema: schema.$schema, $id: "https://hr-service-mock.local/data-file.schema.json", ...schema };
}

/** The data file's types, by openapi-typescript over the schema set as a document's components. */
export async function renderDataFileTypes(schema: Record<string, Json>): Promise<string> {
  const { $defs, $schema: _dialect, $id: _id, ...root } = schema as Record<string, Json> & { $defs: Record<string, Json> };
  const toComponents = (node: Json): Json => {
    if (Array.isArray(node)) return node.map(toComponents);
    if (node === null || typeof node !== "object") return node;
    const out: Record<string, Json> = {};
    for (const [key, value] of Object.entries(node)) {
      out[key] = key === "$ref" && typeof value === "string" ? value.replace("#/$defs/", "#/components/schemas/") : toComponents(value);
    }
    return out;
  };
  const document = {
    openapi: "3.1.0",
    info: { title: "hr-mock data file", version: "1" },
    paths: {},
    components: { schemas: toComponents({ DataFile: root, ...$defs }) },
  };
  return renderApiTypes(document as unknown as BundledDocument);
}

function inline(node: Json, openapi: Json, depth: number): Json {
  if (depth > 50) throw new Error("data-file schema: references nested more than 50 deep");
  if (Array.isArray(node)) return node.map((item) => inline(item, openapi, depth));
  if (node === null || typeof node !== "object") return node;
  const ref = node.$ref;
  if (typeof ref === "string" && (ref.startsWith(OPENAPI_REF) || ref.startsWith("#/components/"))) {
    const pointer = ref.startsWith(OPENAPI_REF) ? ref.slice(OPENAPI_REF.length) : ref.slice(1);
    const target = resolve(openapi, pointer);
    if (target === undefined) throw new Error(`data-file schema: ${ref} is not in the bundled OpenAPI document`);
    const { $ref: _ref, ...siblings } = node;
    return { ...(inline(target, openapi, depth + 1) as Record<string, Json>), ...(inline(siblings, openapi, depth) as Record<string, Json>) };
  }
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "example" || key === "examples" || key.startsWith("x-")) continue;
    out[key] = inline(value, openapi, depth);
  }
  return out;
}

function resolve(document: Json, pointer: string): Json | undefined {
  let at: Json | undefined = document;
  for (const raw of pointer.split("/").slice(1)) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (at === null || typeof at !== "object") return undefined;
    at = Array.isArray(at) ? at[Number(key)] : at[key];
  }
  return at;
}
