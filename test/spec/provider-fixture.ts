// The provider's document as the fidelity suites read it (test/fixtures/provider-document.json, written
// once from service-api.md) and the bundled specs they hold it against.
import { effective, loadAsyncApi, loadJson, loadOpenApi } from "../../scripts/lib/spec-document.js";

export const provider = loadJson("test/fixtures/provider-document.json");
export const endpoints: any[] = provider.endpoints;
export const failureStatuses: string[] = provider.failures.statuses;
export const catalogue: Record<string, string> = provider.events.catalogue;
export const eventTypes = Object.keys(catalogue);
export const limitRows: { limit: string; value: string; key: string; number: number }[] = provider.limits.rows;
export const limit = (key: string): number => {
  const row = limitRows.find((r) => r.key === key);
  if (!row) throw new Error(`the fixture's limits have no row ${key}`);
  return row.number;
};
export interface NotShown { section: string; what: string; document: "openapi" | "asyncapi"; pointer: string; shownAs: "assumption" | "unknown"; says: string[] }
export const notShown: NotShown[] = provider.notShown;
export const deliveryRules: { section: string; rule: string; phrases: string[] }[] = provider.events.rules;
export const openapi = loadOpenApi();
export const asyncapi = (() => { try { return loadAsyncApi(); } catch { return undefined; } })();
export const documents: Record<string, any> = { openapi, asyncapi };

export type FieldType = string;

/** Checks that a schema node has the type the provider's table names. */
export function typeProblem(node: any, want: FieldType): string | undefined {
  const s = effective(openapi, node);
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  const has = (t: string) => types.includes(t) || (t === "boolean" && typeof s.const === "boolean") || (t === "string" && typeof s.const === "string");
  switch (want) {
    case "any":
      return undefined;
    case "uuid":
      return has("string") && s.format === "uuid" ? undefined : `want string/uuid, got ${JSON.stringify({ type: s.type, format: s.format })}`;
    case "datetime":
      return has("string") && s.format === "date-time" ? undefined : `want string/date-time, got ${JSON.stringify({ type: s.type, format: s.format })}`;
    case "date":
      return has("string") && s.format === "date" ? undefined : `want string/date, got ${JSON.stringify({ type: s.type, format: s.format })}`;
    case "datetext":
      return has("string") && typeof s.pattern === "string" && new RegExp(s.pattern).test("2026-12-21T00:00:00") && !new RegExp(s.pattern).test("2026-12-21")
        ? undefined
        : `want the YYYY-MM-DDT00:00:00 text with a pattern, got ${JSON.stringify({ type: s.type, pattern: s.pattern })}`;
    case "string[]":
    case "object[]":
    case "uuid[]": {
      if (!has("array")) return `want an array, got ${JSON.stringify(s.type)}`;
      const item = effective(openapi, s.items ?? {});
      if (want === "string[]" && item.type !== "string") return `want items of type string, got ${JSON.stringify(item.type)}`;
      if (want === "uuid[]" && (item.type !== "string" || item.format !== "uuid")) return "want items string/uuid";
      if (want === "object[]" && item.type !== "object" && !item.allOf) return `want items of type object, got ${JSON.stringify(item.type)}`;
      return undefined;
    }
    case "array":
      // The page wrapper's data: its concrete type is given by each list's page schema.
      return undefined;
    default:
      return has(want) ? undefined : `want ${want}, got ${JSON.stringify(s.type ?? s.const)}`;
  }
}

export function visible(text: string): string {
  return text.replace(/`/g, "").replace(/\s+/g, " ").trim();
}
