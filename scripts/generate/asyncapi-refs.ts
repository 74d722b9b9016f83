// The bundler inlines every $ref, but AsyncAPI 3 requires an operation's messages to be
// references to its channel's messages (the official JSON Schema rejects inline ones, and
// Modelina then merges all events into one model). This puts back the references the source wrote.
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
