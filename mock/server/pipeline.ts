// The read API's request path as every caller assembles it: the keys resolved against the dataset,
// the resource handlers (plus any other operations, such as the control API's), the rate limiter,
// the response cache and the dispatcher. startMock puts node:http in front of it, the MSW handlers
// (mock/msw/) a service worker or msw/node; neither builds its own. No I/O here.
import { createKeyRegistry, type KeyRegistry } from "../auth/key-registry.js";
import type { Dataset } from "../data/dataset.js";
import { DEMO_KEYS, type KeySpec } from "../keys/demo-keys.js";
import { handlers, readOperations } from "../resources/index.js";
import { createDispatcher, type Dispatcher, type DispatcherOptions } from "./dispatch.js";
import { RATE_LIMIT_WINDOW_MS, RESPONSE_CACHE_MAX_BYTES } from "./limits.js";
import type { OperationTable } from "./operations.js";
import { seededRandom } from "./random.js";
import { createRateLimiter } from "./rate-limit.js";
import { ResponseCache } from "./response-cache.js";
import type { LoadedSpec } from "./spec.js";

export interface PipelineOptions {
  spec: LoadedSpec;
  dataset: Dataset;
  /** Keys beside the demo keys, already checked (parseKeySpecs). */
  extraKeys: readonly KeySpec[];
  rateLimit: number | "off";
  failRate: number;
  /** Seeds the injected failures, as it seeds the dataset. */
  seed: number;
  /** Operations of other documents than the read API (the control API's), by operationId. */
  operations?: OperationTable;
  onInternalError: (line: string) => void;
  /** Holding back 401s of an address that keeps failing (dispatch.ts), or "off". */
  authThrottle?: DispatcherOptions["authThrottle"];
}

export interface Pipeline {
  dispatch: Dispatcher;
  keys: KeyRegistry;
}

export function createPipeline(options: PipelineOptions): Pipeline {
  const { spec, dataset, rateLimit } = options;
  const keys = createKeyRegistry([...DEMO_KEYS, ...options.extraKeys], dataset.organizations.map((org) => org.id));
  const dispatch = createDispatcher({
    spec,
    keys,
    table: { ...readOperations(handlers, () => dataset), ...options.operations },
    dataset: () => dataset,
    rateLimiter: rateLimit === "off" ? undefined : createRateLimiter(rateLimit, RATE_LIMIT_WINDOW_MS),
    failRate: options.failRate,
    random: seededRandom(options.seed),
    cache: new ResponseCache(RESPONSE_CACHE_MAX_BYTES),
    now: () => performance.now(),
    onInternalError: options.onInternalError,
    authThrottle: options.authThrottle,
  });
  return { dispatch, keys };
}
