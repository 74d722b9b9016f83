// The mock, programmatically: `startMock({ port: 0 })` builds the seeded dataset, reads the spec
// through Prism once, and serves until `close()`.
import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ApiKey } from "../worlds/world.js";
import type { SandboxView } from "../operations/control/sandboxes.js";
import { forkDataset } from "../data/copy-on-write.js";
import { createDataset, normalizeToday, sampleIds, type Dataset, type OrganizationSampleIds } from "../data/dataset.js";
import { DEMO_KEY, DEMO_KEYS, MANAGE_WEBHOOKS, type KeySpec } from "../keys/demo-keys.js";
import { DataFileError, type DataFile, type LoadedDataFile } from "../data/data-file.js";
import { dataFileFromObject, readDataFile } from "../data/read-data-file.js";
import { KeysFileError, parseKeySpecs, readKeysFile } from "../keys/load-keys.js";
import { DEFAULT_DOCS_DIR } from "../edges/node/docs.js";
import { createMockHttpServer } from "../edges/node/http.js";
import { AUTH_THROTTLE } from "../worlds/auth-throttle.js";
import { defaultConnectionLimits, type ConnectionLimits } from "../edges/node/connections.js";
import { DEFAULT_HOST, DEFAULT_PORT } from "../kernel/limits.js";
import { checkPipelineOptions, MockOptionError, type PipelineSettings, type PipelineSettingsInput } from "./options.js";
import { createPipeline } from "./assemble.js";
import { bodyLimit, DEFAULT_SPEC_PATH, loadSpec, type LoadedSpec } from "../kernel/spec.js";
import { DEFAULT_WORLD, detachable, openStateDirectory, replayWorld, restoreWorld, todayOfState, worldPersistence, type StateStore } from "../state/index.js";
import type { WebhookService } from "../webhooks/service.js";
import { attachWebhooks, CONTROL_PREFIX, WebhookOptionError, type MockWebhookOptions, type TriggerOptions, type TriggerResult, type WebhookEngine } from "../webhooks/index.js";

export { DEMO_KEY, DEMO_KEYS, type KeySpec } from "../keys/demo-keys.js";
export type { Dataset, OrganizationSampleIds } from "../data/dataset.js";
export type { SandboxView } from "../operations/control/sandboxes.js";
export type { Fault, FaultInput } from "../worlds/faults.js";
export { DataFileError } from "../data/data-file.js";
export type { DataFile } from "../data/data-file.js";

export interface StartMockOptions extends PipelineSettingsInput {
  /**
   * The dataset's records from a data file (generated/data-file.schema.json): its path (YAML or
   * JSON) or its content as an object. What it leaves out is generated from `seed`; a file with a
   * problem throws DataFileError, one line per problem, and nothing starts.
   */
  data?: string | DataFile;
  /** Default 4010; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** More API keys: their definitions, or the path of a JSON keys file. */
  keys?: KeySpec[] | string;
  /** true: one line per request on stdout; a function receives the lines instead. Off by default. */
  log?: boolean | ((line: string) => void);
  /** Where internal errors are reported (one line each); default stderr. */
  onError?: (line: string) => void;
  /** The bundled OpenAPI description; default generated/openapi.json of this package. */
  specPath?: string;
  /** The built docs site served under /docs; default site/ of this package. */
  docsDir?: string;
  /** The webhook engine: time scale, strict URLs, duplicates, shuffle (see mock/webhooks/settings.ts). */
  webhooks?: MockWebhookOptions;
  /**
   * Origins (`http://localhost:5173`) whose pages may call the control API under /_mock/. None by
   * default: the read API answers pages of any origin, the control API none.
   */
  corsOrigins?: string[];
  /**
   * Connection bounds, each in milliseconds or a count (see mock/server/connections.ts); the
   * defaults keep idle and unread connections from locking clients out.
   */
  connectionLimits?: Partial<ConnectionLimits>;
  /**
   * Past `budget` failed authentications from one address in `windowMs`, its 401s are held
   * `holdMs` (default 20 in 10 s, held 1 s), which slows key guessing; "off" for suites that
   * send many wrong keys on purpose. Valid keys are never held.
   */
  authThrottle?: Partial<typeof AUTH_THROTTLE> | "off";
  /**
   * A directory where the mock keeps its state and restores it from at start: data changes,
   * webhook endpoints with their secrets, the delivery log and deliveries waiting for a retry.
   * Created 0700 when missing; a state made from other seed, scale or today is refused.
   */
  state?: string;
}

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

