// The composition root: one mock built from its parts, the same way for every caller. startMock
// (and so `hr-mock serve`) puts node:http in front of what this returns, createHandlers puts MSW's
// handlers; neither builds a part of its own. The parts: the worlds (the default world of the demo
// keys and --keys keys, and the sandboxes), the operations of both documents (the read API's
// resource handlers, the control API's), the response cache, the dispatcher, and the request path as
// a fetch for in-process callers. No I/O and nothing Node-only here: it runs in a page too.
import { createControlClient, type ControlClient } from "../kernel/control-client.js";
import { RESPONSE_CACHE_MAX_BYTES } from "../kernel/limits.js";
import { seededRandom } from "../kernel/random.js";
import type { LoadedSpec } from "../kernel/spec.js";
import type { Dataset } from "../data/dataset.js";
import { DEMO_KEY, DEMO_KEYS, type KeySpec } from "../keys/demo-keys.js";
import type { WebhookCore } from "../webhooks/core.js";
import { Worlds, type WorldsOptions } from "../worlds/world.js";
import type { WorldsState } from "../worlds/state-port.js";
import { controlOperations } from "../operations/control/index.js";
import type { SandboxView } from "../operations/control/sandboxes.js";
import { probeOperations, type ProbeSource } from "../operations/control/probes.js";
import { handlers, readOperations } from "../operations/read/index.js";
import { createDispatcher, type DispatcherOptions } from "../pipeline/dispatch.js";
import { ResponseCache } from "../pipeline/response-cache.js";
import { createFetchEdge } from "../edges/fetch.js";
import type { PipelineSettings } from "./options.js";
import { journalAccess } from "./journal-access.js";
import { answeredBy, SandboxError, sandboxHandle, type MockSandbox } from "./sandbox-handle.js";

export { SandboxError, type MockSandbox } from "./sandbox-handle.js";

export interface AssembleOptions {
  spec: LoadedSpec;
  settings: PipelineSettings;
  /** The dataset as generated: the start of every sandbox, never changed. */
  dataset: Dataset;
  /** The default world's dataset, a fork of `dataset` (copy-on-write.ts); forked here when absent. */
  defaultDataset?: Dataset;
  /** Keys beside the demo keys, already checked (parseKeySpecs). */
  extraKeys: readonly KeySpec[];
  /** The state behind the worlds: the backend startMock opened from --state, memory in the MSW handlers. */
  state: WorldsState;
  /** What every world's webhook service is made with (none in the MSW handlers). */
  webhooks?: WebhookCore;
  /** Builds a sandbox's start dataset from a data file in its create request (Node only: files are read and checked there). */
  datasetFrom?: WorldsOptions["datasetFrom"];
  /** Where internal errors are reported, one line each (never a key). */
  onError: (line: string) => void;
  /** Holding back 401s of an address that keeps failing (dispatch.ts), or "off". */
  authThrottle?: DispatcherOptions["authThrottle"];
  /** What GET /_mock/health and /_mock/ready report (a running mock's; the MSW handlers serve no probes). */
  probes?: ProbeSource;
}

export type AssembledMock = ReturnType<typeof assembleMock>;

/** In-process calls have no host; the control client needs an absolute URL all the same. */
const IN_PROCESS = "http://in-process.invalid";

export function assembleMock(options: AssembleOptions) {
  const { spec, dataset, settings } = options;
  const worlds = new Worlds({
    start: dataset,
    defaultDataset: options.defaultDataset,
    keys: [...DEMO_KEYS, ...options.extraKeys],
    sandboxKeys: DEMO_KEYS,
    state: options.state,
    webhooks: options.webhooks,
    datasetFrom: options.datasetFrom,
  });
  const dispatch = createDispatcher({
    spec,
    worlds,
    table: { ...readOperations(handlers), ...controlOperations(worlds, spec.byOperationId) },
    keyless: options.probes && probeOperations(options.probes),
    failRate: settings.failRate,
    random: seededRandom(settings.seed),
    cache: new ResponseCache(RESPONSE_CACHE_MAX_BYTES),
    now: () => performance.now(),
    onInternalError: options.onError,
    authThrottle: options.authThrottle,
  });
  // The request path as a fetch, for in-process callers: neither delayed (--latency is the network's) nor sent as HTTP 200 failures.
  const fetch = createFetchEdge({ dispatch, failureStatus: "http", latencyMs: 0, basePath: "", onError: options.onError, name: "hr-mock" });
  // The control API in process, as the default world's webhooks admin; made with the first sandbox
  // (openapi-fetch reads the global Request, which loads Node's fetch: a start does without it).
  let client: ControlClient | undefined;
  const control = () => (client ??= createControlClient({ baseUrl: IN_PROCESS, apiKey: DEMO_KEY.org1WebhooksAdmin, fetch }));

  const answered = answeredBy(IN_PROCESS, "message");
  /** A sandbox through the control API's own operation (POST /_mock/sandboxes); rejects with a SandboxError. */
  async function createSandbox(sandboxOptions: { label?: string; data?: unknown } = {}): Promise<MockSandbox> {
    const view = await answered<SandboxView>(control().POST("/_mock/sandboxes", { body: sandboxOptions as never }));
    // Kept from here on: a deleted sandbox's journal still answers what it received.
    const world = worlds.sandbox(view.id);
    if (!world) throw new SandboxError(500, `Internal error: the sandbox ${view.id} was created but is not there.`);
    return sandboxHandle(view, control(), answered, journalAccess(() => ({ world, operations: spec.byOperationId })));
  }

  // The default world's journal (the demo keys' and --keys keys' requests).
  const journal = journalAccess(() => ({ world: worlds.default, operations: spec.byOperationId }));
  return { spec, dispatch, keys: worlds.keys, worlds, fetch, createSandbox, journal };
}
