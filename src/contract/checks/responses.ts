// Every answer against the bundled OpenAPI: a documented status, JSON, and the documented schema for
// that status. A body with isSuccessful false is a failure whatever its status (the provider does not
// show failure statuses), so it is held to FailureEnvelope.
import { envelopeOutcome, isFailure, type Exchange } from "../exchange.js";
import { FAILURE_ENVELOPE_POINTER, type ContractSpec, type OperationId } from "../openapi.js";
import { passed, summarize, violation, type Finding, type Problem } from "../results.js";

// The same error on many items, told once with the item index as * and a count of the items.
export function groupErrors(errors: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const error of errors) {
    const key = error.replace(/\/\d+(?=\/|\s)/g, "/*");
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([key, n]) => (n > 1 ? `${key} (${n} items)` : errors.find((e) => e.replace(/\/\d+(?=\/|\s)/g, "/*") === key)!));
}

function schemaLabel(spec: ContractSpec, pointer: string): string {
  if (pointer === FAILURE_ENVELOPE_POINTER) return "FailureEnvelope";
  const parts = pointer.split("/");
  // /components/responses/X/content/... names the shared response; a path response names its schema's $ref.
  if (parts[1] === "components" && parts[2] === "responses") return `${parts[3]} response`;
  const node = pointer.split("/").slice(1).reduce((n: any, k) => n?.[k.replace(/~1/g, "/").replace(/~0/g, "~")], spec.doc);
  return typeof node?.$ref === "string" ? node.$ref.split("/").pop() : pointer;
}

/** What answerProblems found: every problem on its own, and the words the suite's check is made of. */
export interface AnswerProblems {
  problems: Problem[];
  /** The schema the body was held to ("LeaveRequestListResponse", "FailureEnvelope"), when there was one. */
  schemaLabel?: string;
  /** The schema errors as texts, for the suite's one line (grouped there). */
  schemaTexts: string[];
}

const SCHEMA_RULE = "schema.";

/**
 * Every way an answer breaks the bundled OpenAPI, each a Problem: its status is documented for the
 * operation (rule "status"), the body is JSON ("json") sent as JSON ("content-type"), the declared
 * headers ("header"), the envelope ("envelope"), and the documented schema for that status, one
 * problem per schema error ("schema.<keyword>", at the error's pointer).
 */
export function answerProblems(spec: ContractSpec, operationId: OperationId, exchange: Exchange): AnswerProblems {
  const none = { schemaTexts: [] };
  if (exchange.error !== undefined || exchange.status === undefined) return { ...none, problems: [{ rule: "connection", pointer: "", message: `no answer: ${exchange.error ?? "unknown error"}` }] };
  const status = exchange.status;
  if (spec.documentedResponse(operationId, status) === undefined) {
    return { ...none, problems: [{ rule: "status", pointer: "", message: `status ${status} is not documented for ${operationId} (documented: ${spec.documentedStatuses(operationId).join(", ")})` }] };
  }
  const contentType = exchange.headers["content-type"] ?? "";
  if (exchange.body === undefined) {
    const start = exchange.bodyText.slice(0, 60).replace(/\s+/g, " ");
    return { ...none, problems: [{ rule: "json", pointer: "", message: `the body is not JSON (content-type ${contentType || "absent"}; starts ${JSON.stringify(start)})` }] };
  }
  const problems: Problem[] = [];
  if (!/\bjson\b/i.test(contentType)) problems.push({ rule: "content-type", pointer: "/headers/content-type", message: `content-type is ${contentType || "absent"}, not JSON` });
  for (const header of spec.responseHeaders(operationId, status)) {
    const name = header.name.toLowerCase();
    const text = exchange.headers[name];
    if (text === undefined) {
      if (header.required) problems.push({ rule: "header", pointer: `/headers/${name}`, message: `header ${header.name} is missing` });
      continue;
    }
    // Header values are text; a header declared as an integer is validated as a number.
    const value = header.integer && /^-?\d+$/.test(text.trim()) ? Number(text) : text;
    const errors = spec.validate(header.schemaPointer, value);
    if (errors.length) problems.push({ rule: "header", pointer: `/headers/${name}`, message: `header ${header.name} ${JSON.stringify(text)}: ${errors[0].replace(/^\(root\) /, "")}` });
  }
  const pointer = isFailure(exchange) ? FAILURE_ENVELOPE_POINTER : spec.responseSchemaPointer(operationId, status);
  if (pointer === undefined) return { ...none, problems };
  const errors = spec.schemaErrors(pointer, exchange.body);
  // A body without isSuccessful is not the envelope at all: said first, it explains the rest.
  if (envelopeOutcome(exchange.body) === undefined) problems.push({ rule: "envelope", pointer: "", message: "missing envelope: the body has no boolean isSuccessful" });
  for (const error of errors) problems.push({ rule: `${SCHEMA_RULE}${error.keyword}`, pointer: error.pointer, message: error.message });
  return { problems, schemaLabel: schemaLabel(spec, pointer), schemaTexts: errors.map((e) => e.text) };
}

/** Whether a problem is a schema error (rather than the status, the JSON, a header or the envelope). */
export const isSchemaProblem = (problem: Problem) => problem.rule.startsWith(SCHEMA_RULE);

export function checkResponseAgainstSpec(spec: ContractSpec, operationId: OperationId, exchange: Exchange): Finding {
  const found = answerProblems(spec, operationId, exchange);
  const { problems, schemaLabel: label, schemaTexts } = found;
  const first = problems[0];
  if (first && (first.rule === "connection" || first.rule === "status")) return violation(first.message);
  const status = exchange.status;
  if (first?.rule === "json") return violation(`status ${status}: ${first.message}`);
  const lines = problems.filter((p) => !isSchemaProblem(p)).map((p) => p.message);
  if (label === undefined) return lines.length ? violation(summarize(lines)) : passed(`${status}, documented, no schema to validate`);
  if (schemaTexts.length) lines.push(`${label}: ${summarize(groupErrors(schemaTexts), 4)}`);
  if (lines.length) return violation(`status ${status}: ${lines.join("; ")}`);
  return passed(`${status} matches ${label}`);
}

/** A request that must fail (no key, an id outside the organisation): isSuccessful false and no data. */
export function checkRefused(exchange: Exchange, why: string): Finding {
  if (exchange.error !== undefined) return violation(`no answer: ${exchange.error}`);
  const outcome = envelopeOutcome(exchange.body);
  if (outcome === undefined) return violation(`${why}: the answer (${exchange.status}) is no envelope`);
  if (outcome) return violation(`${why}: answered ${exchange.status} with isSuccessful true`);
  const data = (exchange.body as any).data;
  if (data !== undefined && data !== null) return violation(`${why}: isSuccessful false but data is ${JSON.stringify(data).slice(0, 60)}`);
  return passed(`${why}: ${exchange.status}, isSuccessful false, no data`);
}
