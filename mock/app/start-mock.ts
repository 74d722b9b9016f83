// The mock, programmatically: `startMock({ port: 0 })` checks its options, builds the dataset (and
// restores the --state store), assembles the mock (assemble.ts, the composition root), puts
// node:http in front of it and serves until `close()`. `hr-mock serve` is this plus a banner.
import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { forkDataset } from "../data/copy-on-write.js";
import { sharedStartDataset } from "../data/start-datasets.js";
import { createDataset, sampleIds, type Dataset, type OrganizationSampleIds } from "../data/dataset.js";
import { organizationNameAt } from "../data/lazy-organizations.js";
import { DataFileError, type DataFile, type LoadedDataFile } from "../data/data-file.js";
import { dataFileFromObject } from "../data/check-data-file.js";
import { controlPrefix as CONTROL_PREFIX } from "../../generated/control-facts.js";
import { bodyLimit, loadSpec, type LoadedSpec } from "../kernel/spec.js";
import { DEMO_KEYS } from "../keys/demo-keys.js";
import { parseKeySpecs, readKeysFile } from "../keys/load-keys.js";
import { mockWebhookCore, WebhookEngine, WebhookOptionError, type TriggerOptions, type TriggerResult, type WebhookCore } from "../webhooks/index.js";
import { openBackend, type StateBackend, type StateReport } from "../state/index.js";
import { DEFAULT_DOCS_DIR, docsBuilt } from "../edges/node/docs.js";
import { defaultConnectionLimits } from "../edges/node/connections.js";
import { createMockHttpServer } from "../edges/node/http.js";
import { assembleMock, type MockSandbox } from "./assemble.js";
import type { ApiKey } from "../worlds/world.js";
import { MockOptionError } from "../kernel/option-error.js";
import { checkOptions, type Settings, type StartMockOptions } from "./start-options.js";
import type { JournalAccess } from "./journal-access.js";
import { holdBackend } from "./state-backend.js";
import { MetricCounts } from "../edges/node/metric-counts.js";
import type { MetricSources } from "../edges/node/metrics.js";
import { createOperatorLog, type OperatorLog } from "../kernel/operator-log.js";
import type { AttemptObserver } from "../webhooks/index.js";
import { attemptLine } from "../webhooks/delivery-log.js";
import { routes } from "../../generated/routes.js";
import { readinessOf, type Readiness } from "../operations/control/probes.js";
import { createStopper, type DrainOptions } from "./drain.js";

export type { Readiness } from "../operations/control/probes.js";
export type { DrainOptions, DrainStep } from "./drain.js";

export { DEMO_KEY, DEMO_KEYS, type KeySpec } from "../keys/demo-keys.js";
export type { Dataset, OrganizationSampleIds } from "../data/dataset.js";
export type { SandboxView } from "../operations/control/sandboxes.js";
export type { Fault, FaultInput } from "../worlds/faults.js";
export { DataFileError, type DataFile } from "../data/data-file.js";
export { SandboxError, type MockSandbox } from "./assemble.js";
export { MockOptionError } from "../kernel/option-error.js";
export type { PipelineSettingsInput } from "./options.js";
export { originProblem, type StartMockOptions } from "./start-options.js";
export { KeysFileError } from "../keys/load-keys.js";
export type { PartialChange, SkippedChange } from "../state/index.js";
// What startMock's `webhooks` rejects with, and what its resend answers.
export { EndpointError, ResendError, TriggerError, WebhookRefusal, type BulkResendResult, type ResendFilter, type ResendOptions, type ResendResult } from "../webhooks/index.js";
export { VerificationError, type JournalAccess, type QueryValue, type RecordedRequest, type RequestFilter, type Times, type VerifyOptions, type PactFile, type PactOptions } from "./journal-access.js";

/** A key as startMock reports it (demo keys first, then keys given in options): as the mock resolved it, its permissions listed. */
export type MockKeyInfo = Omit<ApiKey, "permissions" | "world"> & { organizationName: string; permissions: string[]; demo: boolean };

