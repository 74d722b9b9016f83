// createHandlers: the mock inside the browser (a service worker) and inside unit tests (msw/node),
// for Mock Service Worker 2.x: one handler per operation of the read API and of the control API's
// sandboxes and scripted faults (mock/edges/msw/handlers.ts), each answering through the request
// path the server uses (Prism's routing and validation, keys, permissions, rate limit, the dataset's
// handlers, the envelope), CORS aside (no network, no origin).
//
// Creating the handlers loads nothing heavy at once: the documents, Prism and the dataset
// (handlers-mock.ts, a dynamic import, a chunk of its own in a page's bundle) start loading on the
// next turn of the event loop, while the page registers MSW's worker, so the first request finds
// them built or under way instead of starting them.
import type { HttpHandler } from "msw";
import { defaultServerUrl } from "../../generated/routes.js";
import { MockOptionError } from "../kernel/option-error.js";
import type { KeySpec } from "../keys/demo-keys.js";
import { parseKeySpecs } from "../keys/load-keys.js";
import { createFetchEdge } from "../edges/fetch.js";
import { operationHandlers, type HandlerBase } from "../edges/msw/handlers.js";
import { SERVED } from "../edges/msw/served.js";
import type { AssembledMock } from "./assemble.js";
import { checkPipelineOptions, type PipelineSettingsInput } from "./options.js";
import { journalAccess, type JournalAccess, type JournalSource } from "./journal-access.js";
import { whenQuiet, type QuietWatch } from "./when-quiet.js";
import { buildEveryOrganization } from "../data/lazy-organizations.js";

export { DEMO_KEY, DEMO_KEYS, type KeySpec } from "../keys/demo-keys.js";
export { VerificationError, type JournalAccess, type QueryValue, type RecordedRequest, type RequestFilter, type Times, type VerifyOptions, type PactFile, type PactOptions } from "./journal-access.js";
export { MockOptionError };
export type { PipelineSettingsInput } from "./options.js";
export { KeysFileError } from "../keys/load-keys.js";

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
 * The handlers, an array MSW takes as it is, with the journal of their in-process world (the demo
 * keys' and `keys`' requests): `handlers.requests(filter)` and `await handlers.verify(filter, { times,
 * within })`, which `expect(handlers).toHaveReceived(...)` (hr-service-mock/vitest) calls too.
 * Spreading the array into setupServer(...) passes the handlers; the journal stays on the array.
 */
export type MockHandlers = HttpHandler[] & JournalAccess;

/**
 * MSW request handlers answering the HR service's read API as the mock server does, one per
 * operation: spread them into `setupWorker(...)` or `setupServer(...)`, and replace one for a test
 * with `server.use(http.get(...))`. Options are checked here; a mistake throws a MockOptionError
 * (or a KeysFileError for `keys`) naming it.
 */
export function createHandlers(options: MockHandlersOptions = {}): MockHandlers {
  if (typeof options !== "object" || options === null) throw new MockOptionError("createHandlers takes an options object");
  const settings = checkPipelineOptions(options);
  const base = baseOf(options.baseUrl ?? defaultServerUrl);
  const extraKeys = parseKeySpecs(options.keys ?? []);
  const onError = options.onError ?? ((line: string) => console.error(line));

  let mock: Promise<AssembledMock> | undefined;
  let assembled: AssembledMock | undefined;
  const ready = () =>
    (mock ??= import("./handlers-mock.js")
      .then(({ assembleHandlersMock }) => assembleHandlersMock({ settings, extraKeys, onError }))
      .then((built) => (assembled = built)));
  // A failure to build surfaces on the first request (its 500 and onError line), as if it had started there.
  const warm = setTimeout(() => void ready().catch(() => undefined), 0) as { unref?: () => void };
  // In Node a process with nothing else to do need not wait for it.
  warm.unref?.();
  const quiet = quietWatch(() => assembled);
  const answer = createFetchEdge({
    dispatch: async (request) => {
      quiet?.started();
      try {
        return await (await ready()).dispatch(request);
      } finally {
        quiet?.ended();
      }
    },
    failureStatus: settings.failureStatus,
    latencyMs: settings.latencyMs,
    basePath: base.path,
    onError,
    name: "hr-mock (msw)",
  });
  const source = (built: AssembledMock): JournalSource => ({ world: built.worlds.default, operations: built.spec.byOperationId });
  const journal = journalAccess(
    () => assembled && source(assembled),
    async () => source(await ready()),
  );
  return Object.assign(operationHandlers(SERVED, base, answer), journal);
}

/** How long without a request before a page builds the organisations no request has read yet. */
const QUIET_MS = 500;

/**
 * In a page (requestIdleCallback there), the organisations no request has read yet are built once it
 * has been quiet and is idle, so a later request of another organisation does not wait for its
 * build; in Node each is built by its first request.
 */
function quietWatch(built: () => AssembledMock | undefined): QuietWatch | undefined {
  const idle = (globalThis as { requestIdleCallback?: (callback: () => void) => unknown }).requestIdleCallback;
  if (!idle) return undefined;
  return whenQuiet({
    quietMs: QUIET_MS,
    work: () => {
      const mock = built();
      if (mock) buildEveryOrganization(mock.worlds.default.dataset);
    },
    after: (callback, ms) => {
      const timer = setTimeout(callback, ms);
      return () => clearTimeout(timer);
    },
    whenIdle: (callback) => void idle(callback),
  });
}

/** The base URL's origin and path (without a trailing slash); a path alone is resolved against the page (browsers only). */
function baseOf(baseUrl: string): HandlerBase {
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