export interface RunningMock {
  /** Base URL without a trailing slash, e.g. http://127.0.0.1:4010. */
  url: string;
  port: number;
  host: string;
  docsUrl: string;
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
  /** With the `state` option: the directory, and what was restored from it at start. */
  state?: { dir: string; restored: { changes: number; endpoints: number; waiting: number } };
}

/** A sandbox as startMock's createSandbox answers it: the control API's view, its keys by demo key, and its own control calls. */
export interface MockSandbox extends SandboxView {
  /** The sandbox's key standing for each demo key: `sandbox.key.org1Full`. */
  key: { [K in keyof typeof DEMO_KEY]: string };
  /** Back to the start state (POST /_mock/sandboxes/{id}/reset). */
  reset(): Promise<void>;
  /** Deletes it (DELETE /_mock/sandboxes/{id}). */
  delete(): Promise<void>;
}

/** A control API refusal of startMock's sandbox calls, with the envelope's status and message. */
export class SandboxError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "SandboxError";
  }
}

export { MockOptionError };

// Parsing the spec is the slow part of start-up (about 0.1 s); mocks in one process share it.
const specs = new Map<string, Promise<LoadedSpec>>();
function sharedSpec(path: string): Promise<LoadedSpec> {
  let loaded = specs.get(path);
  if (!loaded) {
    loaded = loadSpec(path);
    loaded.catch(() => specs.delete(path));
    specs.set(path, loaded);
  }
  return loaded;
}

export async function startMock(options: StartMockOptions = {}): Promise<RunningMock> {
  const started = performance.now();
  const settings = checkOptions(options);
  const spec = await sharedSpec(options.specPath ?? DEFAULT_SPEC_PATH);
  if (options.state !== undefined && (typeof options.state !== "string" || options.state.trim() === "")) throw new MockOptionError("state must be the path of a directory");
  const store: StateStore | undefined = options.state === undefined ? undefined : openStateDirectory(options.state);
  try {
    return await serve(options, settings, spec, store, started);
  } catch (error) {
    store?.release();
    throw error;
  }
}