/** The mock; its requests() and verify() are the demo keys' world's journal (a sandbox has its own). */
export interface RunningMock extends JournalAccess, StateReport {
  /** Base URL without a trailing slash, e.g. http://127.0.0.1:4010. */
  url: string;
  port: number;
  host: string;
  docsUrl: string;
  /** Whether the docs site is built where the mock serves it from (in a clone: after npm run docs). */
  docsBuilt: boolean;
  keys: MockKeyInfo[];
  /** Ids a test needs, one entry per organisation in the dataset's order. */
  ids: OrganizationSampleIds[];
  dataset: Dataset;
  /** Serve requests under `prefix` (e.g. "/_extra/") with `handler`, before the API (the control API under /_mock/ is part of the API). */
  mount(prefix: string, handler: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>): void;
  /** Milliseconds from startMock's call to listening. */
  startupMs: number;
  /** The webhook engine: endpoints, Test action, delivery log, idle(), close() with its report. */
  webhooks: WebhookEngine;
  /** Fires a webhook event in-process (default organisation 1), as the control API does. */
  trigger(type: string, options?: TriggerOptions): Promise<TriggerResult>;
  /**
   * Creates a sandbox through the control API's own operation (POST /_mock/sandboxes): its id and
   * keys, one per demo key; with `data` (a data file's content) it starts from that dataset instead of
   * the mock's start. Rejects with a SandboxError (for example past the limit, or a bad data file).
   */
  createSandbox(options?: { label?: string; data?: DataFile }): Promise<MockSandbox>;
  close(): Promise<void>;
  /**
   * What GET /_mock/ready answers: ready once the dataset is built and the state store was reached
   * since the start, not once it starts to stop; whether the store answers now.
   */
  readiness(): Readiness;
  /**
   * Stops as a rolling restart needs (drain.ts): GET /_mock/ready answers 503 at once, the mock keeps
   * serving for `periodMs`, then accepts no more connections, finishes the requests in flight,
   * closes kept-alive connections and closes (close(): the state hands back what it holds).
   * `onStep` is told of each step.
   */
  drain(options?: DrainOptions): Promise<void>;
  /** Where lifecycle events go (ready, draining, stopped), in the format of `logFormat`: `mock.log.lifecycle("stopped", "hr-mock: stopped.")`. */
  log: OperatorLog;
}

/** GET /_mock/metrics: answered by the node:http edge (the control document's getMetrics, x-edge). */
const METRICS_PATH = routes.find((route) => route.operationId === "getMetrics")!.path;

/** What serve() is given besides the options: the lines, the counts the metrics show, the observer of webhook attempts. */
interface Seeing {
  log: OperatorLog;
  onError: (line: string) => void;
  counts: MetricCounts;
  observe: AttemptObserver;
}

/** Counts every webhook attempt; with `json`, prints it as a delivery event (the text lines go through the engine's `log`). */
function attemptObserver(counts: MetricCounts, log: OperatorLog, json: boolean): AttemptObserver {
  return (entry, record) => {
    counts.attempt(entry.state);
    if (!json) return;
    log.event("info", "delivery", attemptLine(entry, record), {
      type: entry.type,
      eventId: entry.eventId,
      duplicate: entry.duplicate,
      endpointId: entry.endpointId,
      url: entry.url,
      attempt: record.attempt,
      outcome: record.outcome,
      state: entry.state,
      status: record.status,
      error: record.error,
      ms: record.durationMs,
      nextAttemptAt: record.nextRetryAt,
    });
  };
}

