// Readable names for places in a bundled OpenAPI 3.1 or AsyncAPI 3 document, for the assumptions
// page: "GET /v1/leaverequest/list · parameter PageSize", "schema LeaveBalance · totalDays",
// "event leave.cancelled · data.status". Pure functions over the parsed JSON.

export type Json = any;
export type SpecKind = "openapi" | "asyncapi";
export type JsonPath = readonly string[];

const HTTP_METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

export function isHttpMethod(key: string): boolean {
  return HTTP_METHODS.has(key);
}

/** The node a local `$ref` ("#/components/schemas/X") points at, or undefined. */
export function resolveLocalRef(doc: Json, ref: string): { node: Json; path: string[] } | undefined {
  if (!ref.startsWith("#/")) return undefined;
  const path = ref
    .slice(2)
    .split("/")
    .map((segment) => decodeURIComponent(segment).replace(/~1/g, "/").replace(/~0/g, "~"));
  let node = doc;
  for (const key of path) {
    if (node === null || typeof node !== "object" || !(key in node)) return undefined;
    node = node[key];
  }
  return { node, path };
}

/** Follows `$ref` chains (a node that is only a reference) to the node they name. */
export function deref(doc: Json, node: Json): Json {
  const seen = new Set<string>();
  while (node && typeof node === "object" && typeof node.$ref === "string" && !seen.has(node.$ref)) {
    seen.add(node.$ref);
    const target = resolveLocalRef(doc, node.$ref);
    if (!target) return node;
    node = target.node;
  }
  return node;
}

function nodeAt(doc: Json, path: JsonPath): Json {
  let node = doc;
  for (const key of path) node = node?.[key];
  return node;
}

/** "data.items[].days" for the segments below a schema; combinators are transparent. */
export function describeSchemaTail(tail: JsonPath): string {
  const names: string[] = [];
  for (let i = 0; i < tail.length; i++) {
    const key = tail[i];
    if (key === "properties" && i + 1 < tail.length) names.push(tail[++i]);
    else if (key === "items") names.length ? (names[names.length - 1] += "[]") : names.push("[]");
    else if (key === "additionalProperties") names.push("*");
    else if (key === "allOf" || key === "oneOf" || key === "anyOf" || key === "prefixItems") i++;
    else if (key === "not" || key === "if" || key === "then" || key === "else") continue;
    else break;
  }
  return names.join(".");
}

type Parts = string[];

function withSchemaTail(parts: Parts, tail: JsonPath, prefix?: string): Parts {
  const described = describeSchemaTail(tail);
  if (prefix && described) return [...parts, `${prefix} ${described}`];
  if (prefix) return [...parts, prefix];
  return described ? [...parts, described] : parts;
}

/** Below a media-type map: `content/<type>/schema/...` is the body. */
function describeContent(parts: Parts, tail: JsonPath): Parts {
  if (tail[0] === "content" && tail[2] === "schema") return withSchemaTail(parts, tail.slice(3), "body");
  return parts;
}

function describeOpenApiResponseTail(doc: Json, parts: Parts, tail: JsonPath): Parts {
  if (tail[0] === "headers" && tail[1] !== undefined) {
    const headerParts = [...parts, `header ${tail[1]}`];
    return tail[2] === "schema" ? withSchemaTail(headerParts, tail.slice(3)) : headerParts;
  }
  return describeContent(parts, tail);
}

function parameterName(doc: Json, node: Json, fallback: string): string {
  const parameter = deref(doc, node);
  return typeof parameter?.name === "string" ? parameter.name : fallback;
}

function describeOpenApiOperationTail(doc: Json, base: JsonPath, parts: Parts, tail: JsonPath): Parts {
  const [key, index, ...rest] = tail;
  if (key === "parameters" && index !== undefined) {
    const name = parameterName(doc, nodeAt(doc, [...base, key, index]), `#${index}`);
    const named = [...parts, `parameter ${name}`];
    return rest[0] === "schema" ? withSchemaTail(named, rest.slice(1)) : named;
  }
  if (key === "responses" && index !== undefined) return describeOpenApiResponseTail(doc, [...parts, `response ${index}`], rest);
  if (key === "requestBody") return describeContent([...parts, "request body"], tail.slice(1));
  return parts;
}

/** Message fields (and a trait's, which merge into the message): payload and headers. */
function describeMessageTail(parts: Parts, tail: JsonPath): Parts {
  const [key, ...rest] = tail;
  if (key === "payload") return withSchemaTail(parts, rest);
  if (key === "headers") {
    if (rest[0] === "properties" && rest[1] !== undefined) return withSchemaTail([...parts, `header ${rest[1]}`], rest.slice(2));
    return [...parts, "headers"];
  }
  if (key === "traits" && rest[0] !== undefined) return describeMessageTail(parts, rest.slice(1));
  return parts;
}

function eventName(doc: Json, node: Json, fallback: string): string {
  const message = deref(doc, node);
  return typeof message?.name === "string" ? message.name : fallback;
}

