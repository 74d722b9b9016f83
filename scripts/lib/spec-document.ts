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

export function resolvePointer(doc: any, ref: string): any {
  if (!ref.startsWith("#/")) throw new Error(`only local refs are expected in a bundle, got ${ref}`);
  return ref
    .slice(2)
    .split("/")
    .map((p) => decodeURIComponent(p).replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce((node, key) => {
      if (node === undefined || !(key in node)) throw new Error(`unresolvable $ref ${ref}`);
      return node[key];
    }, doc);
}

/** Follows $ref chains; sibling keywords of a $ref (description, example) win over the target's. */
export function deref(doc: any, node: any): any {
  let current = node;
  let siblings: Record<string, unknown> = {};
  while (current && typeof current === "object" && typeof current.$ref === "string") {
    const { $ref, ...rest } = current;
    siblings = { ...rest, ...siblings };
    current = resolvePointer(doc, $ref);
  }
  return Object.keys(siblings).length ? { ...current, ...siblings } : current;
}

/** The properties and required names of a schema, merged through allOf. */
export function flatten(doc: any, schemaNode: any): { properties: Record<string, any>; required: Set<string>; schema: any } {
  const schema = deref(doc, schemaNode);
  const properties: Record<string, any> = {};
  const required = new Set<string>(schema.required ?? []);
  for (const part of schema.allOf ?? []) {
    const flat = flatten(doc, part);
    Object.assign(properties, flat.properties);
    flat.required.forEach((r) => required.add(r));
  }
  for (const [name, prop] of Object.entries<any>(schema.properties ?? {})) {
    properties[name] = properties[name] ? { allOf: [properties[name], prop] } : prop;
  }
  return { properties, required, schema };
}

/** A property's effective schema: its own keywords merged over its allOf/$ref parts. */
export function effective(doc: any, node: any): any {
  const schema = deref(doc, node);
  if (!schema.allOf) return schema;
  return schema.allOf.reduce((acc: any, part: any) => ({ ...effective(doc, part), ...acc }), { ...schema, allOf: undefined });
}

/** Every operation of an OpenAPI document as [method, path, operation]. */
export function operationsOf(openapi: any): [string, string, any][] {
  const out: [string, string, any][] = [];
  for (const [p, item] of Object.entries<any>(openapi.paths ?? {})) {
    for (const m of ["get", "post", "put", "patch", "delete"]) if (item[m]) out.push([m, p, item[m]]);
  }
  return out;
}