export async function startMock(options: StartMockOptions = {}): Promise<RunningMock> {
  const started = performance.now();
  const settings = checkOptions(options);
  const spec = await loadSpec();
  // The mock's lines: `log` takes the request and delivery lines (true: standard output), `onError` the others (default standard error).
  const out = typeof settings.log === "function" ? settings.log : (line: string) => void process.stdout.write(`${line}\n`);
  const log = createOperatorLog(settings.logFormat, { out, err: settings.onError ?? ((line) => void process.stderr.write(`${line}\n`)) });
  const onError = settings.onError ?? ((line: string) => log.event("error", "error", line));
  const counts = new MetricCounts();
  const json = settings.logFormat === "json";
  // In JSON the delivery lines are the observer's; the text lines go as they always went.
  const textLines = json || !settings.log ? undefined : out;
  // The one choice of the state behind the mock: memory, a --state directory, or Redis (state/open.ts).
  const backend = await openBackend({ ...settings, password: settings.statePassword, log: textLines, lifecycle: log.lifecycle, onError });
  // Delivery lines are asked by the engine's `log` (--webhook-url or --log), or by the request log where the store's pump delivers.
  const deliveryLines = backend.pumpsDeliveries ? Boolean(settings.log) : settings.webhooks?.log !== undefined;
  const observe = attemptObserver(counts, log, json && deliveryLines);
  try {
    return await serve(settings, spec, backend, started, { log, onError, counts, observe });
  } catch (error) {
    await backend.close();
    throw error;
  }
}

