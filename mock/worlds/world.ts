// Worlds: a dataset with its own API keys, webhook service, rate-limit counters, response-cache
// space and scripted faults. The demo keys and --keys keys belong to the default world; each sandbox
// is a world of its own, forked from the start dataset (copy on write, mock/data/copy-on-write.ts).
// An API key names its world, so the gate resolves the world with the key, once, and every
// operation receives it: one request path for every world.
import { mockLimits } from "../../generated/control-facts.js";
import { createKeyRegistry, type ApiKeyOf } from "./api-keys.js";
import { forkDataset, resetDataset } from "../data/copy-on-write.js";
import type { Dataset } from "../data/dataset.js";
import type { KeySpec } from "../keys/demo-keys.js";
import type { WorldWebhooks } from "../webhooks/port.js";
import { ok, refuse, type Result } from "../kernel/results.js";
import type { Awaitable } from "../kernel/awaitable.js";
import { FaultScript } from "./faults.js";
import { RATE_LIMIT_WINDOW_MS } from "../kernel/limits.js";
import { createRateLimiter } from "./rate-limit.js";
import { MemoryWorldStore, type WorldStore } from "./world-store.js";
import { JournalBudget } from "./journal/budget.js";
import { Journal } from "./journal/journal.js";
import type { WorldJournal } from "./journal/port.js";

/** The default world's id (sandboxes have uuids). */
export const DEFAULT_WORLD = "default";

/** A key of a world: its organisation, permissions and label, and the world it acts in. */
export type ApiKey = ApiKeyOf<World>;
export type KeyRegistry = ReadonlyMap<string, ApiKey>;

export interface World {
  readonly id: string;
  readonly label: string | null;
  readonly createdAt: string;
  readonly dataset: Dataset;
  /** What a reset brings the dataset back to: the mock's start dataset, or the sandbox's data file's. */
  readonly start: Dataset;
  /** The data file the sandbox was made from, if any (kept so a --state directory can make it again). */
  readonly data?: unknown;
  /** The world's webhook endpoints and delivery log (absent where the mock has no webhooks: MSW). */
  webhooks: WorldWebhooks | undefined;
  /** Its keys' rate-limit counts and its scripted faults: in memory, or shared by replicas (Redis). */
  store: WorldStore;
  /** The requests it answered (bounded), and the counts its coverage report reads. */
  journal: WorldJournal;
  /** Its keys, in the order they were defined. */
  readonly keys: readonly ApiKey[];
  /** The demo key each of a sandbox's keys stands for, by key. */
  readonly demoKeyOf: ReadonlyMap<string, string>;
}

export interface WorldsOptions {
  /** The dataset as generated: sandboxes start from it, and nothing ever changes it. */
  start: Dataset;
  /** The default world's dataset (a fork of `start`); forked here when absent. */
  defaultDataset?: Dataset;
  /** The default world's keys (the demo keys and --keys keys). */
  keys: readonly KeySpec[];
  /** The keys a sandbox gets a copy of (the demo keys). */
  sandboxKeys: readonly KeySpec[];
  rateLimit: number | "off";
  /** The default world's webhook service (startMock's engine's); none without webhooks (MSW). */
  defaultWebhooks?: WorldWebhooks;
  /** A sandbox's webhook service over its dataset (its ordinal, from 1, seeds its event ids). */
  webhooks?: (dataset: Dataset, ordinal: number, worldId: string) => WorldWebhooks;
  /** Sandboxes and world stores shared by replicas (--state redis://); none: this process alone. */
  shared?: SharedWorlds;
  /** Told of each sandbox created, reset and deleted (a --state directory keeps them). */
  lifecycle?: SandboxLifecycle;
  /** A start dataset from a data file's content, with the mock's seed, scale and today; or the problems, one line each. */
  datasetFrom?: (data: unknown) => { ok: true; dataset: Dataset } | { ok: false; lines: readonly string[] };
  /** At most this many sandboxes; default the control document's x-mock-limits. */
  maxSandboxes?: number;
  maxFaults?: number;
  /** Requests each world's journal holds (0: off); default the control document's x-mock-limits. */
  journalSize?: number;
  /** Megabytes all worlds' journals share; default the control document's x-mock-limits. */
  journalMemoryMb?: number;
}

