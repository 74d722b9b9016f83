// Names a change found at a JSON path of an OpenAPI view (the read API, or the event view of
// either document) in words: the place (operation or event, and the spot in it) and what changed.
// Pure functions; the path is api-smart-diff's, with references already followed.
import { resolvePointer, type Json } from "./json.js";

export interface Described {
  place: string;
  what: string;
  /** The change is inside something the consumer reads (a response, an event), not something it sends. */
  consumerReads: boolean;
  /** The JSON-schema keyword the change is at, when it is inside a schema ("enum", "type", "required", ...). */
  keyword?: string;
}

const COMBINERS = new Set(["allOf", "anyOf", "oneOf"]);

export const show = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 70 ? `${text.slice(0, 67)}…` : text;
};

/** A path inside a schema as a field path and the keyword it ends at. */
export function schemaPath(segments: ReadonlyArray<string | number>): { field: string; rest: Array<string | number> } {
  let field = "";
  let i = 0;
  while (i < segments.length) {
    const key = segments[i];
    if (key === "properties" && i + 1 < segments.length) {
      field += field ? `.${segments[i + 1]}` : String(segments[i + 1]);
      i += 2;
    } else if (key === "items") {
      field += "[]";
      i += 1;
    } else if (key === "additionalProperties" && i + 1 < segments.length) {
      field += ".*";
      i += 1;
    } else if (typeof key === "string" && COMBINERS.has(key) && typeof segments[i + 1] === "number") {
      i += 2;
    } else break;
  }
  return { field, rest: segments.slice(i) as Array<string | number> };
}

/** What happened inside a schema, from the path below `schema` and the action. */
function schemaChange(segments: ReadonlyArray<string | number>, action: string, before: unknown, after: unknown, subject: string) {
  const { field, rest } = schemaPath(segments);
  const name = field ? `\`${field}\`` : subject;
  const [keyword, index] = rest;
  if (keyword === undefined) {
    if (field && action === "add") return { what: `field ${name} added`, keyword: "properties" };
    if (field && action === "remove") return { what: `field ${name} removed`, keyword: "properties" };
    return { what: `${name}: schema ${action === "add" ? "added" : action === "remove" ? "removed" : "replaced"}`, keyword: undefined };
  }
  const kw = String(keyword);
  if (kw === "required" && index !== undefined) {
    const property = action === "remove" ? before : after;
    const full = `\`${field ? `${field}.` : ""}${String(property)}\``;
    return { what: action === "remove" ? `${full} no longer required` : `${full} now required`, keyword: kw };
  }
  const label = kw === "enum" && index !== undefined ? "enum value" : rest.map(String).join(".");
  const values = action === "add" ? `${show(after)} added` : action === "remove" ? `${show(before)} removed` : `${show(before)} → ${show(after)}`;
  return { what: `${name}: ${label} ${values}`, keyword: kw };
}

export const verb = (action: string) => (action === "add" ? "added" : action === "remove" ? "removed" : action === "rename" ? "renamed" : "changed");

/** A parameter of an operation, resolved through `$ref`, as "query parameter PageSize". */
function parameterName(doc: Json, route: string, method: string, index: number): string {
  let parameter = doc?.paths?.[route]?.[method]?.parameters?.[index];
  if (parameter && typeof parameter.$ref === "string") parameter = resolvePointer(doc, parameter.$ref);
  return parameter ? `${parameter.in} parameter ${parameter.name}` : `parameter #${index + 1}`;
}

/** Describes a change of the read-API view; `docOf`, the view the path belongs to, names what the path holds by position. */
export function describeReadApi(path: ReadonlyArray<string | number>, action: string, before: unknown, after: unknown, docOf: Json): Described {
  const [top, route, method, section, ...rest] = path.map((key) => (typeof key === "number" ? key : String(key)));
  if (top !== "paths") {
    const values = action === "replace" ? ` ${show(before)} → ${show(after)}` : "";
    return { place: "document", what: `${path.map(String).join(".")} ${verb(action)}${values}`, consumerReads: false };
  }
  const operation = `${String(method ?? "").toUpperCase()} ${route}`.trim();
  if (method === undefined) return { place: String(route), what: `path ${verb(action)}`, consumerReads: false };
  if (section === undefined) return { place: operation, what: `operation ${verb(action)}`, consumerReads: false };
  if (section === "parameters") {
    const [index, part, ...inner] = rest;
    const parameter = parameterName(docOf, String(route), String(method), Number(index));
    const place = `${operation} · ${parameter}`;
    if (part === undefined) return { place, what: `parameter ${verb(action)}`, consumerReads: false };
    if (part === "schema") return { place, ...schemaChange(inner, action, before, after, "value"), consumerReads: false };
    if (part === "required") return { place, what: after === true ? "now required" : "no longer required", consumerReads: false, keyword: "required" };
    return { place, what: `${String(part)} ${show(before)} → ${show(after)}`, consumerReads: false };
  }
  if (section === "requestBody") {
    const [content, type, schema, ...inner] = rest;
    const place = `${operation} · request body${type ? ` (${String(type)})` : ""}`;
    if (content === "content" && schema === "schema") return { place, ...schemaChange(inner, action, before, after, "body"), consumerReads: false };
    return { place, what: `${rest.map(String).join(".") || "request body"} ${verb(action)}`, consumerReads: false };
  }
  if (section === "responses") {
    const [code, part, key, schema, ...inner] = rest;
    const place = `${operation} · response ${String(code)}`;
    if (part === undefined) return { place, what: `response ${verb(action)}`, consumerReads: true };
    if (part === "content" && schema === "schema") return { place: `${place} (${String(key)})`, ...schemaChange(inner, action, before, after, "body"), consumerReads: true };
    if (part === "headers" && key !== undefined) {
      const header = `${place} · header ${String(key)}`;
      if (schema === undefined) return { place: header, what: `header ${verb(action)}`, consumerReads: true };
      if (schema === "schema") return { place: header, ...schemaChange(inner, action, before, after, "value"), consumerReads: true };
      return { place: header, what: `${[schema, ...inner].map(String).join(".")} ${verb(action)}`, consumerReads: true };
    }
    return { place, what: `${[part, key, schema, ...inner].filter((x) => x !== undefined).map(String).join(".")} ${verb(action)}`, consumerReads: true };
  }
  return { place: operation, what: `${[section, ...rest].map(String).join(".")} ${verb(action)}`, consumerReads: false };
}

/** Describes a change of an event view: `paths./<type>.post.responses.200.content.application/json.schema...`. */
export function describeEvent(path: ReadonlyArray<string | number>, action: string, before: unknown, after: unknown, noun: string): Described {
  const route = String(path[1] ?? "");
  const place = `${noun} ${route.replace(/^\//, "")}`;
  if (path.length <= 3) return { place, what: `${noun} ${verb(action)}`, consumerReads: true };
  const schemaAt = path.indexOf("schema");
  if (schemaAt < 0) return { place, what: `${path.slice(3).map(String).join(".")} ${verb(action)}`, consumerReads: true };
  const inner = path.slice(schemaAt + 1);
  return { place, ...schemaChange(inner, action, before, after, "message"), consumerReads: true };
}