async function serve(options: StartMockOptions, settings: Settings, spec: LoadedSpec, store: StateStore | undefined, started: number): Promise<RunningMock> {
  const today = store ? todayOfState(store, options.today === undefined ? undefined : normalizeToday(options.today)) : options.today;
  // The dataset as generated stays as it is: sandboxes start from it; the demo keys' default world
  // reads and changes its own fork (copy on write), onto which a state directory's changes replay.
  const data = dataFileOption(options.data);
  const start = createDataset({ seed: settings.seed, scale: settings.scale, today, data });
  const dataset = forkDataset(start);
  const versionAtStart = dataset.version;
  const saved = store ? restoreWorld(store, DEFAULT_WORLD, dataset, { seed: start.seed, scale: start.scale, today: start.today, ...(data && { data: contentHash(data.content) }) }) : undefined;

  const knownPermissions = [...new Set([...spec.operations.map((op) => op.permission), MANAGE_WEBHOOKS])];
  const extraKeys =
    typeof options.keys === "string"
      ? await readKeysFile(options.keys, knownPermissions)
      : parseKeySpecs(options.keys ?? [], knownPermissions);
  const writeLine = (line: string) => process.stdout.write(`${line}\n`);
  const log = options.log === true ? writeLine : typeof options.log === "function" ? options.log : undefined;
  const onError = options.onError ?? ((line: string) => process.stderr.write(`${line}\n`));

  let webhooks: ReturnType<typeof attachWebhooks>;
  try {
    webhooks = attachWebhooks({
      dataset,
      options: options.webhooks,
      onError,
      persistence: store && worldPersistence(store, DEFAULT_WORLD, () => webhooks.engine.service.snapshot(), onError),
    });
  } catch (error) {
    throw error instanceof WebhookOptionError ? new MockOptionError(error.message) : error;
  }
  if (saved) webhooks.engine.service.restore(saved);
  const engine = webhooks.engine;
  // Each sandbox's service writes to its own world of the state directory, through a sink that a
  // reset or delete cuts off (the retired service must not write the old state back).
  const sinks = new Map<string, () => void>();
  const sandboxService = (ds: Dataset, ordinal: number, worldId: string): WebhookService => {
    if (!store) return engine.serviceFor(ds, ordinal);
    sinks.get(worldId)?.();
    let service: WebhookService | undefined;
    const { sink, detach } = detachable(worldPersistence(store, worldId, () => service!.snapshot(), onError));
    sinks.set(worldId, detach);
    service = engine.serviceFor(ds, ordinal, sink);
    return service;
  };
  const { dispatch, keys: registry, worlds } = createPipeline({
    spec,
    dataset: start,
    defaultDataset: dataset,
    extraKeys,
    rateLimit: settings.rateLimit,
    failRate: settings.failRate,
    seed: settings.seed,
    webhooks: { default: engine.service, sandbox: sandboxService },
    sandboxLifecycle: store && {
      created: (_world, definition) => store.saveSandbox(definition),
      reset: (world) => {
        sinks.get(world.id)?.();
        store.clearWorld(world.id);
      },
      deleted: (world) => {
        sinks.get(world.id)?.();
        sinks.delete(world.id);
        store.removeWorld(world.id);
      },
    },
    datasetFrom: (content) => {
      try {
        return { ok: true, dataset: createDataset({ seed: start.seed, scale: start.scale, today: start.today, data: dataFileFromObject(content, "data") }) };
      } catch (error) {
        if (error instanceof DataFileError) return { ok: false, lines: error.lines };
        throw error;
      }
    },
    onInternalError: onError,
    authThrottle: options.authThrottle,
  });
  // Sandboxes kept in the state directory come back with their ids, keys, data changes and webhooks.
  for (const definition of store?.sandboxes() ?? []) {
    const world = worlds.restoreSandbox(definition);
    const kept = replayWorld(store!, definition.id, world.dataset);
    if (kept) world.webhooks?.restore(kept);
  }
  const http = createMockHttpServer({
    dispatch,
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

  // In-process control calls go through the same dispatcher as HTTP ones, with the default world's webhooks key.
  const control = async (method: string, url: string, body?: unknown): Promise<unknown> => {
    const headers = { authorization: `Bearer ${DEMO_KEY.org1WebhooksAdmin}`, "content-type": "application/json" };
    const reply = await dispatch({ method, url, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const envelope = JSON.parse(String(reply.body)) as { message: string; data: unknown };
    if (reply.status >= 400) throw new SandboxError(reply.status, envelope.message);
    return envelope.data;
  };
  const createSandbox = async (sandboxOptions: { label?: string; data?: DataFile } = {}): Promise<MockSandbox> => {
    const view = (await control("POST", "/_mock/sandboxes", sandboxOptions)) as SandboxView;
    const key = Object.fromEntries(Object.entries(DEMO_KEY).map(([name, demo]) => [name, view.keys.find((k) => k.demoKey === demo)?.key])) as MockSandbox["key"];
    const path = `/_mock/sandboxes/${view.id}`;
    return { ...view, key, reset: async () => void (await control("POST", `${path}/reset`)), delete: async () => void (await control("DELETE", path)) };
  };

  const startIds = attempt(() => sampleIds(dataset));
  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    host: settings.host,
    docsUrl: `${url}/docs/`,
    keys: [...registry.values()].map((k: ApiKey) => ({
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
    webhooks: webhooks.engine,
    trigger: webhooks.trigger,
    // Attempts in flight finish first (bounded by the response timeout), then the server stops.
    createSandbox,
    close: () => (closing ??= Promise.all([engine.close(), worlds.close()]).then(() => http.close()).finally(() => store?.release())),
    ...(store && {
      state: {
        dir: store.dir,
        restored: { changes: dataset.version - versionAtStart, endpoints: saved?.endpoints.length ?? 0, waiting: saved?.waiting.length ?? 0 },
      },
    }),
  };
}

/** The data option read and checked against the format (DataFileError otherwise). */
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

function dataFileOption(data: StartMockOptions["data"]): LoadedDataFile | undefined {
  if (data === undefined) return undefined;
  if (typeof data === "string") return readDataFile(data);
  if (typeof data === "object" && data !== null) return dataFileFromObject(data);
  throw new DataFileError(["data must be the path of a data file or its content as an object"]);
}

/** The checked options: what the banner shows, plus where to listen. */
interface Settings extends PipelineSettings {
  port: number;
  host: string;
  corsOrigins: string[];
}

/** Every option checked up front, each mistake one sentence. */
function checkOptions(options: StartMockOptions): Settings {
  const { port = DEFAULT_PORT, host = DEFAULT_HOST, corsOrigins = [] } = options;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new MockOptionError(`port must be a whole number from 0 to 65535, got ${port}`);
  if (typeof host !== "string" || host === "") throw new MockOptionError("host must be a host name or address");
  const limits = defaultConnectionLimits(0);
  for (const [name, value] of Object.entries(options.connectionLimits ?? {})) {
    if (!(name in limits)) throw new MockOptionError(`connectionLimits.${name} is not a limit; the limits are ${Object.keys(limits).join(", ")}`);
    if (!(Number.isInteger(value) && (value as number) >= 1)) throw new MockOptionError(`connectionLimits.${name} must be a whole number of at least 1, got ${String(value)}`);
  }
  const throttle = options.authThrottle;
  if (throttle !== undefined && throttle !== "off") {
    if (typeof throttle !== "object" || throttle === null) throw new MockOptionError('authThrottle must be "off" or an object of budget, windowMs and holdMs');
    for (const [name, value] of Object.entries(throttle)) {
      if (!(name in AUTH_THROTTLE)) throw new MockOptionError(`authThrottle.${name} is not a setting; the settings are ${Object.keys(AUTH_THROTTLE).join(", ")}`);
      if (!(Number.isInteger(value) && (value as number) >= 0)) throw new MockOptionError(`authThrottle.${name} must be a whole number of at least 0, got ${String(value)}`);
    }
  }
  if (!Array.isArray(corsOrigins)) throw new MockOptionError("corsOrigins must be a list of origins such as http://localhost:5173");
  for (const origin of corsOrigins) {
    const problem = originProblem(origin);
    if (problem) throw new MockOptionError(`corsOrigins: ${problem}`);
  }
  return { port, host, corsOrigins, ...checkPipelineOptions(options) };
}

/** Why `origin` is not an origin as a browser sends it (scheme, host, optional port; nothing else). */
export function originProblem(origin: unknown): string | undefined {
  const shown = JSON.stringify(String(origin)).slice(0, 80);
  let url: URL;
  try {
    url = new URL(String(origin));
  } catch {
    return `${shown} is not an origin; write it as a browser sends it, e.g. http://localhost:5173`;
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.origin !== origin) {
    return `${shown} is not an origin; write scheme, host and port only, as a browser sends it, e.g. http://localhost:5173`;
  }
  return undefined;
}

export { KeysFileError };