/** What a sandbox needs to be made again with the same id and keys (after a restart). */
export interface SandboxDefinition {
  id: string;
  label: string | null;
  createdAt: string;
  /** Each key with the demo key it stands for. */
  keys: { key: string; demoKey: string }[];
  /** The data file's content the sandbox started from, when it was not the mock's start dataset. */
  data?: unknown;
}

/**
 * What replicas share about worlds (mock/state/redis/): the sandboxes (made, listed, reset and
 * deleted through any replica) and each world's store. A sandbox made elsewhere becomes known here
 * when it is listed, named, or one of its keys is used.
 */
export interface SharedWorlds {
  /** Registers a sandbox made here; refused when the mock holds `max` already. */
  register(definition: SandboxDefinition, max: number): Promise<{ ok: true } | { ok: false; held: number }>;
  /** Every sandbox of the mock, oldest first. */
  definitions(): Promise<SandboxDefinition[]>;
  definition(id: string): Promise<SandboxDefinition | undefined>;
  /** The sandbox a key of the form sbx_… belongs to, if any. */
  sandboxOfKey(key: string): Promise<string | undefined>;
  /** The world back at its start for every replica. */
  reset(world: World): Promise<void>;
  /** The world gone for every replica (unregistered first: its keys stop). */
  remove(world: World): Promise<void>;
  /** The store of a world made here. */
  store(world: World): WorldStore;
  /** The journal of a world made here. */
  journal(world: World, capacity: number): WorldJournal;
}

export interface SandboxLifecycle {
  created(world: World, definition: SandboxDefinition): void;
  reset(world: World): void;
  deleted(world: World): void;
}

/** A sandbox operation's world, or the refusal naming the field at fault. */
export type SandboxResult = Result<World>;

export class Worlds {
  readonly default: World;
  private readonly registry = new Map<string, ApiKey>();
  private readonly sandboxes = new Map<string, World>();
  private readonly forgetListeners: Array<(world: World) => void> = [];
  private ordinal = 0;
  private closing = false;
  readonly maxSandboxes: number;
  /** The memory every world's journal shares: the default world's, each sandbox's. */
  private readonly journalBudget: JournalBudget;

  constructor(private readonly options: WorldsOptions) {
    this.maxSandboxes = options.maxSandboxes ?? mockLimits.maxSandboxes;
    this.journalBudget = new JournalBudget((options.journalMemoryMb ?? mockLimits.journalMemoryMb) * 1024 * 1024);
    this.default = this.build(DEFAULT_WORLD, null, options.start, options.keys, new Map(), undefined, undefined, options.defaultDataset);
    this.default.webhooks = options.defaultWebhooks;
  }

  /** Every key of every world (KeysFileError was thrown at start for a bad --keys entry). */
  get keys(): KeyRegistry {
    return this.registry;
  }

  /** A new sandbox: a fork of the start dataset and a fresh key per sandbox key spec. */
  createSandbox(label?: string, data?: unknown): Awaitable<SandboxResult> {
    if (this.closing) return refuse("unavailable", "the mock is shutting down and creates no more sandboxes");
    const { shared } = this.options;
    if (!shared && this.sandboxes.size >= this.maxSandboxes) return this.full();
    const random = randomText();
    const keys = this.options.sandboxKeys.map((spec) => ({ key: `sbx_${random}_${spec.key.replace(/^demo_/, "")}`, demoKey: spec.key }));
    const definition: SandboxDefinition = { id: globalThis.crypto.randomUUID(), label: label ?? null, createdAt: new Date().toISOString(), keys, ...(data !== undefined && { data }) };
    const start = this.startOf(definition);
    if (!start.ok) return refuse("invalid", `the data file does not load: ${start.lines.join("; ")}`, "data");
    if (!shared) {
      const world = this.make(definition, start.dataset);
      this.options.lifecycle?.created(world, definition);
      return ok(world);
    }
    // Counted against the limit in the shared store, where every replica's sandboxes are.
    return shared.register(definition, this.maxSandboxes).then((registered) => (registered.ok ? ok(this.make(definition, start.dataset)) : this.full()));
  }

  private full(): SandboxResult {
    return refuse("conflict", `the mock holds ${this.maxSandboxes} sandboxes, its limit (maxSandboxes); delete one with DELETE /_mock/sandboxes/{id} first`);
  }

