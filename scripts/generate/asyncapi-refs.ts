// The bundler inlines every $ref, but AsyncAPI 3 requires an operation's messages to be
// references to its channel's messages (the official JSON Schema rejects inline ones, and
// Modelina then merges all events into one model). This puts back the references the source wrote.
import { isDeepStrictEqual } from "node:util";
import type { BundledDocument } from "./bundle.js";

type Ref = { $ref: string };
const isInternalRef = (value: unknown): value is Ref =>
  typeof value === "object" && value !== null && typeof (value as Ref).$ref === "string" && (value as Ref).$ref.startsWith("#/");

export function restoreOperationMessageRefs(bundled: BundledDocument, source: BundledDocument): BundledDocument {
  const operations: Record<string, any> = {};
  for (const [id, operation] of Object.entries<Record<string, any>>(bundled.operations ?? {})) {
    const written: unknown[] = source.operations?.[id]?.messages ?? [];
    const messages = (operation.messages ?? []).map((message: unknown, index: number) => {
      const ref = written[index];
      return isInternalRef(ref) ? { $ref: ref.$ref } : message;
    });
    operations[id] = { ...operation, messages };
  }
  return { ...bundled, operations };
}

/**
 * The bundler also inlines the schema a message trait's headers name (WebhookHeaders), leaving the
 * component unused and the headers anonymous. Every headers or payload schema that is an exact copy
 * of a component schema becomes a reference to it again.
 */
export function restoreComponentSchemaRefs(bundled: BundledDocument): BundledDocument {
  const schemas = Object.entries<unknown>(bundled.components?.schemas ?? {});
  const refFor = (value: unknown): Ref | undefined => {
    const found = schemas.find(([, schema]) => isDeepStrictEqual(schema, value));
    return found ? { $ref: `#/components/schemas/${found[0]}` } : undefined;
  };
  const walk = (node: unknown, inSchemas: boolean): unknown => {
    if (Array.isArray(node)) return node.map((item) => walk(item, inSchemas));
    if (typeof node !== "object" || node === null) return node;
    return Object.fromEntries(
      Object.entries(node).map(([key, value]) => {
        if (!inSchemas && (key === "headers" || key === "payload")) return [key, refFor(value) ?? walk(value, true)];
        return [key, walk(value, inSchemas)];
      }),
    );
  };
  // The component schemas themselves stay as written (each is its own definition).
  const components = Object.fromEntries(
    Object.entries<unknown>(bundled.components ?? {}).map(([kind, entries]) => [kind, kind === "schemas" ? entries : walk(entries, false)]),
  );
  return { ...(walk({ ...bundled, components: undefined }, false) as BundledDocument), components };
}
