// The request path as every caller assembles it: the worlds (the default world of the demo keys and
// --keys keys, and the sandboxes), the operations of both documents (the read API's resource
// handlers, the control API's), the response cache and the dispatcher. startMock puts node:http in
// front of it, the MSW handlers (mock/msw/) a service worker or msw/node; neither builds its own.
// No I/O here.
import { controlOperations } from "../operations/control/index.js";
import type { KeyRegistry } from "../worlds/world.js";
import type { Dataset } from "../data/dataset.js";
import { DEMO_KEYS, type KeySpec } from "../keys/demo-keys.js";
import { handlers, readOperations } from "../operations/read/index.js";
import type { WebhookService } from "../webhooks/service.js";
import { createDispatcher, type Dispatcher, type DispatcherOptions } from "../pipeline/dispatch.js";
import { RESPONSE_CACHE_MAX_BYTES } from "../kernel/limits.js";
import { seededRandom } from "../kernel/random.js";
import { ResponseCache } from "../pipeline/response-cache.js";
import type { LoadedSpec } from "../kernel/spec.js";
import { Worlds, type SandboxLifecycle, type WorldsOptions } from "../worlds/world.js";

export interface PipelineOptions {
  spec: LoadedSpec;
  /** The dataset as generated: the start of every sandbox, never changed. */
  dataset: Dataset;
  /** The default world's dataset, a fork of `dataset` (copy-on-write.ts); forked here when absent. */
  defaultDataset?: Dataset;
  /** Keys beside the demo keys, already checked (parseKeySpecs). */
  extraKeys: readonly KeySpec[];
  rateLimit: number | "off";
  failRate: number;
  /** Seeds the injected failures, as it seeds the dataset. */
  seed: number;
  /** The webhook services of the default world and of each sandbox (none in the MSW handlers). */
  webhooks?: { default: WebhookService; sandbox: (dataset: Dataset, ordinal: number, worldId: string) => WebhookService };
  /** Told of each sandbox created, reset and deleted (a --state directory keeps them). */
  sandboxLifecycle?: SandboxLifecycle;
  /** Builds a sandbox's start dataset from a data file in its create request (Node only: files are read and checked there). */
  datasetFrom?: WorldsOptions["datasetFrom"];
  onInternalError: (line: string) => void;
  /** Holding back 401s of an address that keeps failing (dispatch.ts), or "off". */
  authThrottle?: DispatcherOptions["authThrottle"];
}

export interface Pipeline {
  dispatch: Dispatcher;
  keys: KeyRegistry;
  worlds: Worlds;
}

export function createPipeline(options: PipelineOptions): Pipeline {
  const { spec, dataset, rateLimit } = options;
  const worlds = new Worlds({
    start: dataset,
    defaultDataset: options.defaultDataset,
    keys: [...DEMO_KEYS, ...options.extraKeys],
    sandboxKeys: DEMO_KEYS,
    rateLimit,
    defaultWebhooks: options.webhooks?.default,
    webhooks: options.webhooks?.sandbox,
    lifecycle: options.sandboxLifecycle,
    datasetFrom: options.datasetFrom,
  });
  const dispatch = createDispatcher({
    spec,
    worlds,
    table: { ...readOperations(handlers), ...controlOperations(worlds, spec.byOperationId) },
    failRate: options.failRate,
    random: seededRandom(options.seed),
    cache: new ResponseCache(RESPONSE_CACHE_MAX_BYTES),
    now: () => performance.now(),
    onInternalError: options.onInternalError,
    authThrottle: options.authThrottle,
  });
  return { dispatch, keys: worlds.keys, worlds };
}
