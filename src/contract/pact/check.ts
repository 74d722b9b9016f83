// checkPact: which interactions of a team's Pact files the contract cannot satisfy. The request is
// held to the operation it names (its path and method, each parameter's schema, the required ones,
// a key), the expected answer to what the operation documents for that status (the status, the
// content type, the body's schema and its fields), and to the rules only this contract knows (the
// key's permission, another organisation's record, the largest page size). Every finding is a
// violation of the suite's report (report.ts), so the text, JUnit and JSON are the suite's own.
import { loadContractSpec, type ContractSpec, type OperationId, type OperationInfo } from "../openapi.js";
import { totalsOf, type SuiteReport } from "../report.js";
import { passed, violation, type CheckResult } from "../results.js";
import type { KnownIds } from "../ids-file.js";
import { deref, effective, escapeToken, flatten } from "../spec-document.js";
import { readPact, type PactDocument, type PactInteraction } from "./read.js";
import { parameters } from "../../../generated/facts.js";
import { bearerKey } from "../../bearer.js";
import { splitTarget } from "../../query.js";

/** A key the pacts may send, and what it holds: a value of Authorization's Bearer, or a provider state's `params.key` label. */
export interface PactKey {
  key?: string;
  label?: string;
  permissions: readonly string[];
}

export interface PactCheckOptions {
  /** Keys and their permissions (the mock's keys file form): a 200 expected of a key without the operation's permission is a finding. */
  keys?: readonly PactKey[];
  /** The --ids file: `otherOrganization` ids expected to answer 2xx are findings. */
  ids?: KnownIds;
  /** The bundled OpenAPI document's path (default the package's). */
  openapiPath?: string;
  clock?: () => number;
}

/** A pact to check: its name in the report (a file path) and its text. */
export interface PactSource {
  name: string;
  text: string;
}

export interface PactFinding {
  pact: string;
  interaction: string;
  /** swagger-mock-validator's codes where it has one (request.query.incompatible), semantic.* for this contract's own rules. */
  code: string;
  message: string;
}

export interface PactReport extends SuiteReport {
  findings: PactFinding[];
  /** Interactions checked, over every pact. */
  interactions: number;
}

const JSON_TYPE = /^application\/(.+\+)?json(\s*;.*)?$/i;

export function checkPact(sources: readonly PactSource[], options: PactCheckOptions = {}): PactReport {
  const clock = options.clock ?? Date.now;
  const started = clock();
  const spec = loadContractSpec(options.openapiPath);
  const checks: CheckResult[] = [];
  const findings: PactFinding[] = [];
  let interactions = 0;
  for (const source of sources) {
    let pact: PactDocument;
    try {
      pact = readPact(source.text);
    } catch (error) {
      const finding = { pact: source.name, interaction: "(the file)", code: "pact.unreadable", message: (error as Error).message };
      findings.push(finding);
      checks.push({ area: "pact", name: `${source.name}`, ...violation(`[${finding.code}] ${finding.message}`) });
      continue;
    }
    for (const interaction of pact.interactions) {
      interactions++;
      const found = checkInteraction(spec, interaction, options).map((f) => ({ pact: source.name, interaction: interaction.description, ...f }));
      const name = `${source.name} · ${interaction.description}`;
      if (found.length === 0) checks.push({ area: "pact", name, ...passed(`${interaction.method} ${interaction.path} → ${interaction.status}: the contract can answer it`) });
      for (const f of found) checks.push({ area: "pact", name, ...violation(`[${f.code}] ${f.message}`) });
      findings.push(...found);
    }
    for (const skipped of pact.skipped) checks.push({ area: "pact", name: `${source.name} · ${skipped}`, outcome: "not checked", detail: "not an HTTP interaction (the webhook events are checked with hr-contract receiver)" });
  }
  const totals = totalsOf(checks, [], interactions);
  return {
    baseUrl: sources.map((s) => s.name).join(", "),
    heading: `Pact check of ${sources.length} file(s) against the contract: ${interactions} interaction(s)`,
    keptLine: "RESULT: the contract can answer every interaction",
    checks,
    assumptions: [],
    totals,
    durationMs: clock() - started,
    exitCode: findings.length ? 1 : 0,
    findings,
    interactions,
  };
}

type Found = Omit<PactFinding, "pact" | "interaction">;