function describeOpenApi(doc: Json, path: JsonPath): Parts | undefined {
  const [area, name, third, ...rest] = path;
  if ((area === "paths" || area === "webhooks") && name !== undefined) {
    if (third !== undefined && isHttpMethod(third)) {
      const head = area === "paths" ? `${third.toUpperCase()} ${name}` : `webhook ${name}`;
      return describeOpenApiOperationTail(doc, path.slice(0, 3), [head], rest);
    }
    const head = area === "paths" ? `path ${name}` : `webhook ${name}`;
    return third === undefined ? [head] : describeOpenApiOperationTail(doc, path.slice(0, 2), [head], path.slice(2));
  }
  if (area === "components" && name !== undefined && third !== undefined) {
    const tail = rest;
    switch (name) {
      case "schemas":
        return withSchemaTail([`schema ${third}`], tail);
      case "parameters": {
        const named = [`parameter ${parameterName(doc, nodeAt(doc, path.slice(0, 3)), third)}`];
        return tail[0] === "schema" ? withSchemaTail(named, tail.slice(1)) : named;
      }
      case "responses":
        return describeOpenApiResponseTail(doc, [`response ${third}`], tail);
      case "headers":
        return tail[0] === "schema" ? withSchemaTail([`header ${third}`], tail.slice(1)) : [`header ${third}`];
      case "requestBodies":
        return describeContent([`request body ${third}`], tail);
      case "securitySchemes":
        return [`security scheme ${third}`];
      case "pathItems":
        return [`path item ${third}`];
    }
  }
  return undefined;
}

function describeAsyncApi(doc: Json, path: JsonPath): Parts | undefined {
  const [area, name, third, fourth, ...rest] = path;
  if (area === "operations" && name !== undefined) {
    if (third === "messages" && fourth !== undefined) {
      return describeMessageTail([`event ${eventName(doc, nodeAt(doc, path.slice(0, 4)), fourth)}`], rest);
    }
    return [`operation ${name}`];
  }
  if (area === "channels" && name !== undefined) {
    if (third === "messages" && fourth !== undefined) {
      return describeMessageTail([`event ${eventName(doc, nodeAt(doc, path.slice(0, 4)), fourth)}`], rest);
    }
    return [`channel ${name}`];
  }
  if (area === "servers" && name !== undefined) return [`server ${name}`];
  if (area === "components" && name !== undefined && third !== undefined) {
    const tail = path.slice(3);
    switch (name) {
      case "schemas":
        return withSchemaTail([`schema ${third}`], tail);
      case "messages":
        return describeMessageTail([`event ${eventName(doc, nodeAt(doc, path.slice(0, 3)), third)}`], tail);
      case "messageTraits":
        return describeMessageTail([`message trait ${third}`], tail);
      case "securitySchemes":
        return [`security scheme ${third}`];
      case "channels":
        return [`channel ${third}`];
      case "operations":
        return [`operation ${third}`];
    }
  }
  return undefined;
}

/** A readable name for the node at `path`; the JSON path itself when the place has no name. */
export function describeLocation(kind: SpecKind, doc: Json, path: JsonPath): string {
  if (path.length === 0) return "document";
  if (path[0] === "info") return "document description";
  const parts = kind === "openapi" ? describeOpenApi(doc, path) : describeAsyncApi(doc, path);
  return parts ? parts.join(" · ") : path.join(" › ");
}

export interface Root {
  /** "GET /v1/leaverequest/list", "webhook leave.cancelled", "event leave.cancelled", "operation sendWebhookEvent". */
  label: string;
  /** "operation" (read API), "webhook" (OpenAPI webhooks), "event" (AsyncAPI messages) or "delivery" (AsyncAPI operations and channels). */
  group: "operation" | "webhook" | "event" | "delivery";
  path: string[];
  /** Keys not followed from this root (an AsyncAPI operation lists every message; the messages are roots of their own). */
  skip: ReadonlySet<string>;
}

/** The places a reader thinks in: API operations and webhooks; AsyncAPI events and the delivery operation. */
export function findRoots(kind: SpecKind, doc: Json): Root[] {
  const roots: Root[] = [];
  const none = new Set<string>();
  if (kind === "openapi") {
    for (const area of ["paths", "webhooks"] as const) {
      for (const [name, item] of Object.entries<Json>(doc[area] ?? {})) {
        const pathItem = deref(doc, item);
        for (const method of Object.keys(pathItem ?? {}).filter(isHttpMethod)) {
          roots.push({
            label: area === "paths" ? `${method.toUpperCase()} ${name}` : `webhook ${name}`,
            group: area === "paths" ? "operation" : "webhook",
            path: [area, name, method],
            skip: none,
          });
        }
      }
    }
    return roots;
  }
  for (const id of Object.keys(doc.operations ?? {})) {
    roots.push({ label: `operation ${id}`, group: "delivery", path: ["operations", id], skip: new Set(["messages", "channel", "reply"]) });
  }
  for (const id of Object.keys(doc.channels ?? {})) {
    roots.push({ label: `channel ${id}`, group: "delivery", path: ["channels", id], skip: new Set(["messages", "servers"]) });
  }
  for (const [key, message] of Object.entries<Json>(doc.components?.messages ?? {})) {
    roots.push({ label: `event ${eventName(doc, message, key)}`, group: "event", path: ["components", "messages", key], skip: none });
  }
  return roots;
}
