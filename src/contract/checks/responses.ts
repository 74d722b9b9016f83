// Every answer against the bundled OpenAPI: a documented status, JSON, and the documented schema for
// that status. A body with isSuccessful false is a failure whatever its status (the provider does not
// show failure statuses), so it is held to FailureEnvelope.
import { describeAnswer, envelopeOutcome, isFailure, type Exchange } from "../exchange.js";
import { FAILURE_ENVELOPE_POINTER, type ContractSpec, type OperationId } from "../openapi.js";
import { passed, summarize, violation, type Finding } from "../results.js";

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

export function checkResponseAgainstSpec(spec: ContractSpec, operationId: OperationId, exchange: Exchange): Finding {
  if (exchange.error !== undefined || exchange.status === undefined) return violation(`no answer: ${exchange.error ?? "unknown error"}`);
  const status = exchange.status;
  const documented = spec.documentedResponse(operationId, status);
  if (documented === undefined) {
    return violation(`status ${status} is not documented for ${operationId} (documented: ${spec.documentedStatuses(operationId).join(", ")})`);
  }
  const contentType = exchange.headers["content-type"] ?? "";
  if (exchange.body === undefined) {
    const start = exchange.bodyText.slice(0, 60).replace(/\s+/g, " ");
    return violation(`status ${status}: the body is not JSON (content-type ${contentType || "absent"}; starts ${JSON.stringify(start)})`);
  }
  const problems: string[] = [];
  if (!/\bjson\b/i.test(contentType)) problems.push(`content-type is ${contentType || "absent"}, not JSON`);
  for (const header of spec.responseHeaders(operationId, status)) {
    const text = exchange.headers[header.name.toLowerCase()];
    if (text === undefined) {
      if (header.required) problems.push(`header ${header.name} is missing`);
      continue;
    }
    // Header values are text; a header declared as an integer is validated as a number.
    const value = header.integer && /^-?\d+$/.test(text.trim()) ? Number(text) : text;
    const errors = spec.validate(header.schemaPointer, value);
    if (errors.length) problems.push(`header ${header.name} ${JSON.stringify(text)}: ${errors[0].replace(/^\(root\) /, "")}`);
  }
  const pointer = isFailure(exchange) ? FAILURE_ENVELOPE_POINTER : spec.responseSchemaPointer(operationId, status);
  if (pointer === undefined) return problems.length ? violation(summarize(problems)) : passed(`${status}, documented, no schema to validate`);
  const errors = spec.validate(pointer, exchange.body);
  // A body without isSuccessful is not the envelope at all: say that first, it explains the rest.
  if (envelopeOutcome(exchange.body) === undefined) problems.push("missing envelope: the body has no boolean isSuccessful");
  if (errors.length) problems.push(`${schemaLabel(spec, pointer)}: ${summarize(groupErrors(errors), 4)}`);
  if (problems.length) return violation(`status ${status}: ${problems.join("; ")}`);
  return passed(`${status} matches ${schemaLabel(spec, pointer)}`);
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
