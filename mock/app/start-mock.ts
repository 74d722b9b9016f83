// The mock, programmatically: `startMock({ port: 0 })` checks its options, builds the dataset (and
// restores a --state directory), assembles the mock (assemble.ts, the composition root), puts
// node:http in front of it and serves until `close()`. `hr-mock serve` is this plus a banner.
import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { forkDataset } from "../data/copy-on-write.js";
import { sharedStartDataset } from "../data/start-datasets.js";
import { createDataset, normalizeToday, sampleIds, type Dataset, type OrganizationSampleIds } from "../data/dataset.js";
import { DataFileError, type DataFile, type LoadedDataFile } from "../data/data-file.js";
import { dataFileFromObject, readDataFile } from "../data/read-data-file.js";
import { CONTROL_PREFIX } from "../kernel/control-paths.js";
import { bodyLimit, DEFAULT_SPEC_PATH, loadSpec, type LoadedSpec } from "../kernel/spec.js";
import { DEMO_KEYS, MANAGE_WEBHOOKS } from "../keys/demo-keys.js";
import { parseKeySpecs, readKeysFile } from "../keys/load-keys.js";
import { attachWebhooks, WebhookOptionError, type TriggerOptions, type TriggerResult, type WebhookEngine } from "../webhooks/index.js";
import { DEFAULT_WORLD, openStateDirectory, restoreWorld, skippedLine, todayOfState, worldPersistence, type SkippedChange, type StateStore } from "../state/index.js";
import { isRedisUrl } from "../state/redis/address.js";
import type { RedisState } from "../state/redis/index.js";
import { mockLimits } from "../../generated/control-facts.js";
import { DEFAULT_DOCS_DIR, docsBuilt } from "../edges/node/docs.js";
import { defaultConnectionLimits } from "../edges/node/connections.js";
import { createMockHttpServer } from "../edges/node/http.js";
import { assembleMock, type MockSandbox } from "./assemble.js";
import { MockOptionError } from "../kernel/option-error.js";
import { checkOptions, type Settings, type StartMockOptions } from "./start-options.js";
import { wireState } from "./persistence.js";
import type { JournalAccess } from "./journal-access.js";
import { readinessOf, type Readiness } from "../operations/control/probes.js";
import { createStopper, type DrainOptions } from "./drain.js";

export type { Readiness } from "../operations/control/probes.js";
export type { DrainOptions, DrainStep } from "./drain.js";

export { DEMO_KEY, DEMO_KEYS, type KeySpec } from "../keys/demo-keys.js";
export type { Dataset, OrganizationSampleIds } from "../data/dataset.js";
export type { SandboxView } from "../operations/control/sandboxes.js";
export type { Fault, FaultInput } from "../worlds/faults.js";
export { DataFileError } from "../data/data-file.js";
export type { DataFile } from "../data/data-file.js";
export { SandboxError, type MockSandbox } from "./assemble.js";
export { MockOptionError } from "../kernel/option-error.js";
export type { PipelineSettingsInput } from "./options.js";
export { originProblem, type StartMockOptions } from "./start-options.js";
export { KeysFileError } from "../keys/load-keys.js";
export type { PartialChange, SkippedChange } from "../state/index.js";
// What startMock's `webhooks` rejects with, and what its resend answers.
export { EndpointError, ResendError, TriggerError, WebhookRefusal, type BulkResendResult, type ResendFilter, type ResendOptions, type ResendResult } from "../webhooks/index.js";
export { VerificationError, type JournalAccess, type QueryValue, type RecordedRequest, type RequestFilter, type Times, type VerifyOptions } from "./journal-access.js";

/** A key as startMock reports it (demo keys first, then keys given in options). */
export interface MockKeyInfo {
  key: string;
  /** 1 or 2: the organisation's position in the dataset. */
  organisation: number;
  organizationId: string;
  organizationName: string;
  permissions: string[];
  label: string;
  demo: boolean;
}

/** The mock; its requests() and verify() are the demo keys' world's journal (a sandbox has its own). */
export interface RunningMock extends JournalAccess {
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
   * closes kept-alive connections and closes (close()). `onStep` is told of each step.
   */
  drain(options?: DrainOptions): Promise<void>;
  /**
   * With the `state` option: the directory, what was restored from it at start, and the changes
   * skipped because a crash left their journal line unfinished (each also said through onError).
   */
  state?: { dir: string; restored: { changes: number; endpoints: number; waiting: number }; skipped: SkippedChange[] };
  /** With `state: "redis://…"`: the store every replica shares (its password masked), and whether it is a Redis Cluster. */
  shared?: { store: string; cluster: boolean };
}

