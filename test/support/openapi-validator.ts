// Checks an HTTP answer against the bundled OpenAPI description: the status must be one the
// operation lists ("5XX" covers 503), the body must match that response's JSON schema (Ajv 2020
// over generated/openapi.json), and the headers it declares must be present and valid.
import { createDocumentValidator } from "../../scripts/lib/spec-validator.js";
import { loadOpenApi, operationsOf, resolvePointer } from "../../scripts/lib/spec-document.js";

export interface AnswerCheck {
  /** Empty when the answer is inside the spec. */
  problems: string[];
}

const escape = (key: string) => key.replace(/~/g, "~0").replace(/\//g, "~1");

export function createOpenApiValidator(openapi: any = loadOpenApi()) {
  const validator = createDocumentValidator(openapi, "openapi");
  const byId = new Map<string, { method: string; path: string; operation: any }>();
  for (const [method, path, operation] of operationsOf(openapi)) byId.set(operation.operationId, { method, path, operation });

  function operation(operationId: string) {
    const found = byId.get(operationId);
    if (!found) throw new Error(`no operation ${operationId} in the OpenAPI description`);
    return found;
  }

  /** The response code of the spec that covers `status` ("404", "5XX", "default"), if any. */
  function responseCode(operationId: string, status: number): string | undefined {
    const responses = operation(operationId).operation.responses ?? {};
    const text = String(status);
    if (responses[text]) return text;
    const range = `${text[0]}XX`;
    if (responses[range]) return range;
    return responses.default ? "default" : undefined;
  }

  /** The statuses the spec lists for an operation, as written ("200", "5XX"). */
  function statusesOf(operationId: string): string[] {
    return Object.keys(operation(operationId).operation.responses ?? {});
  }

  /** JSON pointer of the response object (following one $ref to a shared response). */
  function responsePointer(operationId: string, code: string): string {
    const { path, method, operation: op } = operation(operationId);
    const response = op.responses[code];
    if (typeof response.$ref === "string") return response.$ref.slice(1);
    return `/paths/${escape(path)}/${method}/responses/${escape(code)}`;
  }

  return {
    statusesOf,
    responseCode,
    operationIds: () => [...byId.keys()],
    permissionOf: (operationId: string): string => operation(operationId).operation["x-permission"],
    /** Everything wrong with one answer of `operationId`; an empty list means it is inside the spec. */
    check(operationId: string, status: number, body: unknown, headers?: Headers): string[] {
      const code = responseCode(operationId, status);
      if (code === undefined) return [`status ${status} is not among ${operationId}'s responses (${statusesOf(operationId).join(", ")})`];
      const pointer = responsePointer(operationId, code);
      const response = resolvePointer(openapi, `#${pointer}`);
      const problems: string[] = [];
      const content = response.content?.["application/json"];
      if (content?.schema) {
        problems.push(...validator.validate(`${pointer}/content/application~1json/schema`, body).map((e) => `body ${e}`));
      }
      if (headers) {
        if (content && !/^application\/json\b/.test(headers.get("content-type") ?? "")) {
          problems.push(`content-type is ${headers.get("content-type")}, not application/json`);
        }
        for (const [name, header] of Object.entries<any>(response.headers ?? {})) {
          const resolved = typeof header.$ref === "string" ? resolvePointer(openapi, header.$ref) : header;
          const value = headers.get(name);
          if (value === null) {
            if (resolved.required) problems.push(`header ${name} is required and missing`);
            continue;
          }
          const schema = resolved.schema ?? {};
          const typed = schema.type === "integer" || schema.type === "number" ? Number(value) : value;
          const headerPointer = typeof header.$ref === "string" ? `${header.$ref.slice(1)}/schema` : `${pointer}/headers/${escape(name)}/schema`;
          problems.push(...validator.validate(headerPointer, typed).map((e) => `header ${name}=${value}: ${e}`));
        }
      }
      return problems;
    },
  };
}

export type OpenApiValidator = ReturnType<typeof createOpenApiValidator>;
