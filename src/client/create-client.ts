// The consumer-facing client: one method per operationId (bound by the generated client, so names
// and parameter types come from the spec), each resolving to the envelope's typed `data` or
// throwing HrApiError; `raw` for callers who want openapi-fetch's { data, error, response }.
import type { Client, Middleware } from "openapi-fetch";
import type { paths } from "../../generated/api.js";
import { bindOperations, createFetchClientForSpec, operationIndex, type OperationId, type Operations, type Query } from "../../generated/client.js";
import { authMiddleware, checkApiKey } from "./auth.js";
import { envelopeMiddleware } from "./envelope.js";
import { HrApiError } from "./errors.js";
import type { DataOf, ItemOf, ListOperationId } from "./operations.js";
import { paginate, type PageLike, type PaginateOptions } from "./paginate.js";
import { createRetryingFetch, type FetchLike, type RetryOptions } from "./retry.js";

export interface HrClientOptions {
  /** The service's base address, e.g. http://127.0.0.1:4010 for the mock. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <apiKey>`; never logged or put in an error. */
  apiKey: string;
  /** The fetch to send requests with; default the global fetch. Tests inject one. */
  fetch?: FetchLike;
  /** Retry options, or false for none. Default: 3 retries of 429, 5xx and network errors. */
  retry?: RetryOptions | false;
  /** Headers for every request. */
  headers?: Record<string, string>;
  /** A User-Agent for every request (runtimes that allow setting it). */
  userAgent?: string;
}

/** One method per operationId, with the generated parameters, resolving to the envelope's data. */
export type HrOperations = {
  [Op in keyof Operations]: (...args: Parameters<Operations[Op]>) => Promise<DataOf<Op & OperationId>>;
};

export interface HrClient extends HrOperations {
  /** The openapi-fetch client (Bearer header and retries, no envelope unwrapping): `{ data, error, response }`. */
  readonly raw: Client<paths>;
  /** Every item of a list operation, page by page; see `paginate`. */
  iterate<Op extends ListOperationId>(operationId: Op, query?: Query<Op>, options?: PaginateOptions): AsyncGenerator<ItemOf<Op>, void, undefined>;
  /** Adds openapi-fetch middleware to the methods and to `raw`, after the client's own. */
  use(...middleware: Middleware[]): void;
  /** Removes middleware added with `use`. */
  eject(...middleware: Middleware[]): void;
}

const LIST_OPERATIONS: readonly string[] = operationIndex.filter((op) => op.isList).map((op) => op.operationId);

export function createHrClient(options: HrClientOptions): HrClient {
  if (typeof options !== "object" || options === null) throw new TypeError("createHrClient needs an options object with baseUrl and apiKey");
  const { baseUrl, apiKey, retry = {}, headers = {}, userAgent } = options;
  if (typeof baseUrl !== "string" || baseUrl.trim() === "") throw new TypeError("baseUrl must be the service's address, e.g. http://127.0.0.1:4010");
  checkApiKey(apiKey);
  if (options.fetch !== undefined && typeof options.fetch !== "function") throw new TypeError("fetch must be a function");

  const send = retry === false ? (options.fetch ?? ((input: Request, init?: RequestInit) => globalThis.fetch(input, init))) : createRetryingFetch(options.fetch, retry);
  const clientOptions = { baseUrl, fetch: send, headers: userAgent ? { ...headers, "User-Agent": userAgent } : headers };
  const auth = authMiddleware(apiKey);

  const raw = createFetchClientForSpec(clientOptions);
  raw.use(auth);
  const enveloped = createFetchClientForSpec(clientOptions);
  enveloped.use(auth, envelopeMiddleware());

  const methods = {} as Record<string, (...args: unknown[]) => Promise<unknown>>;
  for (const [name, call] of Object.entries(bindOperations(enveloped))) {
    methods[name] = async (...args: unknown[]) => {
      let result: { data?: unknown; response: Response };
      try {
        result = await (call as (...a: unknown[]) => Promise<{ data?: unknown; response: Response }>)(...args);
      } catch (error) {
        throw asNetworkError(name, error);
      }
      return unwrap(name, result);
    };
  }

  return {
    ...(methods as HrOperations),
    raw,
    iterate(operationId, query, paginateOptions) {
      const list = methods[operationId];
      if (list === undefined || !LIST_OPERATIONS.includes(operationId)) {
        throw new TypeError(`${String(operationId)} is not a list operation; the list operations are ${LIST_OPERATIONS.join(", ")}`);
      }
      return paginate(list as (query?: Query<typeof operationId>) => Promise<PageLike<ItemOf<typeof operationId>>>, query, paginateOptions);
    },
    use(...middleware) {
      raw.use(...middleware);
      enveloped.use(...middleware);
    },
    eject(...middleware) {
      raw.eject(...middleware);
      enveloped.eject(...middleware);
    },
  };
}

/** The same function under the name the issue uses. */
export const createClient = createHrClient;

/**
 * A failure with no answer (refused connection, DNS, reset), after any retries, as an HrApiError of
 * kind "network", so callers handle one error type. The caller's own abort stays an AbortError, and
 * errors that are already HrApiError pass through.
 */
function asNetworkError(operationId: string, error: unknown): unknown {
  if (error instanceof HrApiError) return error;
  if (error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError")) return error;
  const reason = error instanceof Error ? (error.cause instanceof Error ? `${error.message}: ${error.cause.message}` : error.message) : String(error);
  return new HrApiError({ status: 0, kind: "network", message: `${operationId}: no answer from the service (${reason})`, operationId, cause: error });
}

function unwrap(operationId: string, result: { data?: unknown; response: Response }): unknown {
  // The envelope middleware has thrown for every failure, so `data` is a success envelope here.
  const envelope = result.data as { data?: unknown } | undefined;
  if (envelope === undefined) {
    throw new HrApiError({
      status: result.response.status,
      message: `${operationId}: HTTP ${result.response.status} with no body, not the service's JSON envelope`,
      kind: "unknown",
      operationId,
      url: result.response.url || undefined,
    });
  }
  return envelope.data;
}