export async function startMock(options: StartMockOptions = {}): Promise<RunningMock> {
  const started = performance.now();
  const settings = checkOptions(options);
  const spec = await loadSpec(options.specPath ?? DEFAULT_SPEC_PATH);
  const onError = options.onError ?? ((line: string) => process.stderr.write(`${line}\n`));
  const shared = settings.state !== undefined && isRedisUrl(settings.state) ? await openShared(settings, onError, options.log) : undefined;
  const store: StateStore | undefined = settings.state === undefined || shared ? undefined : openStateDirectory(settings.state);
  try {
    return await serve(options, settings, spec, { store, shared }, started);
  } catch (error) {
    store?.release();
    await shared?.close();
    throw error;
  }
}

/** The state kept elsewhere than in memory: a directory (one mock), or Redis (any number of replicas). */
interface KeptState {
  store: StateStore | undefined;
  shared: RedisState | undefined;
}

/** --state redis://…: its module loaded now, and only now (start-up and --help never pay for it). */
async function openShared(settings: Settings, onError: (line: string) => void, log: StartMockOptions["log"]): Promise<RedisState> {
  const { openRedisState } = await import("../state/redis/index.js");
  return openRedisState(settings.state!, {
    rateLimit: settings.rateLimit,
    journalCapacity: settings.journalSize ?? mockLimits.journalPerWorld,
    maxFaults: mockLimits.maxFaultsPerWorld,
    log: log === true ? (line) => process.stdout.write(`${line}\n`) : typeof log === "function" ? log : undefined,
    onError,
  });
}

