// Requests carrying a `Prefer` header (code=…, example=…, dynamic=true, seed=…) are answered by
// Prism's own mocker, as Prism users expect, after the request's one pass through Prism (route.ts)
// and the key's admission (answer.ts). Two things are added: a named example is looked for under every
// status, not only the lowest 2xx (each name belongs to one response of an operation), and a generated
// body is drawn from the copy of the operation that dynamic-schema.ts makes. The header is parsed here
// as Prism's server parses it, so the mock needs prism-http and prism-core only.
import type { IHttpOperationConfig, PrismHttpComponents } from "@stoplight/prism-http";
import { failure, type Reply } from "../kernel/envelope.js";
import type { Query } from "./params.js";
import { covers, type SpecOperation } from "../kernel/spec.js";
import { cut } from "../kernel/text.js";
import { forGeneration } from "./dynamic-schema.js";
import { dayOf } from "../data/dates.js";

/**
 * The Prefer header as Prism's server reads it (prism-http-server getHttpConfigFromRequest with
 * parse-prefer-header): comma-separated preferences, `name=value` (quotes allowed), names in any
 * case, the first of a name wins; code is three digits, dynamic true or false. Others are ignored.
 */
export function parsePrefer(header: string): { ok: true; config: PreferConfig } | { ok: false; message: string } {
  const found = new Map<string, string | true>();
  for (const preference of splitOutsideQuotes(header, ",")) {
    const [first] = splitOutsideQuotes(preference, ";");
    const equals = first.indexOf("=");
    const name = (equals < 0 ? first : first.slice(0, equals)).trim().toLowerCase();
    let value: string | true = equals < 0 ? "" : first.slice(equals + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    if (value === "") value = true;
    if (name !== "" && !found.has(name)) found.set(name, value);
  }
  const config: PreferConfig = {};
  const code = found.get("code");
  if (code !== undefined) {
    if (code === true || !/^\d{3}$/.test(code)) return { ok: false, message: `code must be a three-digit HTTP status, got ${show(code)}` };
    config.code = Number(code);
  }
  const dynamic = found.get("dynamic");
  if (dynamic !== undefined) {
    if (dynamic !== "true" && dynamic !== "false") return { ok: false, message: `dynamic must be true or false, got ${show(dynamic)}` };
    config.dynamic = dynamic === "true";
  }
  const example = found.get("example");
  if (example !== undefined) {
    if (example === true) return { ok: false, message: "example needs a name, as in example=<name>" };
    config.exampleKey = example;
  }
  const seed = found.get("seed");
  if (seed !== undefined) {
    if (seed === true) return { ok: false, message: "seed needs a value, as in seed=<text>" };
    config.seed = seed;
  }
  return { ok: true, config };
}

function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '"') quoted = !quoted;
    else if (text[i] === separator && !quoted) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

function show(value: string | true): string {
  return value === true ? "nothing" : JSON.stringify(cut(value, 40));
}

/** The preferences Prism's mocker takes from the header. */
export type PreferConfig = Partial<Pick<IHttpOperationConfig, "code" | "exampleKey" | "dynamic" | "seed">>;

/** Answers a request (already checked) with Prism's mocker and the preferences parsePrefer read. */
export type PreferMocker = (operation: SpecOperation, request: { path: string; query: Query; today: string }, preferences: PreferConfig) => Reply;

