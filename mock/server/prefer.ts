// Requests carrying a `Prefer` header (code=…, example=…, dynamic=true, seed=…) go through Prism's
// own mocker, so Prism users get what they expect: the spec's example for that status, a named
// example, or a body generated from the schema. They arrive here authenticated, within the rate
// limit, permitted and with valid parameters; Prism only picks and builds the response.
//
// Prism's mocker (with faker 6 and json-schema-faker) takes over half a second to load; it is
// loaded on the first Prefer request, so start-up and the hot path never pay for it. The header is
// parsed here as Prism's server parses it, so the mock needs prism-http and prism-core only.
import { createRequire } from "node:module";
import type { IHttpConfig } from "@stoplight/prism-http";
import { failure, type Reply } from "./envelope.js";
import type { Query } from "./params.js";
import type { SpecOperation } from "./spec.js";

const require = createRequire(import.meta.url);

interface PrismMocker {
  request(input: unknown, operations: unknown[], config: IHttpConfig): () => Promise<Either<ProblemError, PrismOutput>>;
}

interface PrismParts {
  prism: PrismMocker;
}

let parts: PrismParts | undefined;
function prismParts(): PrismParts {
  if (parts) return parts;
  const { createInstance } = require("@stoplight/prism-http") as typeof import("@stoplight/prism-http");
  const { createLogger } = require("@stoplight/prism-core") as typeof import("@stoplight/prism-core");
  // Without this, dynamic bodies gain random extra properties (json-schema-faker's default); set on
  // the copy Prism loads.
  createRequire(require.resolve("@stoplight/prism-http"))("json-schema-faker").JSONSchemaFaker.option({ fillProperties: false });
  const prism = createInstance(BASE_CONFIG, { logger: createLogger("hr-mock", { level: "silent" }) }) as unknown as PrismMocker;
  parts = { prism };
  return parts;
}

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
  return value === true ? "nothing" : JSON.stringify(value.length > 40 ? `${value.slice(0, 37)}...` : value);
}

type Either<L, R> = { _tag: "Left"; left: L } | { _tag: "Right"; right: R };
interface ProblemError {
  status?: number;
  detail?: string;
  message?: string;
}
export interface PreferConfig {
  code?: number;
  exampleKey?: string;
  dynamic?: boolean;
  seed?: string;
}
interface PrismOutput {
  output: { statusCode: number; headers?: Record<string, unknown>; body?: unknown };
}

const BASE_CONFIG: IHttpConfig = {
  isProxy: false,
  mock: { dynamic: false },
  // Done already by the mock, more strictly (keys, permissions, Prism's own parameter validators).
  checkSecurity: false,
  validateRequest: false,
  validateResponse: false,
  errors: false,
  upstreamProxy: undefined,
};

/** Answers a request (already checked) with Prism's mocker and the preferences parsePrefer read. */
export type PreferMocker = (operation: SpecOperation, request: { method: string; path: string; query: Query }, preferences: PreferConfig) => Promise<Reply>;

export function createPreferMocker(): PreferMocker {
  return async (operation, request, preferences) => {
    const { prism } = prismParts();
    const config = { ...BASE_CONFIG, mock: { ...BASE_CONFIG.mock, ...preferences } } as IHttpConfig;
    const input = {
      method: request.method.toLowerCase() as "get",
      url: { path: request.path, query: request.query as Record<string, string | string[]> },
      // The API speaks JSON only: Accept and the rest play no part (Prism would refuse text/html).
      headers: {},
    };
    const result = await prism.request(input, [operation.prism], config)();
    if (result._tag === "Left") {
      const problem = result.left;
      const detail = flatten(problem.detail ?? problem.message ?? "Prism could not build a response");
      if (problem.status === 404) {
        const listed = operation.statuses.join(", ");
        return failure(404, `Not found: the Prefer header asks for a response this operation does not define (${detail}); it defines ${listed}.`);
      }
      if (problem.status === 422 || problem.status === 400) return failure(400, `Invalid parameter Prefer (header): ${detail}.`);
      throw new Error(`Prism's mocker failed for ${operation.operationId}: ${detail}`);
    }
    const { statusCode, headers = {}, body } = result.right.output;
    const extra: Record<string, string | number> = {};
    for (const [name, value] of Object.entries(headers)) {
      if (name.toLowerCase() === "content-type" || value === undefined || value === null) continue;
      extra[name] = typeof value === "number" ? value : String(value);
    }
    return { status: statusCode, body: JSON.stringify(body ?? null), headers: extra };
  };
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
