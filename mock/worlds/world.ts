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
import type { WebhookService } from "../webhooks/service.js";
import { ok, refuse, type Result } from "../kernel/results.js";
import { FaultScript } from "./faults.js";
import { RATE_LIMIT_WINDOW_MS } from "../kernel/limits.js";
import { createRateLimiter, type RateLimiter } from "./rate-limit.js";
import { JournalBudget } from "./journal/budget.js";
import { Journal } from "./journal/journal.js";

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
  webhooks: WebhookService | undefined;
  /** Its keys' rate-limit counters; undefined when the rate limit is off. */
  rateLimiter: RateLimiter | undefined;
  readonly faults: FaultScript;
  /** The requests it answered (bounded), and the counts its coverage report reads. */
  readonly journal: Journal;
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
  defaultWebhooks?: WebhookService;
  /** A sandbox's webhook service over its dataset (its ordinal, from 1, seeds its event ids). */
  webhooks?: (dataset: Dataset, ordinal: number, worldId: string) => WebhookService;
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
  createSandbox(label?: string, data?: unknown): SandboxResult {
    if (this.closing) return refuse("unavailable", "the mock is shutting down and creates no more sandboxes");
    if (this.sandboxes.size >= this.maxSandboxes) {
      return refuse("conflict", `the mock holds ${this.maxSandboxes} sandboxes, its limit (maxSandboxes); delete one with DELETE /_mock/sandboxes/{id} first`);
    }
    const random = randomText();
    const keys = this.options.sandboxKeys.map((spec) => ({ key: `sbx_${random}_${spec.key.replace(/^demo_/, "")}`, demoKey: spec.key }));
    const definition: SandboxDefinition = { id: globalThis.crypto.randomUUID(), label: label ?? null, createdAt: new Date().toISOString(), keys, ...(data !== undefined && { data }) };
    const start = this.startOf(definition);
    if (!start.ok) return refuse("invalid", `the data file does not load: ${start.lines.join("; ")}`, "data");
    const world = this.make(definition, start.dataset);
    this.options.lifecycle?.created(world, definition);
    return ok(world);
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

  /** The sandboxes, oldest first. */
  list(): World[] {
    return [...this.sandboxes.values()];
  }

  sandbox(id: string): World | undefined {
    return this.sandboxes.get(id.toLowerCase());
  }

  /** The sandbox back at its start: data, endpoints, log, counters, faults and journal; keys kept. */
  reset(id: string): SandboxResult {
    const world = this.sandbox(id);
    if (!world) return notFound(id);
    if (this.closing) return refuse("unavailable", "the mock is shutting down");
    resetDataset(world.dataset, world.start);
    retire(world.webhooks);
    this.options.lifecycle?.reset(world);
    world.webhooks = this.options.webhooks?.(world.dataset, ++this.ordinal, world.id);
    world.rateLimiter = this.rateLimiter();
    world.faults.clear();
    world.journal.clear();
    this.forget(world);
    return ok(world);
  }

  /** Deletes the sandbox: its keys stop at once, its waiting deliveries are cancelled. */
  delete(id: string): SandboxResult {
    const world = this.sandbox(id);
    if (!world) return notFound(id);
    this.sandboxes.delete(world.id);
    for (const key of world.keys) this.registry.delete(key.key);
    retire(world.webhooks);
    this.options.lifecycle?.deleted(world);
    world.faults.clear();
    // Its journal stays readable through a handle kept on it (startMock's sandbox), outside the budget.
    world.journal.detach();
    this.forget(world);
    return ok(world);
  }

  /** Called when a world's answers may no longer be served from a cache (reset, deleted). */
  onForget(listener: (world: World) => void): void {
    this.forgetListeners.push(listener);
  }

  /** Closes every sandbox's webhook service (the default world's belongs to startMock's engine). */
  async close(): Promise<void> {
    this.closing = true;
    await Promise.all(this.list().map((world) => world.webhooks?.close()));
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
      rateLimiter: this.rateLimiter(),
      faults: new FaultScript(this.options.maxFaults ?? mockLimits.maxFaultsPerWorld),
      journal: new Journal(this.options.journalSize ?? mockLimits.journalPerWorld, this.journalBudget),
      keys: [],
      demoKeyOf,
    };
    const keys = createKeyRegistry(specs, dataset.organizations.map((org) => org.id), world);
    for (const [key, apiKey] of keys) {
      if (this.registry.has(key)) throw new Error("hr-mock: a generated sandbox key collides with a known key");
      this.registry.set(key, apiKey);
    }
    Object.assign(world, { keys: [...keys.values()] });
    return world;
  }

  private rateLimiter(): RateLimiter | undefined {
    const { rateLimit } = this.options;
    return rateLimit === "off" ? undefined : createRateLimiter(rateLimit, RATE_LIMIT_WINDOW_MS);
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
function retire(service: WebhookService | undefined): void {
  if (!service) return;
  void service.close();
}
