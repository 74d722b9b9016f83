// Writes generated/client.ts: one typed method per operationId over openapi-fetch,
// plus an index of the operations (path, permission, parameters) read from the spec.
import type { BundledDocument } from "./bundle.js";
import { GENERATED_BANNER } from "./banner.js";

interface OperationInfo {
  operationId: string;
  method: string;
  path: string;
  summary: string;
  permission: string;
  pathParams: string[];
  queryParams: { name: string; required: boolean }[];
  isList: boolean;
}

function deref(doc: BundledDocument, node: any): any {
  if (node && typeof node.$ref === "string") {
    const parts = node.$ref.replace(/^#\//, "").split("/").map((p: string) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
    return deref(doc, parts.reduce((acc: any, key: string) => acc?.[key], doc));
  }
  return node;
}

export function collectOperations(doc: BundledDocument): OperationInfo[] {
  const ops: OperationInfo[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths ?? {})) {
    for (const method of ["get", "post", "put", "patch", "delete"]) {
      const op = item[method];
      if (!op) continue;
      if (!op.operationId) throw new Error(`${method.toUpperCase()} ${path} has no operationId`);
      const params = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p) => deref(doc, p));
      ops.push({
        operationId: op.operationId,
        method,
        path,
        summary: op.summary ?? "",
        permission: op["x-permission"] ?? "",
        pathParams: params.filter((p) => p.in === "path").map((p) => p.name),
        queryParams: params.filter((p) => p.in === "query").map((p) => ({ name: p.name, required: !!p.required })),
        isList: op.operationId.startsWith("list"),
      });
    }
  }
  return ops;
}

function renderMethod(op: OperationInfo): string {
  const args: string[] = [];
  for (const name of op.pathParams) args.push(`${name}: string`);
  const hasQuery = op.queryParams.length > 0;
  const queryRequired = op.queryParams.some((q) => q.required);
  if (hasQuery) args.push(queryRequired ? `query: Query<"${op.operationId}">` : `query: Query<"${op.operationId}"> = {}`);
  args.push("init: CallOptions = {}");
  const params: string[] = [];
  if (op.pathParams.length) params.push(`path: { ${op.pathParams.join(", ")} }`);
  if (hasQuery) params.push("query");
  const verb = op.method.toUpperCase();
  return [
    `    /** ${op.summary}: \`${verb} ${op.path}\`. Permission: ${op.permission}. */`,
    `    ${op.operationId}: (${args.join(", ")}) =>`,
    `      client.${verb}("${op.path}", { ...init, params: { ${params.join(", ")} } }),`,
  ].join("\n");
}

export function renderClient(doc: BundledDocument): string {
  const ops = collectOperations(doc);
  const index = ops.map((op) => ({
    operationId: op.operationId,
    method: op.method,
    path: op.path,
    permission: op.permission,
    pathParams: op.pathParams,
    queryParams: op.queryParams.map((q) => q.name),
    isList: op.isList,
  }));
  return `${GENERATED_BANNER}import createFetchClient from "openapi-fetch";
import type { Client, ClientOptions } from "openapi-fetch";
import type { operations, paths } from "./api.js";

/** Query parameters of an operation, exactly as the spec defines them. */
export type Query<Op extends keyof operations> = NonNullable<operations[Op]["parameters"]["query"]>;

/** Per-call options passed through to openapi-fetch. */
export interface CallOptions {
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export type OperationId = keyof operations;

/** Every operation of the spec: method, path, the permission it needs and its parameters. */
export const operationIndex = ${JSON.stringify(index, null, 2)} as const;

/** Repeated parameters such as Companies go as Companies=a&Companies=b (form, explode). */
export const querySerializer = { array: { style: "form", explode: true } } as const;

/** One typed method per operationId, on an openapi-fetch client. */
export function bindOperations(client: Client<paths>) {
  return {
${ops.map(renderMethod).join("\n")}
  };
}

export type Operations = ReturnType<typeof bindOperations>;

/** An openapi-fetch client for the spec's paths, with the spec's query serialization. */
export function createFetchClientForSpec(options: ClientOptions = {}): Client<paths> {
  return createFetchClient<paths>({ querySerializer, ...options });
}

/** The generated client without middleware: \`raw\` is the openapi-fetch client, the rest one method per operation. */
export function createGeneratedClient(options: ClientOptions = {}) {
  const raw = createFetchClientForSpec(options);
  return { raw, ...bindOperations(raw) };
}
`;
}