function checkInteraction(spec: ContractSpec, interaction: PactInteraction, options: PactCheckOptions): Found[] {
  const found: Found[] = [];
  const route = routeOf(spec, interaction.method, interaction.path);
  if (!route) return [{ code: "request.path-or-method.unknown", message: `no operation answers ${interaction.method} ${interaction.path}` }];
  const { operation, pathValues } = route;
  const success = interaction.status >= 200 && interaction.status < 300;
  const declared = declaredParameters(spec, operation.path, operation.method);
  const params = declared.map((d) => d.param);

  // The request: each value against its parameter's schema, the required ones, a key. A pact that
  // expects the refusal (400, 404) of a bad value is a fair test of the contract, so only a success
  // expected of a request the service refuses is a finding.
  const sentByLowerName = new Map(Object.entries(interaction.query).map(([name, values]) => [name.toLowerCase(), { name, values }]));
  for (const { name } of sentByLowerName.values()) {
    if (!params.some((p) => p.in === "query" && p.name.toLowerCase() === name.toLowerCase())) found.push({ code: "request.query.unknown", message: `query parameter ${name} is not one ${operation.operationId} takes (${queryNames(params)})` });
  }
  for (const { param, schemaPointer } of declared) {
    const sent = param.in === "path" ? (pathValues[param.name] === undefined ? undefined : { values: [pathValues[param.name]] }) : param.in === "query" ? sentByLowerName.get(String(param.name).toLowerCase()) : undefined;
    if (sent === undefined) {
      if (param.required && param.in === "query" && success) found.push({ code: "request.query.missing", message: `required query parameter ${param.name} is missing; the service answers 400` });
      continue;
    }
    const problem = valueProblem(spec, param, schemaPointer, sent.values);
    if (problem === undefined || !success) continue;
    const { name, maximum } = parameters.PageSize;
    if (param.name === name && Number(sent.values[0]) > maximum) {
      found.push({ code: "semantic.page-size", message: `${name} ${sent.values[0]} is over the largest page size ${maximum}; the service answers 400, not ${interaction.status}` });
    } else {
      found.push({ code: param.in === "path" ? "request.path.incompatible" : "request.query.incompatible", message: `${param.in} parameter ${param.name} ${JSON.stringify(sent.values.join(","))}: ${problem}; the service answers 400, not ${interaction.status}` });
    }
  }
  const authorization = interaction.headers.authorization;
  if (authorization === undefined && success) found.push({ code: "request.authorization.missing", message: `no Authorization header: the service answers 401, not ${interaction.status}` });

  // The expected answer: a documented status, JSON, the body's schema and fields.
  const documented = spec.documentedResponse(operation.operationId as OperationId, interaction.status);
  if (documented === undefined) {
    found.push({ code: "response.status.unknown", message: `${operation.operationId} never answers ${interaction.status} (it answers ${spec.documentedStatuses(operation.operationId as OperationId).join(", ")})` });
  } else {
    const contentType = interaction.responseHeaders["content-type"];
    if (contentType !== undefined && !JSON_TYPE.test(contentType)) found.push({ code: "response.content-type.incompatible", message: `Content-Type ${contentType}: the service answers application/json` });
    const pointer = spec.responseSchemaPointer(operation.operationId as OperationId, interaction.status);
    if (interaction.bodyProblem) found.push({ code: "response.body.incompatible", message: interaction.bodyProblem });
    if (pointer && interaction.body !== undefined) {
      // A pact names only the fields its consumer reads (Pact lets the answer carry more), so a required field left out is no finding.
      for (const error of spec.schemaErrors(pointer, interaction.body)) if (error.keyword !== "required") found.push({ code: "response.body.incompatible", message: `body ${error.text}` });
      for (const place of unknownFields(spec.doc, { $ref: `#${pointer}` }, interaction.body, "")) found.push({ code: "response.body.unknown", message: `body field ${place} is not in the schema` });
    }
  }

  // What only this contract knows.
  if (success) found.push(...semantic(interaction, operation, pathValues, options));
  return found;
}

function semantic(interaction: PactInteraction, operation: OperationInfo, pathValues: Record<string, string>, options: PactCheckOptions): Found[] {
  const found: Found[] = [];
  const authorization = bearerKey(interaction.headers.authorization);
  const bearer = authorization.ok ? authorization.key : undefined;
  const label = interaction.states.map((s) => s.params.key).find((k): k is string => typeof k === "string");
  const stated = interaction.states.map((s) => s.params.permissions).find((p): p is string[] => Array.isArray(p));
  const known = options.keys?.find((k) => (k.key !== undefined && k.key === bearer) || (k.label !== undefined && k.label === label));
  const permissions = known?.permissions ?? stated;
  if (permissions && !permissions.includes(operation.permission)) {
    found.push({ code: "semantic.permission", message: `the key${label ? ` "${label}"` : ""} lacks ${operation.permission}, which ${operation.operationId} needs: the service answers 403, not ${interaction.status}` });
  }
  const foreign = new Set(Object.values(options.ids?.otherOrganization ?? {}).map((id) => id.toLowerCase()));
  const sent = [...Object.values(pathValues), ...Object.values(interaction.query).flat()];
  const other = sent.find((value) => foreign.has(value.toLowerCase()));
  if (other) found.push({ code: "semantic.other-organisation", message: `${other} is a record of another organisation: a key reaches only its own, so the service answers 404, not ${interaction.status}` });
  return found;
}

