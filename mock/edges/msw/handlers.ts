// The mock inside the browser (a service worker) and inside unit tests (msw/node), for Mock Service
// Worker 2.x: one catch-all handler hands every request under the API's base URL (the read API, and
// the control API's sandboxes and scripted faults) to the same dispatcher the server uses (mock/server/pipeline.ts: Prism's routing and validation, keys,
// permissions, rate limit, the dataset's handlers, the envelope), and sends its reply back as a
// Fetch Response with the server's status and headers, CORS aside (no network, no origin).
//
// The spec is the bundled document imported as data (a browser has no files); the dataset is built
// from the seed on the first request, so creating handlers costs nothing until they are used.
import { delay, http, type HttpHandler } from "msw";
import openapi from "../../../generated/openapi.json" with { type: "json" };
import controlDocument from "../../../generated/control-openapi.json" with { type: "json" };
import { createDataset } from "../../data/dataset.js";
import { permissions } from "../../../generated/facts.js";
import { MANAGE_WEBHOOKS, type KeySpec } from "../../keys/demo-keys.js";
import { KeysFileError, parseKeySpecs } from "../../keys/load-keys.js";
import { failure, wireHead, type FailureStatus, type Reply } from "../../kernel/envelope.js";
import { checkPipelineOptions, MockOptionError, type PipelineSettingsInput } from "../../app/options.js";
import { createPipeline, type Pipeline } from "../../app/assemble.js";
import { loadReadSpec } from "../../kernel/spec.js";
import { errorText, oneLine } from "../../kernel/text.js";

export { DEMO_KEY, DEMO_KEYS, type KeySpec } from "../../keys/demo-keys.js";
export { MockOptionError };

export interface MockHandlersOptions extends PipelineSettingsInput {
  /**
   * Where the client sends its requests; every request under it is the mock's. Default the spec's
   * server (http://127.0.0.1:4010). In a browser page a path ("/hr-api") means this page's origin.
   */
  baseUrl?: string;
  /** More API keys beside the demo keys (the shape of a `--keys` file's entries). */
  keys?: KeySpec[];
  /** Where internal errors are reported (one line each); default console.error. */
  onError?: (line: string) => void;
}

/**
 * The control API's operations the handlers serve: sandboxes and scripted faults (their tags in the
 * control document). The webhook operations need a server that sends deliveries, so they are not here.
 */
const WORLD_OPERATIONS = new Set(
  Object.values((controlDocument as { paths: Record<string, Record<string, { operationId?: string; tags?: string[] }>> }).paths)
    .flatMap((item) => Object.values(item))
    .filter((op) => op.tags?.some((tag) => tag === "Sandboxes" || tag === "Faults"))
    .map((op) => op.operationId ?? ""),
);

/** Methods whose body the API's operations may read (the edge passes it on, as node:http does). */
const BODY_METHODS = new Set(["POST", "PUT", "PATCH"]);

/**
 * MSW request handlers answering the HR service's read API as the mock server does: spread them
 * into `setupWorker(...)` or `setupServer(...)`. Options are checked here; a mistake throws a
 * MockOptionError (or a KeysFileError for `keys`) naming it.
 */
export function createHandlers(options: MockHandlersOptions = {}): HttpHandler[] {
  if (typeof options !== "object" || options === null) throw new MockOptionError("createHandlers takes an options object");
  const settings = checkPipelineOptions(options);
  const base = baseOf(options.baseUrl ?? defaultBaseUrl());
  // The permission names a key may hold: the spec's x-permission values (generated) and the webhooks one.
  const extraKeys = parseKeySpecs(options.keys ?? [], [...Object.values(permissions), MANAGE_WEBHOOKS]);
  const onError = options.onError ?? ((line: string) => console.error(line));
  const under = new RegExp(`^${escapeRegExp(base.origin + base.path)}(?:/|$)`);

  let pipeline: Promise<Pipeline> | undefined;
  const ready = () =>
    (pipeline ??= loadReadSpec(openapi, undefined, { document: controlDocument, only: (id) => WORLD_OPERATIONS.has(id) }).then((spec) => {
      const dataset = createDataset({ seed: settings.seed, scale: settings.scale, today: options.today });
      // No throttle on failed authentication: it slows key guessing over a network, while these
      // handlers answer the page or test process they run in, which has no client address to tell
      // callers apart (every request would share one budget and a test of 401s would be held).
      return createPipeline({ spec, dataset, extraKeys, rateLimit: settings.rateLimit, failRate: settings.failRate, seed: settings.seed, onInternalError: onError, authThrottle: "off" });
    }));

  // A RegExp without groups: MSW matches it as is, decoding nothing (a malformed %-escape in the
  // path is the dispatcher's to answer, with the envelope).
  return [
    http.all(under, async ({ request }) => {
      const reply = await answer(request).catch((error: unknown): Reply => {
        onError(`hr-mock (msw): internal error on ${request.method} ${request.url.split("?")[0]}: ${oneLine(errorText(error))}`);
        return failure(500, "Internal error: the mock failed while answering; its log has the cause.");
      });
      // The latency option, plus what the answer asks to be held (a scripted delay).
      const hold = settings.latencyMs + (reply.holdMs ?? 0);
      if (hold > 0) await delay(hold);
      const body = typeof reply.body === "string" ? new TextEncoder().encode(reply.body) : reply.body;
      const { status, headers } = wireHead(reply, body.length, settings.failureStatus);
      const sent = new Headers();
      for (const [name, value] of Object.entries(headers)) sent.set(name, String(value));
      // A Buffer's type allows a shared backing store that Response refuses; the dispatcher's never is.
      return new Response(body.length === 0 ? null : (body as Uint8Array<ArrayBuffer>), { status, headers: sent });
    }),
  ];

  async function answer(request: Request): Promise<Reply> {
    const { dispatch } = await ready();
    const url = new URL(request.url);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => (headers[name] = value));
    const body = BODY_METHODS.has(request.method) ? new Uint8Array(await request.arrayBuffer()) : undefined;
    const path = url.pathname.slice(base.path.length) || "/";
    return dispatch({ method: request.method, url: `${path}${url.search}`, headers, body });
  }
}

/** The spec's server address (its `base_url` variable's default). */
function defaultBaseUrl(): string {
  const server = (openapi as { servers?: { url: string; variables?: Record<string, { default: string }> }[] }).servers?.[0];
  return (server?.url ?? "").replace(/\{(\w+)\}/g, (_, name: string) => server?.variables?.[name]?.default ?? "");
}

/** The base URL's origin and path (without a trailing slash); a path alone is resolved against the page (browsers only). */
function baseOf(baseUrl: string): { origin: string; path: string } {
  let url: URL;
  try {
    url = new URL(baseUrl, (globalThis as { location?: { href: string } }).location?.href);
  } catch {
    throw new MockOptionError(`baseUrl must be an absolute http(s) URL such as http://127.0.0.1:4010 (a path only in a browser page), got ${JSON.stringify(baseUrl)}`);
  }
  if (!/^https?:$/.test(url.protocol) || url.search !== "" || url.hash !== "") {
    throw new MockOptionError(`baseUrl must be an http(s) URL without query or fragment, got ${JSON.stringify(baseUrl)}`);
  }
  return { origin: url.origin, path: url.pathname.replace(/\/+$/, "") };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

export { KeysFileError };