/** Prism's own mocker (`components.mock`); routing and checks were done by the request's one pass through Prism. */
export function createPreferMocker(components: Pick<PrismHttpComponents, "mock" | "logger">): PreferMocker {
  // The operations as the generator sees them, made once per operation and dataset day.
  const generation = new Map<string, { today: string; operation: SpecOperation["prism"] }>();
  const generated = (operation: SpecOperation, today: string): SpecOperation["prism"] => {
    let made = generation.get(operation.operationId);
    if (made?.today !== today) generation.set(operation.operationId, (made = { today, operation: forGeneration(operation.prism, dayOf(today)) }));
    return made.operation;
  };
  return (operation, request, preferences) => {
    const examples = namedExamples(operation.prism);
    const wanted = preferences.exampleKey === undefined ? undefined : examples.find((example) => example.key === preferences.exampleKey);
    if (preferences.exampleKey !== undefined && wanted === undefined) {
      return failure(404, `Not found: the Prefer header asks for the example ${show(preferences.exampleKey)}, which this operation does not have; its examples are ${listed(examples)}.`);
    }
    if (wanted && preferences.code !== undefined && !covers(wanted.status, preferences.code)) {
      return failure(404, `Not found: the example ${show(wanted.key)} is the ${wanted.status} response's, not ${preferences.code}'s; leave out code or ask for one of ${listed(examples)}.`);
    }
    // Prism looks for a named example under the lowest 2xx status only: it is told the status that holds it.
    const code = preferences.code ?? (wanted && statusOf(wanted));
    const config: IHttpOperationConfig = { dynamic: false, ...preferences, ...(code === undefined ? {} : { code }) };
    // The API speaks JSON only: Accept and the rest play no part (Prism would refuse text/html).
    const data = { method: "get" as const, url: { path: request.path, query: request.query as Record<string, string | string[]> }, headers: {} };
    const resource = preferences.dynamic ? generated(operation, request.today) : operation.prism;
    const result = components.mock({ resource, input: { data, validations: [] }, config })(components.logger);
    if (result._tag === "Left") {
      const problem = result.left as { status?: number; detail?: string; message?: string };
      const detail = flatten(problem.detail ?? problem.message ?? "Prism could not build a response");
      const statuses = operation.statuses.join(", ");
      // Prism's "not found" for a status or example the operation lacks; any other refusal of a
      // preference (an example under another status, say) is the caller's too: never a 500.
      if (problem.status === 404 || problem.status === undefined || problem.status >= 500) {
        const named = preferences.exampleKey === undefined ? "" : `; its examples are ${listed(examples)}`;
        return failure(404, `Not found: the Prefer header asks for a response this operation does not define (${detail}); it defines ${statuses}${named}.`);
      }
      return failure(400, `Invalid parameter Prefer (header): ${detail}.`);
    }
    const { statusCode, headers = {}, body } = result.right;
    const extra: Record<string, string | number> = {};
    for (const [name, value] of Object.entries(headers)) {
      if (name.toLowerCase() === "content-type" || value === undefined || value === null) continue;
      extra[name] = typeof value === "number" ? value : String(value);
    }
    return { status: statusCode, body: JSON.stringify(withEnvelopeCode(statusCode, body)), headers: extra };
  };
}

/** A named example of one of the operation's responses, with the status it answers. */
export interface NamedExample {
  key: string;
  /** The spec's response code: "200", or a range such as "5XX". */
  status: string;
  value: unknown;
}

/** The operation's named examples, response by response (the spec keeps each name to one response). */
export function namedExamples(operation: SpecOperation["prism"]): NamedExample[] {
  return operation.responses.flatMap((response) =>
    (response.contents ?? []).flatMap((content) =>
      (content.examples ?? []).filter((example) => "value" in example).map((example) => ({ key: example.key, status: response.code, value: (example as { value: unknown }).value })),
    ),
  );
}

/**
 * The status to answer an example with: its response's code, and for a range ("5XX") the status the
 * example's failure envelope names when it lies in the range, else the range's first.
 */
export function statusOf(example: NamedExample): number {
  if (/^\d{3}$/.test(example.status)) return Number(example.status);
  const first = Number(example.status[0]) * 100;
  const named = Number((example.value as { code?: unknown } | null)?.code);
  return Number.isInteger(named) && named >= first && named < first + 100 ? named : first;
}

function listed(examples: NamedExample[]): string {
  return examples.length === 0 ? "none" : examples.map((example) => `${example.key} (${example.status})`).join(", ");
}

/**
 * A failure envelope's `code` is its status as text. The spec's 5XX example says "503"; forced to
 * answer 500 with it, the body would contradict the status line, so the code follows the status.
 */
function withEnvelopeCode(status: number, body: unknown): unknown {
  if (status < 400 || body === null || typeof body !== "object" || Array.isArray(body)) return body ?? null;
  const envelope = body as Record<string, unknown>;
  if (envelope.isSuccessful !== false || typeof envelope.code !== "string") return body;
  return { ...envelope, code: String(status) };
}

/** Prism's error details span lines (io-ts trees); a message is one line. */
function flatten(text: string): string {
  return text
    .split("\n")
    .map((line) => line.replace(/^[\s└─├│]+/u, "").trim())
    .filter(Boolean)
    .join(": ")
    .replace(/\.$/, "");
}