  /** A sandbox made again from its definition (a --state directory's), with its id and keys. */
  restoreSandbox(definition: SandboxDefinition): World {
    const start = this.startOf(definition);
    if (!start.ok) throw new Error(`sandbox ${definition.id}: its data file no longer loads: ${start.lines.join("; ")}`);
    return this.make(definition, start.dataset);
  }

  /** The start dataset of a sandbox: the mock's, or one built from the sandbox's data file. */
  private startOf(definition: SandboxDefinition): { ok: true; dataset: Dataset } | { ok: false; lines: readonly string[] } {
    if (definition.data === undefined) return { ok: true, dataset: this.options.start };
    if (!this.options.datasetFrom) return { ok: false, lines: ["this mock builds no dataset from a data file"] };
    return this.options.datasetFrom(definition.data);
  }

  private make(definition: SandboxDefinition, start: Dataset): World {
    const demoKeyOf = new Map<string, string>();
    const specs = definition.keys.flatMap(({ key, demoKey }) => {
      const spec = this.options.sandboxKeys.find((s) => s.key === demoKey);
      if (!spec) return [];
      demoKeyOf.set(key, demoKey);
      return [{ ...spec, key }];
    });
    const world = this.build(definition.id, definition.label, start, specs, demoKeyOf, definition.createdAt, definition.data);
    world.webhooks = this.options.webhooks?.(world.dataset, ++this.ordinal, world.id);
    this.sandboxes.set(world.id, world);
    return world;
  }

  /** The sandboxes, oldest first (with shared worlds: every replica's, each made known here). */
  list(): Awaitable<World[]> {
    const { shared } = this.options;
    if (!shared) return [...this.sandboxes.values()];
    return shared.definitions().then((definitions) => {
      const held = new Set(definitions.map((d) => d.id));
      for (const world of [...this.sandboxes.values()]) if (!held.has(world.id)) this.forgetHere(world);
      return definitions.flatMap((d) => this.known(d) ?? []);
    });
  }

  /**
   * What this process holds now (GET /_mock/metrics): the sandboxes known here, the journal entries
   * in its memory and what they weigh (none with journals in Redis), and the webhook deliveries not
   * finished here.
   */
  held(): { sandboxes: number; journalEntries: number; journalBytes: number; deliveriesWaiting: number } {
    const all = [this.default, ...this.sandboxes.values()];
    let journalEntries = 0;
    let deliveriesWaiting = 0;
    for (const world of all) {
      if (world.journal instanceof Journal) journalEntries += world.journal.size;
      deliveriesWaiting += world.webhooks?.pending ?? 0;
    }
    return { sandboxes: this.sandboxes.size, journalEntries, journalBytes: this.journalBudget.bytes, deliveriesWaiting };
  }

  /** A sandbox known here. */
  sandbox(id: string): World | undefined {
    return this.sandboxes.get(id.toLowerCase());
  }

  /** A sandbox of the mock: known here, or (with shared worlds) made known from the shared store. */
  find(id: string): Awaitable<World | undefined> {
    const { shared } = this.options;
    const here = this.sandbox(id);
    if (here || !shared || !/^[0-9a-f-]{36}$/i.test(id)) return here;
    return shared.definition(id.toLowerCase()).then((definition) => definition && this.known(definition));
  }

  /**
   * With shared worlds, a sandbox key this replica has not seen (its sandbox made through another)
   * is looked up once and its sandbox made known; a promise only then, else undefined.
   */
  learnKey(authorization: string | string[] | undefined): Promise<void> | undefined {
    const { shared } = this.options;
    if (!shared || typeof authorization !== "string" || !authorization.startsWith("Bearer sbx_")) return undefined;
    const key = authorization.slice(7).trim();
    if (this.registry.has(key)) return undefined;
    return shared.sandboxOfKey(key).then(async (id) => void (id && (await this.find(id))));
  }

  /** The sandbox back at its start: data, endpoints, log, counters, faults and journal; keys kept. */
  reset(id: string): Awaitable<SandboxResult> {
    const world = this.sandbox(id);
    if (!world) return notFound(id);
    if (this.closing) return refuse("unavailable", "the mock is shutting down");
    const { shared } = this.options;
    if (shared) return shared.reset(world).then(() => ok(world));
    resetDataset(world.dataset, world.start);
    retire(world.webhooks);
    this.options.lifecycle?.reset(world);
    world.webhooks = this.options.webhooks?.(world.dataset, ++this.ordinal, world.id);
    world.store = this.store(world);
    world.journal.clear();
    this.forget(world);
    return ok(world);
  }

