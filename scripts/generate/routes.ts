// generated/routes.ts: every operation of the two documents the mock serves (the read API and its
// control API), as method, path template, document and tags, and the read API's default server
// address: what code needs to route or list the operations (the MSW handlers, one per operation)
// without loading either document.
import type { BundledDocument } from "./bundle.js";
import { GENERATED_BANNER } from "./banner.js";

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

export interface Route {
  operationId: string;
  method: string;
  path: string;
  api: "read" | "control";
  tags: string[];
}

export function routesOf(document: BundledDocument, api: Route["api"]): Route[] {
  const routes: Route[] = [];
  for (const [path, item] of Object.entries<Record<string, any>>(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      if (typeof operation.operationId !== "string") throw new Error(`${method.toUpperCase()} ${path} has no operationId`);
      routes.push({ operationId: operation.operationId, method: method.toUpperCase(), path, api, tags: operation.tags ?? [] });
    }
  }
  return routes;
}

/** The read API's first server address with its variables' defaults (http://127.0.0.1:4010). */
export function defaultServerUrl(openapi: BundledDocument): string {
  const server = openapi.servers?.[0];
  if (typeof server?.url !== "string") throw new Error("the read API's document names no server");
  return server.url.replace(/\{(\w+)\}/g, (_: string, name: string) => {
    const value = server.variables?.[name]?.default;
    if (typeof value !== "string") throw new Error(`the server variable ${name} has no default`);
    return value;
  });
}

export function renderRoutes(openapi: BundledDocument, control: BundledDocument): string {
  const routes = [...routesOf(openapi, "read"), ...routesOf(control, "control")];
  const lines = routes.map((r) => `  ${JSON.stringify(r)},`);
  return [
    GENERATED_BANNER.trimEnd(),
    "",
    "/** Every operation of the read API (api \"read\") and of the mock's control API (\"control\"), in the documents' order. */",
    `export const routes = [\n${lines.join("\n")}\n] as const satisfies readonly { operationId: string; method: string; path: string; api: "read" | "control"; tags: readonly string[] }[];`,
    "",
    "export type Route = (typeof routes)[number];",
    "",
    "/** The read API's server address, its variables at their defaults: where the mock listens unless told otherwise. */",
    `export const defaultServerUrl = ${JSON.stringify(defaultServerUrl(openapi))};`,
    "",
  ].join("\n");
}
