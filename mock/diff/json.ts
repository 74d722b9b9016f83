// JSON helpers of the comparisons over a bundled document (local references only): `$ref`
// resolution, the components some roots reach, a dereferenced copy for @asyncapi/diff.

export type Json = any;

/** The node a local reference (`#/a/b`) points at, or undefined. */
export function resolvePointer(doc: Json, ref: string): Json {
  if (!ref.startsWith("#")) return undefined;
  let node = doc;
  for (const raw of ref.slice(1).split("/").slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (node === null || typeof node !== "object" || !(key in node)) return undefined;
    node = node[key];
  }
  return node;
}

/** A JSON pointer of path segments. */
export const pointer = (path: ReadonlyArray<string | number>): string =>
  path.map((key) => String(key).replace(/~/g, "~0").replace(/\//g, "~1")).join("/");

/** The document's `components` reduced to what `roots` reach through `$ref`s, so that a view ignores other views' components. */
export function reachableComponents(doc: Json, roots: Json[]): Json {
  const kept: Record<string, Record<string, Json>> = {};
  const seen = new Set<string>();
  const walk = (node: Json) => {
    if (node === null || typeof node !== "object") return;
    if (typeof node.$ref === "string" && node.$ref.startsWith("#/components/") && !seen.has(node.$ref)) {
      seen.add(node.$ref);
      const [, , section, name] = node.$ref.split("/");
      const target = resolvePointer(doc, node.$ref);
      if (section && name && target !== undefined) {
        (kept[section] ??= {})[decodeURIComponent(name).replace(/~1/g, "/").replace(/~0/g, "~")] = target;
        walk(target);
      }
    }
    for (const child of Object.values(node)) walk(child);
  };
  roots.forEach(walk);
  return kept;
}

/** Whether every `$ref` under `node` points into `#/components/`, where reachableComponents follows it. */
function refsOnlyComponents(node: Json): boolean {
  if (node === null || typeof node !== "object") return true;
  if (typeof node.$ref === "string" && !node.$ref.startsWith("#/components/")) return false;
  return Object.values(node).every(refsOnlyComponents);
}

/**
 * Two OpenAPI-shaped views without the paths equal in both, components they reach included, and
 * without the components only those reached (security schemes stay): api-smart-diff's time grows
 * with what it walks, and an unchanged path has nothing to report.
 */
export function withoutUnchangedPaths(a: Json, b: Json): [Json, Json] {
  const same = (item: Json, other: Json) =>
    refsOnlyComponents(item) &&
    JSON.stringify(item) === JSON.stringify(other) &&
    JSON.stringify(reachableComponents(a, [item])) === JSON.stringify(reachableComponents(b, [other]));
  const unchanged = new Set(Object.keys(a.paths ?? {}).filter((key) => key in (b.paths ?? {}) && same(a.paths[key], b.paths[key])));
  const cut = (view: Json): Json => {
    const paths = Object.fromEntries(Object.entries<Json>(view.paths ?? {}).filter(([key]) => !unchanged.has(key)));
    const components = reachableComponents(view, [paths]);
    if (view.components?.securitySchemes) components.securitySchemes = view.components.securitySchemes;
    return { ...view, paths, components };
  };
  return [cut(a), cut(b)];
}

/** A copy with every local `$ref` replaced by its target, but for a recursive one, so the copy is a finite tree. */
export function dereference(doc: Json): Json {
  const copy = (node: Json, stack: string[]): Json => {
    if (node === null || typeof node !== "object") return node;
    if (Array.isArray(node)) return node.map((item) => copy(item, stack));
    if (typeof node.$ref === "string" && node.$ref.startsWith("#") && !stack.includes(node.$ref)) {
      const target = resolvePointer(doc, node.$ref);
      if (target !== undefined) {
        const { $ref, ...siblings } = node;
        const resolved = copy(target, [...stack, $ref]);
        return resolved !== null && typeof resolved === "object" && !Array.isArray(resolved) ? { ...resolved, ...copyEntries(siblings, stack) } : resolved;
      }
    }
    return copyEntries(node, stack);
  };
  const copyEntries = (node: Json, stack: string[]): Json => Object.fromEntries(Object.entries(node).map(([key, value]) => [key, copy(value, stack)]));
  return copy(doc, []);
}
