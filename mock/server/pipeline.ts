// One API request, start to finish, without I/O: route it to an operation of the spec, inject a
// failure if asked, authenticate the key, count it against the rate limit, check the permission,
// then answer — through Prism's mocker when a Prefer header asks for it, else from the response
// cache or by validating the parameters (Prism's validators) and calling the resource handler.
//
// Order matters and is deliberate: an unknown path is a 404 whoever asks (routing needs no key);
// 401 comes before anything that depends on the key; 429 before 403, because every request of a
// known key counts; parameters are checked only for a caller allowed to call the operation.
import { authenticate, forbiddenMessage, hasPermission } from "../auth/authenticate.js";
import type { KeyRegistry } from "../auth/key-registry.js";
import type { Dataset } from "../data/dataset.js";
import type { ResourceHandlers } from "../resources/contract.js";
import { failure, failureBody, successBody, type Reply } from "./envelope.js";
import { checkRequest } from "./params.js";
import { parsePrefer, type PreferMocker } from "./prefer.js";
import type { RateLimiter } from "./rate-limit.js";
import { ResponseCache } from "./response-cache.js";
import type { Router } from "./router.js";
import { errorText, oneLine, printable } from "./text.js";

export interface PipelineOptions {
  router: Router;
  keys: KeyRegistry;
  handlers: ResourceHandlers;
  /** Read at every request: the dataset may change under the mock (webhook triggers). */
  dataset: () => Dataset;
  rateLimiter?: RateLimiter;
  /** Probability 0..1 of answering an operation with an injected 503. */
  failRate: number;
  random: () => number;
  prefer: PreferMocker;
  cache: ResponseCache;
  now: () => number;
  /** Called with one line when something fails inside the mock (never with a key). */
  onInternalError: (line: string) => void;
}

export interface ApiRequest {
  method: string;
  /** Path and query as sent (`/v1/leaverequest/list?PageSize=5`). */
  url: string;
  headers: Record<string, string | string[] | undefined>;
}

/** What the request log may say about the caller: a label, never a key. */
export interface ReplyWithCaller extends Reply {
  caller?: string;
}

export type Pipeline = (request: ApiRequest) => ReplyWithCaller | Promise<ReplyWithCaller>;

export function createPipeline(options: PipelineOptions): Pipeline {
  const { router, keys, handlers, rateLimiter, failRate, random, prefer, cache, now, onInternalError } = options;

  return (request) => {
    const { method, url, headers } = request;
    const queryStart = url.indexOf("?");
    const rawPath = queryStart < 0 ? url : url.slice(0, queryStart);
    const search = queryStart < 0 ? "" : url.slice(queryStart + 1);
    const route = router(method, rawPath);
    if (route.kind === "unknown-path") {
      const hint = route.suggestion
        ? `did you mean ${describePath(route.suggestion)}? Paths are case-sensitive and have no trailing slash`
        : "the API reference is at /docs";
      return failure(404, `Not found: no operation at ${describePath(rawPath)}; ${hint}.`);
    }
    if (route.kind === "wrong-method") {
      // 405 is not among the spec's responses; a 404 that names the methods the path has is.
      return failure(404, `Not found: ${safeMethod(method)} is not an operation of ${describePath(rawPath)}; it answers ${route.allow.join(", ")}.`, {
        Allow: route.allow.join(", "),
      });
    }
    const { operation, pathParams } = route;

    if (failRate > 0 && random() < failRate) {
      return failure(503, "Service unavailable: injected failure (--fail-rate); retry with backoff.");
    }

    const auth = authenticate(singleHeader(headers.authorization), keys);
    if (!auth.ok) return failure(401, auth.message, { "WWW-Authenticate": "Bearer" });
    const apiKey = auth.apiKey;

    let rateHeaders: Record<string, number> | undefined;
    if (rateLimiter) {
      const decision = rateLimiter.take(apiKey.key, now());
      if (!decision.allowed) {
        const retry = decision.retryAfterSeconds ?? 1;
        return {
          ...failure(
            429,
            `Too many requests: ${decision.limit} requests in ${rateLimiter.windowMs / 1000} seconds allowed for this key; retry after ${retry} seconds.`,
            { "Retry-After": retry, "RateLimit-Limit": decision.limit, "RateLimit-Remaining": 0 },
          ),
          caller: apiKey.label,
        };
      }
      rateHeaders = { "RateLimit-Limit": decision.limit, "RateLimit-Remaining": decision.remaining };
    }

    if (!hasPermission(apiKey, operation.permission)) {
      return { ...failure(403, forbiddenMessage(operation.permission), rateHeaders), caller: apiKey.label };
    }

    // Prefer with code, example or dynamic hands the answer to Prism's mocker; other preferences
    // (return=minimal, an empty header) leave it to the dataset, as Prism ignores what it does not know.
    if (headers.prefer !== undefined && headers.prefer !== "") {
      const preference = parsePrefer(String(headers.prefer));
      if (!preference.ok) {
        return { ...failure(400, `Invalid parameter Prefer (header): ${preference.message}; use code=<status>, example=<name> or dynamic=true.`, rateHeaders), caller: apiKey.label };
      }
      const { code, exampleKey, dynamic } = preference.config;
      if (code !== undefined || exampleKey !== undefined || dynamic !== undefined) {
        const checked = checkRequest(operation, search, pathParams);
        if (!checked.ok) return { ...failure(400, checked.message, rateHeaders), caller: apiKey.label };
        return prefer(operation, { method, path: rawPath, query: checked.query }, preference.config).then(
          (reply) => ({ ...reply, headers: { ...reply.headers, ...rateHeaders }, caller: apiKey.label }),
          (error: unknown) => internalError(error, operation.operationId, rateHeaders, apiKey.label),
        );
      }
    }

    const dataset = options.dataset();
    const cacheKey = `${apiKey.organizationId} ${method} ${url}`;
    const cached = cache.get(cacheKey, dataset.version);
    if (cached) return { status: cached.status, body: cached.body, headers: rateHeaders, caller: apiKey.label };

    let status: number;
    let body: string;
    try {
      const checked = checkRequest(operation, search, pathParams);
      if (!checked.ok) {
        status = 400;
        body = failureBody(400, checked.message);
      } else {
        const result = handlers[operation.operationId](dataset, {
          organizationId: apiKey.organizationId,
          query: checked.query,
          path: pathParams,
        });
        if (result.ok) {
          status = 200;
          body = successBody(result.data);
        } else {
          status = result.status;
          body = failureBody(result.status, result.message);
        }
      }
    } catch (error) {
      return internalError(error, operation.operationId, rateHeaders, apiKey.label);
    }
    const bytes = Buffer.from(body);
    cache.set(cacheKey, dataset.version, { operationId: operation.operationId, status, body: bytes });
    return { status, body: bytes, headers: rateHeaders, caller: apiKey.label };
  };

  function internalError(error: unknown, operationId: string, headers: Record<string, number> | undefined, caller: string): ReplyWithCaller {
    onInternalError(`hr-mock: internal error in ${operationId}: ${oneLine(errorText(error))}`);
    return { ...failure(500, `Internal error: the mock failed while answering ${operationId}; its log has the cause.`, headers), caller };
  }
}

function singleHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** A path as a message may quote it: short, printable. */
function describePath(path: string): string {
  return printable(path, 80);
}

function safeMethod(method: string): string {
  return /^[A-Z-]{1,16}$/i.test(method) ? method.toUpperCase() : "this method";
}
