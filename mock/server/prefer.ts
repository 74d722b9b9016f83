// Requests carrying a `Prefer` header (code=…, example=…, dynamic=true, seed=…) go through Prism's
// own mocker, so Prism users get what they expect: the spec's example for that status, a named
// example, or a body generated from the schema. They arrive here authenticated, within the rate
// limit, permitted and with valid parameters; Prism only picks and builds the response.
//
// Prism's mocker (with faker 6 and json-schema-faker) takes over half a second to load; it is
// loaded on the first Prefer request, so start-up and the hot path never pay for it.
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
  /** Prism's parser of the Prefer header (prism-http-server), so the header means what it means there. */
  getHttpConfigFromRequest(input: { url: { query?: Query }; headers?: Record<string, string> }): Either<ProblemError, PreferConfig>;
}

let parts: PrismParts | undefined;
function prismParts(): PrismParts {
  if (parts) return parts;
  const { createInstance } = require("@stoplight/prism-http") as typeof import("@stoplight/prism-http");
  const { createLogger } = require("@stoplight/prism-core") as typeof import("@stoplight/prism-core");
  const { getHttpConfigFromRequest } = require("@stoplight/prism-http-server/dist/getHttpConfigFromRequest.js") as Pick<PrismParts, "getHttpConfigFromRequest">;
  // Without this, dynamic bodies gain random extra properties (json-schema-faker's default); set on
  // the copy Prism loads.
  createRequire(require.resolve("@stoplight/prism-http"))("json-schema-faker").JSONSchemaFaker.option({ fillProperties: false });
  const prism = createInstance(BASE_CONFIG, { logger: createLogger("hr-mock", { level: "silent" }) }) as unknown as PrismMocker;
  parts = { prism, getHttpConfigFromRequest };
  return parts;
}

type Either<L, R> = { _tag: "Left"; left: L } | { _tag: "Right"; right: R };
interface ProblemError {
  status?: number;
  detail?: string;
  message?: string;
}
interface PreferConfig {
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

export type PreferMocker = (
  operation: SpecOperation,
  request: { method: string; path: string; query: Query; headers: Record<string, string | string[] | undefined> },
) => Promise<Reply>;

export function createPreferMocker(): PreferMocker {
  return async (operation, request) => {
    const { prism, getHttpConfigFromRequest } = prismParts();
    const prefer = String(request.headers.prefer ?? "");
    const parsed = getHttpConfigFromRequest({ url: { query: request.query }, headers: { prefer } });
    if (parsed._tag === "Left") {
      return failure(400, `Invalid parameter Prefer (header): ${flatten(parsed.left.detail ?? parsed.left.message ?? "not understood")}; use code=<status>, example=<name> or dynamic=true.`);
    }
    const wanted = Object.fromEntries(Object.entries(parsed.right).filter(([, value]) => value !== undefined));
    const config = { ...BASE_CONFIG, mock: { ...BASE_CONFIG.mock, ...wanted } } as IHttpConfig;
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