/** The operation whose path template and method match, with the path's values by parameter name. */
function routeOf(spec: ContractSpec, method: string, path: string): { operation: OperationInfo; pathValues: Record<string, string> } | undefined {
  const sent = splitTarget(path).path.replace(/\/+$/, "").split("/");
  for (const operation of spec.operations) {
    if (operation.method.toUpperCase() !== (method === "HEAD" ? "GET" : method)) continue;
    const template = operation.path.split("/");
    if (template.length !== sent.length) continue;
    const pathValues: Record<string, string> = {};
    const matched = template.every((part, i) => {
      const name = /^\{(.+)\}$/.exec(part)?.[1];
      if (name === undefined) return part === sent[i];
      pathValues[name] = safeDecode(sent[i]);
      return sent[i] !== "";
    });
    if (matched) return { operation, pathValues };
  }
  return undefined;
}

const safeDecode = (text: string) => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

const queryNames = (params: any[]) => params.filter((p) => p.in === "query").map((p) => p.name).join(", ") || "none";

/**
 * Why the values sent do not meet the parameter's schema, or undefined. A query value is text: it
 * is read as the schema's types would read it (a number, true/false), and a case-insensitive
 * parameter's names in any letter case.
 */
function valueProblem(spec: ContractSpec, param: any, schemaPointer: string, values: string[]): string | undefined {
  const schema = deref(spec.doc, param.schema ?? {});
  const isArray = effective(spec.doc, schema).type === "array";
  const value = isArray ? values.flatMap((v) => (param.explode === false ? v.split(",") : [v])) : values[values.length - 1];
  if (!isArray && values.length > 1) return `sent ${values.length} times; it takes one value`;
  const candidates = isArray ? [(value as string[]).map((v) => readText(v)[0])] : readText(value as string, param["x-case-insensitive"] === true ? enumsOf(spec, schema) : []);
  let first: string | undefined;
  for (const candidate of candidates) {
    const errors = spec.validate(schemaPointer, candidate);
    if (errors.length === 0) return undefined;
    first ??= errors[0];
  }
  return first;
}

/** A query text as the values it can stand for: the text, a number, a boolean, an enum name in its own letter case. */
function readText(text: string, names: readonly string[] = []): unknown[] {
  const out: unknown[] = [text];
  if (/^-?\d+(\.\d+)?$/.test(text)) out.push(Number(text));
  if (text === "true" || text === "false") out.push(text === "true");
  const name = names.find((n) => n.toLowerCase() === text.toLowerCase());
  if (name !== undefined) out.push(name);
  return out;
}

function enumsOf(spec: ContractSpec, schema: any): string[] {
  const node = effective(spec.doc, schema);
  return [...(node.enum ?? []), ...((node.anyOf ?? node.oneOf ?? []) as any[]).flatMap((s) => enumsOf(spec, s))].filter((v): v is string => typeof v === "string");
}

/**
 * The operation's parameters (its path item's, unless the operation declares one of the same name
 * and place), each with a JSON pointer to its schema where it is declared: a component's, or the
 * operation's or path item's own list, for the suite's validator.
 */
function declaredParameters(spec: ContractSpec, path: string, method: string): Array<{ param: any; schemaPointer: string }> {
  const at = (owner: string, list: unknown): Array<{ param: any; schemaPointer: string }> =>
    ((list ?? []) as any[]).map((node, i) => ({
      param: deref(spec.doc, node),
      schemaPointer: `${typeof node?.$ref === "string" ? node.$ref.replace(/^#/, "") : `${owner}/parameters/${i}`}/schema`,
    }));
  const item = `/paths/${escapeToken(path)}`;
  const own = at(`${item}/${method}`, spec.doc.paths[path][method].parameters);
  const inherited = at(item, spec.doc.paths[path].parameters).filter((p) => !own.some((o) => o.param.name === p.param.name && o.param.in === p.param.in));
  return [...inherited, ...own];
}

/** Fields of `value` the schema does not have, as JSON pointers (lists through their items). */
function unknownFields(doc: any, schema: any, value: unknown, at: string): string[] {
  if (Array.isArray(value)) {
    const items = effective(doc, schema).items;
    return items ? value.flatMap((item, i) => unknownFields(doc, items, item, `${at}/${i}`)) : [];
  }
  if (typeof value !== "object" || value === null) return [];
  const node = effective(doc, schema);
  if (node.additionalProperties !== undefined && node.additionalProperties !== false) return [];
  const { properties } = flatten(doc, schema);
  if (Object.keys(properties).length === 0) return [];
  return Object.entries(value).flatMap(([name, child]) => (name in properties ? unknownFields(doc, properties[name], child, `${at}/${name}`) : [`${at}/${name}`]));
}
