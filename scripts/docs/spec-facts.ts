// Facts the hand-built pages (and the browser test) read from the bundled documents, so no page
// retypes an endpoint, an event type or a permission.
import { deref, isHttpMethod, type Json } from "./spec-locations.js";

export interface OperationFact {
  method: string;
  path: string;
  operationId: string;
  summary: string;
  permission: string | undefined;
  /** The operation's first tag: the API reference groups operations by it. */
  tag: string | undefined;
}

export interface EventFact {
  /** The event type, e.g. leave.approved. */
  name: string;
  title: string;
  summary: string;
}

export function listOperations(openapi: Json): OperationFact[] {
  const operations: OperationFact[] = [];
  for (const [path, item] of Object.entries<Json>(openapi.paths ?? {})) {
    const pathItem = deref(openapi, item);
    for (const [method, operation] of Object.entries<Json>(pathItem ?? {})) {
      if (!isHttpMethod(method)) continue;
      operations.push({
        method: method.toUpperCase(),
        path,
        operationId: String(operation.operationId ?? `${method} ${path}`),
        summary: String(operation.summary ?? operation.operationId ?? ""),
        permission: typeof operation["x-permission"] === "string" ? operation["x-permission"] : undefined,
        tag: typeof operation.tags?.[0] === "string" ? operation.tags[0] : undefined,
      });
    }
  }
  return operations;
}

export function listEvents(asyncapi: Json): EventFact[] {
  return Object.entries<Json>(asyncapi.components?.messages ?? {}).map(([key, message]) => {
    const resolved = deref(asyncapi, message);
    return { name: String(resolved.name ?? key), title: String(resolved.title ?? resolved.name ?? key), summary: String(resolved.summary ?? "") };
  });
}

/** The default base address of the first server (the local mock), with its variables filled in. */
export function defaultBaseUrl(openapi: Json): string {
  const server = openapi.servers?.[0];
  if (!server || typeof server.url !== "string") return "http://127.0.0.1:4010";
  return server.url.replace(/\{(\w+)\}/g, (whole: string, name: string) => String(server.variables?.[name]?.default ?? whole));
}
