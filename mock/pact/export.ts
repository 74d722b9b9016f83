// A world's journal as a Pact specification V4 file: one interaction per distinct operation, caller,
// request shape (the query names sent) and answer status. The ids a request names, and its API key
// (never written: the header is a regex of its form), come from the provider state; the response is
// the answer's schema as a body with matching rules (body-rules.ts), so the pact holds on any seed
// and any --today.
import type { SpecOperation } from "../kernel/spec.js";
import type { RecordedRequest } from "../worlds/journal/requests.js";
import type { World } from "../worlds/world.js";
import { organizationAt } from "../data/lazy-organizations.js";
import { deref, responseKeyOf } from "../../src/contract/spec-document.js";
import { bodyWithRules, type RuleSet } from "./body-rules.js";
import { idKindOf, RECORD_WORDS, type IdKind } from "./ids.js";

/** The API key's value in a pact: a placeholder the provider state replaces. */
export const KEY_PLACEHOLDER = "Bearer <API key from the provider state>";
/** The form of the header every request with a key has. */
export const AUTHORIZATION_REGEX = "^Bearer \\S+$";
/** The provider state of a request sent without a key. */
export const NO_KEY_STATE = "no API key is sent";
const JSON_TYPE_REGEX = "^application/json(;.*)?$";

export interface PactOptions {
  consumer: string;
  /** The provider's name; default the document's info.title. */
  provider?: string;
}

export interface PactFile {
  consumer: { name: string };
  provider: { name: string };
  interactions: Record<string, unknown>[];
  metadata: Record<string, unknown>;
}

/** The pact of `requests` (newest first, as the journal lists them) answered by `world`. */
export function pactOf(requests: readonly RecordedRequest[], world: World, operations: ReadonlyMap<string, SpecOperation>, doc: any, options: PactOptions): PactFile {
  const chosen = new Map<string, RecordedRequest>();
  // Oldest first, so each interaction is the first request of its kind, and the file reads in the order the consumer asked.
  for (const request of [...requests].reverse()) {
    if (request.operationId === null || request.urlTruncated || operations.get(request.operationId)?.api !== "read") continue;
    const shape = Object.keys(request.query).map((n) => n.toLowerCase()).sort().join("&");
    const key = `${request.operationId} ${request.caller ?? ""} ${shape} ${request.status}`;
    if (!chosen.has(key)) chosen.set(key, request);
  }
  const descriptions = new Set<string>();
  const interactions = [...chosen.values()].map((request) => interactionOf(request, world, operations.get(request.operationId!)!, doc, descriptions));
  return {
    consumer: { name: options.consumer },
    provider: { name: options.provider ?? String(doc.info?.title ?? "HR Service API") },
    interactions,
    metadata: { pactSpecification: { version: "4.0" }, "hr-service-contract": { apiVersion: doc.info?.version } },
  };
}

