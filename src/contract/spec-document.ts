// Reading a bundled document (the live contract suite, the tests, the docs build): follow local
// $refs, and see a schema's properties through allOf. Pure functions over parsed JSON.

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

/** The key of an operation's responses that documents `status`: the exact code, its class (4XX), then default. */
export function responseKeyOf(responses: Record<string, unknown>, status: number): string | undefined {
  const exact = String(status);
  const range = `${exact[0]}XX`;
  if (exact in responses) return exact;
  if (range in responses) return range;
  return "default" in responses ? "default" : undefined;
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

export const escapeToken = (key: string) => key.replace(/~/g, "~0").replace(/\//g, "~1");

/** Walks a document and yields every node with its JSON pointer. */
export function* walk(node: any, pointer = ""): Generator<[string, any]> {
  if (!node || typeof node !== "object") return;
  yield [pointer, node];
  for (const [key, child] of Object.entries(node)) yield* walk(child, `${pointer}/${escapeToken(key)}`);
}