async function serve(options: StartMockOptions, settings: Settings, spec: LoadedSpec, { store, shared }: KeptState, started: number): Promise<RunningMock> {
  const given = options.today === undefined ? undefined : normalizeToday(options.today);
  const today = store ? todayOfState(store, given) : (given ?? shared?.fingerprint?.today);
  // The dataset as generated stays as it is: sandboxes start from it; the demo keys' default world
  // reads and changes its own fork (copy on write), onto which a state directory's changes replay.
  const data = dataFileOption(options.data);
  const start = sharedStartDataset({ seed: settings.seed, scale: settings.scale, today, data });
  const datasetBuilt = true;
  const dataset = forkDataset(start);
  const versionAtStart = dataset.version;
  const fingerprint = { seed: start.seed, scale: start.scale, today: start.today, ...(data && { data: contentHash(data.content) }) };
  const restored = store ? restoreWorld(store, DEFAULT_WORLD, dataset, fingerprint) : undefined;
  await shared?.claim(fingerprint);

  const knownPermissions = [...new Set([...spec.operations.map((op) => op.permission), MANAGE_WEBHOOKS])];
  const extraKeys = typeof options.keys === "string" ? await readKeysFile(options.keys, knownPermissions) : parseKeySpecs(options.keys ?? [], knownPermissions);
  const writeLine = (line: string) => process.stdout.write(`${line}\n`);
  const log = options.log === true ? writeLine : typeof options.log === "function" ? options.log : undefined;
  const onError = options.onError ?? ((line: string) => process.stderr.write(`${line}\n`));

  let webhooks: ReturnType<typeof attachWebhooks>;
  try {
    webhooks = attachWebhooks({
      dataset,
      options: options.webhooks,
      onError,
      persistence: store && worldPersistence(store, DEFAULT_WORLD, () => webhooks.engine.local!.snapshot(), onError),
      shared: shared && ((engineSettings) => shared.webhooks(DEFAULT_WORLD, engineSettings)),
    });
  } catch (error) {
    throw error instanceof WebhookOptionError ? new MockOptionError(error.message) : error;
  }
  const saved = restored?.webhooks;
  if (saved) webhooks.engine.local?.restore(saved);
  const engine = webhooks.engine;
  const state = store && wireState(store, engine, onError);
  const mock = assembleMock({
    spec,
    settings,
    dataset: start,
    defaultDataset: dataset,
    extraKeys,
    webhooks: { default: engine.service, sandbox: shared ? (_ds, _ordinal, worldId) => shared.webhooks(worldId, engine.settings) : state ? state.sandboxService : (ds, ordinal) => engine.serviceFor(ds, ordinal) },
    sandboxLifecycle: state?.lifecycle,
    shared: shared?.shared,
    datasetFrom: (content) => {
      try {
        return { ok: true, dataset: createDataset({ seed: start.seed, scale: start.scale, today: start.today, data: dataFileFromObject(content, "data") }) };
      } catch (error) {
        if (error instanceof DataFileError) return { ok: false, lines: error.lines };
        throw error;
      }
    },
    onError,
    authThrottle: options.authThrottle,
    probes: { uptimeSeconds: () => process.uptime(), readiness: () => readiness() },
  });
  const skipped = [...(restored?.skipped ? [restored.skipped] : []), ...(state?.restoreSandboxes(mock.worlds) ?? [])];
  await shared?.start(mock.worlds);
  // Said at every start until the next change of that world is written (which cuts the line off).
  for (const change of skipped) onError(skippedLine(change));
  const http = createMockHttpServer({
    dispatch: mock.dispatch,
    failureStatus: settings.failureStatus,
    latencyMs: settings.latencyMs,
    log,
    onError,
    docsDir: options.docsDir ?? DEFAULT_DOCS_DIR,
    maxBodyBytes: bodyLimit(spec),
    controlPrefix: CONTROL_PREFIX,
    controlOrigins: settings.corsOrigins,
    connectionLimits: { ...defaultConnectionLimits(settings.latencyMs), ...options.connectionLimits },
  });
  const port = await http.listen(settings.port, settings.host).catch((error: NodeJS.ErrnoException) => {
    const why = error.code === "EADDRINUSE" ? "the port is in use" : error.message;
    throw new MockOptionError(`cannot listen on ${settings.host}:${settings.port}: ${why}`);
  });
  const hostInUrl = settings.host.includes(":") ? `[${settings.host}]` : settings.host;
  const url = `http://${hostInUrl}:${port}`;
  const demoKeys = new Set(DEMO_KEYS.map((k) => k.key));
  const startIds = attempt(() => sampleIds(dataset));
  let closing: Promise<void> | undefined;
  // Attempts in flight finish first (bounded by the response timeout), then the server stops.
  const close = () => {
    stopper.markStopping();
    return (closing ??= Promise.all([engine.close(), mock.worlds.close()]).then(() => http.close()).finally(async () => (store?.release(), await shared?.close())));
  };
  const stopper = createStopper(http, close);
  const storeKind = shared ? "redis" : store ? "directory" : "memory";
  const readiness = (): Readiness =>
    readinessOf({
      datasetBuilt,
      stopping: stopper.stopping,
      store: shared ? { kind: storeKind, address: shared.shown, ...shared.readiness() } : { kind: storeKind, reached: true, reachable: true },
    });
  return {
    url,
    port,
    host: settings.host,
    docsUrl: `${url}/docs/`,
    docsBuilt: docsBuilt(options.docsDir ?? DEFAULT_DOCS_DIR),
    keys: [...mock.keys.values()].map((k) => ({
      key: k.key,
      organisation: k.organisation,
      organizationId: k.organizationId,
      organizationName: dataset.organizations[k.organisation - 1].name,
      permissions: [...k.permissions],
      label: k.label,
      demo: demoKeys.has(k.key),
    })),
    // Taken at start, so triggers do not move them; a data file's dataset may lack what a sample
    // needs (an inactive leave type), and then asking for them throws that reason.
    get ids() {
      if (!startIds.ok) throw startIds.error;
      return startIds.value;
    },
    dataset,
    mount: (prefix, handler) => http.mount(prefix, handler),
    startupMs: performance.now() - started,
    webhooks: engine,
    trigger: webhooks.trigger,
    createSandbox: (sandboxOptions) => mock.createSandbox(sandboxOptions),
    readiness,
    requests: mock.journal.requests,
    verify: mock.journal.verify,
    close,
    drain: (drainOptions) => stopper.drain(drainOptions),
    ...(shared && { shared: { store: shared.shown, cluster: shared.cluster } }),
    ...(store && {
      state: {
        dir: store.dir,
        restored: { changes: dataset.version - versionAtStart, endpoints: saved?.endpoints.length ?? 0, waiting: saved?.waiting.length ?? 0 },
        skipped,
      },
    }),
  };
}

/** What `make` returns, or what it threw (kept to throw when asked). */
function attempt<T>(make: () => T): { ok: true; value: T } | { ok: false; error: unknown } {
  try {
    return { ok: true, value: make() };
  } catch (error) {
    return { ok: false, error };
  }
}

/** What a --state directory records of the data file a dataset was built from. */
function contentHash(content: unknown): string {
  return createHash("sha256").update(JSON.stringify(content)).digest("hex");
}

/** The data option read and checked against the format (DataFileError otherwise). */
function dataFileOption(data: StartMockOptions["data"]): LoadedDataFile | undefined {
  if (data === undefined) return undefined;
  if (typeof data === "string") return readDataFile(data);
  if (typeof data === "object" && data !== null) return dataFileFromObject(data);
  throw new DataFileError(["data must be the path of a data file or its content as an object"]);
}