function interactionOf(request: RecordedRequest, world: World, operation: SpecOperation, doc: any, descriptions: Set<string>): Record<string, unknown> {
  const apiKey = request.caller === null ? undefined : world.keys.find((k) => k.label === request.caller);
  const org = apiKey ? organizationAt(world.dataset, apiKey.organisation) : undefined;
  // Ids of the caller's own records come from the state: another seed has other ids.
  const kindOf = (value: string): IdKind | undefined => (org && request.status < 300 ? idKindOf(org, value) : undefined);
  const needs = new Set<IdKind>();
  const generators: Record<string, any> = {};

  const path = request.path;
  const pathTemplate = operation.path;
  const templated = pathTemplate.replace(/\{([^}]+)\}/g, (_whole, name: string) => {
    const index = pathTemplate.split("/").indexOf(`{${name}}`);
    const value = decodeURIComponent(request.path.split("/")[index] ?? "");
    const kind = kindOf(value);
    if (!kind) return value;
    needs.add(kind);
    return `\${${kind}}`;
  });
  if (templated !== path && templated.includes("${")) generators.path = { type: "ProviderState", expression: templated, dataType: "STRING" };

  const query: Record<string, string[]> = {};
  for (const [name, sent] of Object.entries(request.query)) {
    // A case-insensitive value (LeaveStatus=approved) in the enum's own letter case: the service
    // reads both alike, and tools that know only the schema's enum (swagger-mock-validator) read this one.
    const folded = operation.queryParamsByLowerName.get(name.toLowerCase())?.caseInsensitive;
    const values = (Array.isArray(sent) ? sent : [sent]).map((v) => folded?.get(v.toLowerCase()) ?? v);
    query[name] = values;
    const kind = values.length === 1 ? kindOf(values[0]) : undefined;
    if (kind) {
      needs.add(kind);
      (generators.query ??= {})[name] = { type: "ProviderState", expression: `\${${kind}}`, dataType: "STRING" };
    }
  }

  const headers: Record<string, string[]> = {};
  const requestRules: Record<string, any> = {};
  if (apiKey) {
    headers.Authorization = [KEY_PLACEHOLDER];
    requestRules.header = { Authorization: { combine: "AND", matchers: [{ match: "regex", regex: AUTHORIZATION_REGEX }] } };
    (generators.header ??= {}).Authorization = { type: "ProviderState", expression: "Bearer ${apiKey}", dataType: "STRING" };
  }

  const state = stateOf(request, apiKey?.organisation, [...needs], apiKey?.permissions);
  const response = responseOf(doc, operation, request.status);
  let description = `${operation.operationId}: ${summaryOf(doc, operation)} as "${request.caller ?? "no key"}"${Object.keys(query).length ? ` with ${Object.keys(query).join(", ")}` : ""}, answered ${request.status}`;
  for (let n = 2; descriptions.has(description); n++) description = `${description} (${n})`;
  descriptions.add(description);

  const pactRequest: Record<string, unknown> = { method: request.method, path };
  if (Object.keys(query).length) pactRequest.query = query;
  if (Object.keys(headers).length) pactRequest.headers = headers;
  if (Object.keys(requestRules).length) pactRequest.matchingRules = requestRules;
  if (Object.keys(generators).length) pactRequest.generators = generators;
  return { type: "Synchronous/HTTP", description, providerStates: [state], request: pactRequest, response };
}

function stateOf(request: RecordedRequest, organisation: number | undefined, needs: IdKind[], permissions?: ReadonlySet<string>): { name: string; params?: Record<string, unknown> } {
  if (request.caller === null || organisation === undefined) return { name: NO_KEY_STATE };
  const records = needs.map((kind) => RECORD_WORDS[kind]).join(", ").replace(/, ([^,]*)$/, " and $1");
  const name = records ? `organisation ${organisation} has ${records}, and its key "${request.caller}" is sent` : `the key "${request.caller}" of organisation ${organisation} is sent`;
  return { name, params: { key: request.caller, organisation, permissions: [...(permissions ?? [])] } };
}

/** The operation as the document writes it. */
const documented = (doc: any, operation: SpecOperation): any => doc.paths?.[operation.path]?.[operation.method.toLowerCase()];

function summaryOf(doc: any, operation: SpecOperation): string {
  const summary = documented(doc, operation)?.summary;
  return typeof summary === "string" ? summary.replace(/^./, (c) => c.toLowerCase()) : `${operation.method} ${operation.path}`;
}

/** The response of a status as the document writes it (responseKeyOf: the exact code, its class, then default), as a pact's. */
function responseOf(doc: any, operation: SpecOperation, status: number): Record<string, unknown> {
  const responses = documented(doc, operation)?.responses ?? {};
  const key = responseKeyOf(responses, status);
  const schema = key === undefined ? undefined : deref(doc, responses[key])?.content?.["application/json"]?.schema;
  if (!schema) return { status };
  const { body, rules } = bodyWithRules(doc, schema);
  const header: Record<string, RuleSet> = { "Content-Type": { combine: "AND", matchers: [{ match: "regex", regex: JSON_TYPE_REGEX }] } };
  return {
    status,
    headers: { "Content-Type": ["application/json"] },
    body: { content: body, contentType: "application/json", encoded: false },
    matchingRules: { body: rules, header },
  };
}