async function serve(settings: Settings, spec: LoadedSpec, backend: StateBackend, started: number, { log: operatorLog, onError, counts, observe }: Seeing): Promise<RunningMock> {
  // The state's today when the caller gave none, so a state made yesterday opens today.
  const today = settings.today ?? backend.fingerprint?.today;
  // The dataset as generated stays as it is: sandboxes start from it; the demo keys' default world
  // reads and changes its own fork (copy on write), onto which a kept state's changes replay.
  const data = await dataFileOption(settings.data);
  const start = sharedStartDataset({ seed: settings.seed, scale: settings.scale, today, data });
  const dataset = forkDataset(start);
  // A --state directory records a digest of the data file the dataset was built from.
  const fingerprint = { seed: start.seed, scale: start.scale, today: start.today, ...(data && { data: createHash("sha256").update(JSON.stringify(data.content)).digest("hex") }) };
  await backend.restore(dataset, fingerprint);

  const extraKeys = typeof settings.keys === "string" ? await readKeysFile(settings.keys) : parseKeySpecs(settings.keys ?? []);

  let webhooks: WebhookCore;
  try {
    // In JSON, the delivery lines are the observer's (attemptObserver); the engine prints text lines only.
    const webhookOptions = settings.logFormat === "json" && settings.webhooks?.log ? { ...settings.webhooks, log: undefined } : settings.webhooks;
    webhooks = mockWebhookCore(dataset.seed, webhookOptions, onError, observe);
  } catch (error) {
    throw error instanceof WebhookOptionError ? new MockOptionError(error.message) : error;
  }
  const mock = assembleMock({
    spec,
    settings,
    dataset: start,
    defaultDataset: dataset,
    extraKeys,
    state: backend,
    webhooks,
    datasetFrom: (content) => {
      try {
        return { ok: true, dataset: createDataset({ seed: start.seed, scale: start.scale, today: start.today, data: dataFileFromObject(content, "data") }) };
      } catch (error) {
        if (error instanceof DataFileError) return { ok: false, lines: error.lines };
        throw error;
      }
    },
    onError,
    authThrottle: settings.authThrottle,
    probes: { uptimeSeconds: () => process.uptime(), readiness: () => readiness() },
  });
  const service = mock.worlds.default.webhooks;
  if (!service) throw new Error("hr-mock: the default world was made without its webhook service");
  const engine = new WebhookEngine(dataset, { core: webhooks, service });
  await backend.start(mock.worlds);
  const sources: MetricSources = { counts, held: () => mock.worlds.held(), store: () => backend.metrics() };
  const http = createMockHttpServer({
    dispatch: mock.dispatch,
    failureStatus: settings.failureStatus,
    latencyMs: settings.latencyMs,
    log: settings.log ? operatorLog : undefined,
    operations: spec.byOperationId,
    // The Prometheus client loads with the first scrape, never before.
    metrics: { counts, path: METRICS_PATH, render: async () => (await import("../edges/node/metrics.js")).renderMetrics(sources) },
    onError,
    docsDir: settings.docsDir ?? DEFAULT_DOCS_DIR,
    maxBodyBytes: bodyLimit(spec),
    controlPrefix: CONTROL_PREFIX,
    controlOrigins: settings.corsOrigins,
    connectionLimits: { ...defaultConnectionLimits(settings.latencyMs), ...settings.connectionLimits },
  });
  const { port, url } = await http.listen(settings.port, settings.host);
  const demoKeys = new Set(DEMO_KEYS.map((k) => k.key));
  // With nothing restored, the sample ids are the start dataset's (which no trigger changes), taken
  // when first asked: organisation 2 is not built before the first answer.
  let startIds = dataset.version === 0 ? undefined : attempt(() => sampleIds(dataset));
  let closing: Promise<void> | undefined;
  // Attempts in flight finish first (bounded by the response timeout), then the server stops, then
  // the state hands back what it holds and lets go of its store.
  const close = () => {
    stopper.markStopping();
    return (closing ??= Promise.all([engine.close(), mock.worlds.close()]).then(() => http.close()).finally(() => backend.close()));
  };
  const stopper = createStopper(http, close);
  const readiness = (): Readiness => readinessOf({ datasetBuilt: true, stopping: stopper.stopping, store: { ...backend.store, ...backend.readiness() } });
  const running: RunningMock = {
    url,
    port,
    host: settings.host,
    docsUrl: `${url}/docs/`,
    docsBuilt: docsBuilt(settings.docsDir ?? DEFAULT_DOCS_DIR),
    keys: [...mock.keys.values()].map((k) => ({
      key: k.key,
      organisation: k.organisation,
      organizationId: k.organizationId,
      organizationName: organizationNameAt(dataset, k.organisation)!,
      permissions: [...k.permissions],
      label: k.label,
      demo: demoKeys.has(k.key),
    })),
    // Those of the start, so triggers do not move them; a data file's dataset may lack what a sample
    // needs (an inactive leave type), and then asking for them throws that reason.
    get ids() {
      startIds ??= attempt(() => sampleIds(start));
      if (!startIds.ok) throw startIds.error;
      return startIds.value;
    },
    dataset,
    mount: (prefix, handler) => http.mount(prefix, handler),
    startupMs: performance.now() - started,
    webhooks: engine,
    trigger: (type, triggerOptions) => engine.trigger(type, triggerOptions),
    createSandbox: (sandboxOptions) => mock.createSandbox(sandboxOptions),
    requests: mock.journal.requests,
    verify: mock.journal.verify,
    pact: mock.journal.pact,
    readiness,
    close,
    drain: (drainOptions) => stopper.drain(drainOptions),
    log: operatorLog,
    ...backend.report(),
  };
  holdBackend(running, backend);
  return running;
}

/** What `make` returns, or what it threw (kept to throw when asked). */
function attempt<T>(make: () => T): { ok: true; value: T } | { ok: false; error: unknown } {
  try {
    return { ok: true, value: make() };
  } catch (error) {
    return { ok: false, error };
  }
}

/** The data option read and checked against the format (DataFileError otherwise); the YAML parser is loaded for a file only. */
async function dataFileOption(data: Settings["data"]): Promise<LoadedDataFile | undefined> {
  if (data === undefined) return undefined;
  if (typeof data === "string") return (await import("../data/read-data-file.js")).readDataFile(data);
  if (typeof data === "object" && data !== null) return dataFileFromObject(data);
  throw new DataFileError(["data must be the path of a data file or its content as an object"]);
}
