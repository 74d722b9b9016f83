// A request held to the read API's contract without answering it, for the proxy: the dispatcher's
// Prism pipeline (route.ts: routing, the Bearer scheme, the parameters) and its wording of findings
// (params.ts), so the mock and the proxy judge a request by one validator.
import type { IPrismDiagnostic } from "@stoplight/prism-core";
import type { LoadedSpec, SpecOperation } from "../kernel/spec.js";
import { printable } from "../kernel/text.js";
import { createRouter, prismHeaders } from "./route.js";
import { splitTarget } from "../../src/query.js";
import { meant, nearMiss } from "./near-miss.js";
import { pathParamsOf } from "./answer.js";
import { paramProblems } from "./params.js";
import type { ApiRequest } from "./dispatch.js";

/** One rule a request breaks: its name, where (a JSON pointer into the request), the sentence. */
export interface RequestProblem {
  rule: "operation" | "method" | "key" | "parameters";
  pointer: string;
  message: string;
}

export interface RequestCheck {
  /** The operation the request was routed to, when it was. */
  operation?: SpecOperation;
  problems: RequestProblem[];
}

export type CheckedRequest = Pick<ApiRequest, "method" | "url" | "headers">;

/** A checker of requests against `spec` (the read API: loadReadSpec). */
export function createRequestChecker(spec: LoadedSpec): (request: CheckedRequest) => Promise<RequestCheck> {
  const route = createRouter(spec);
  return async ({ method, url, headers }) => {
    const { path, search } = splitTarget(url);
    const routed = await route({ method: method === "HEAD" ? "GET" : method, path, search, headers: prismHeaders(headers, undefined) });
    if (!routed.ok) return { problems: [notRouted(routed.error, method, path, spec)] };
    const { operation, validations, query } = routed;
    const problems: RequestProblem[] = [];
    const key = keyProblem(headers.authorization, validations);
    if (key) problems.push(key);
    for (const p of paramProblems(operation, validations, search, query, pathParamsOf(operation, path))) {
      const where = operation.pathParams.some((spec) => spec.name === p.name) ? "path" : "query";
      problems.push({ rule: "parameters", pointer: p.name ? `/${where}/${p.name}` : `/${where}`, message: p.message });
    }
    return { operation, problems };
  };
}

function notRouted(error: Error & { status?: number }, method: string, path: string, spec: LoadedSpec): RequestProblem {
  const shown = printable(path, 80);
  if (error.status === 405) return { rule: "method", pointer: "", message: `${printable(method, 16)} is not an operation of ${shown}` };
  if (error.status !== 404) return { rule: "operation", pointer: "", message: `Prism could not route the request: ${printable(error.message, 120)}` };
  const hint = meant(nearMiss(spec.operations, method, path));
  return { rule: "operation", pointer: "", message: `no operation of the contract at ${shown}${hint ? `; ${hint}` : ""}` };
}

/** Prism's security finding (no Bearer credential) in words, and the one rule Prism cannot see: one header. */
function keyProblem(header: string | string[] | undefined, validations: readonly IPrismDiagnostic[]): RequestProblem | undefined {
  const pointer = "/headers/authorization";
  if (Array.isArray(header) && header.length > 1) return { rule: "key", pointer, message: `${header.length} Authorization headers; send exactly one, Authorization: Bearer <API_KEY>` };
  if (!validations.some((d) => d.severity === 0 && d.code === 401)) return undefined;
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined) return { rule: "key", pointer, message: "no Authorization header; every operation needs Authorization: Bearer <API_KEY>" };
  // The scheme only: the credential is never repeated.
  const scheme = printable(value.trim().split(/\s+/)[0] ?? "", 20);
  return { rule: "key", pointer, message: `Authorization is not Bearer <API_KEY> (its scheme is ${JSON.stringify(scheme)})` };
}