  /** Deletes the sandbox: its keys stop at once, its waiting deliveries are cancelled. */
  delete(id: string): Awaitable<SandboxResult> {
    const world = this.sandbox(id);
    if (!world) return notFound(id);
    const { shared } = this.options;
    if (shared) return shared.remove(world).then(() => (this.forgetHere(world), ok(world)));
    this.forgetHere(world);
    this.options.lifecycle?.deleted(world);
    return ok(world);
  }

  /** A world's data back at its start here (a reset made through another replica): its answers are forgotten. */
  restartHere(world: World): void {
    resetDataset(world.dataset, world.start);
    this.forget(world);
  }

  /** A sandbox no longer known here (deleted, here or through another replica): its keys stop. */
  forgetHere(world: World): void {
    if (this.sandboxes.get(world.id) !== world) return;
    this.sandboxes.delete(world.id);
    for (const key of world.keys) this.registry.delete(key.key);
    retire(world.webhooks);
    // Its journal stays readable through a handle kept on it (startMock's sandbox), outside the budget.
    world.journal.detach?.();
    this.forget(world);
  }

  /** The sandbox of a definition, made here when it is not known yet. */
  private known(definition: SandboxDefinition): World | undefined {
    const here = this.sandboxes.get(definition.id);
    if (here) return here;
    const start = this.startOf(definition);
    return start.ok ? this.make(definition, start.dataset) : undefined;
  }

  /** Called when a world's answers may no longer be served from a cache (reset, deleted). */
  onForget(listener: (world: World) => void): void {
    this.forgetListeners.push(listener);
  }

  /** Closes every sandbox's webhook service (the default world's belongs to startMock's engine). */
  async close(): Promise<void> {
    this.closing = true;
    await Promise.all([...this.sandboxes.values()].map((world) => world.webhooks?.close()));
  }

  private build(id: string, label: string | null, start: Dataset, specs: readonly KeySpec[], demoKeyOf: ReadonlyMap<string, string>, createdAt = new Date().toISOString(), data?: unknown, dataset = forkDataset(start)): World {
    const world: World = {
      id,
      label,
      createdAt,
      dataset,
      start,
      ...(data !== undefined && { data }),
      webhooks: undefined,
      store: undefined as unknown as WorldStore,
      journal: undefined as unknown as WorldJournal,
      keys: [],
      demoKeyOf,
    };
    const keys = createKeyRegistry(specs, dataset.organizations.map((org) => org.id), world);
    for (const [key, apiKey] of keys) {
      if (this.registry.has(key)) throw new Error("hr-mock: a generated sandbox key collides with a known key");
      this.registry.set(key, apiKey);
    }
    Object.assign(world, { keys: [...keys.values()] });
    world.store = this.store(world);
    const capacity = this.options.journalSize ?? mockLimits.journalPerWorld;
    world.journal = this.options.shared ? this.options.shared.journal(world, capacity) : new Journal(capacity, this.journalBudget);
    return world;
  }

  private store(world: World): WorldStore {
    if (this.options.shared) return this.options.shared.store(world);
    const { rateLimit } = this.options;
    const limiter = rateLimit === "off" ? undefined : createRateLimiter(rateLimit, RATE_LIMIT_WINDOW_MS);
    return new MemoryWorldStore(limiter, new FaultScript(this.options.maxFaults ?? mockLimits.maxFaultsPerWorld));
  }

  private forget(world: World): void {
    for (const listener of this.forgetListeners) listener(world);
  }
}

/** 16 random characters of the base64url alphabet (Web Crypto: the MSW handlers run in browsers too). */
function randomText(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(12));
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_");
}

function notFound(id: string): SandboxResult {
  return refuse("not-found", `no sandbox with id ${id.slice(0, 100)}`, "id");
}

/** A retired service: its endpoints removed (waiting deliveries cancelled), attempts in flight end normally. */
function retire(service: WorldWebhooks | undefined): void {
  if (!service) return;
  void service.close();
}
