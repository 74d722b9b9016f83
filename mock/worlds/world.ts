// Worlds: a dataset with its own API keys, webhook service, rate-limit counters, response-cache space
// and scripted faults. The demo and --keys keys belong to the default world; each sandbox is a world
// forked from the start dataset (copy on write). A key names its world, so the world is resolved with
// the key, once, and every operation receives it: one request path for every world.
import { mockLimits } from "../../generated/control-facts.js";
import { createKeyRegistry } from "./api-keys.js";
import { forkDataset, resetDataset } from "../data/copy-on-write.js";
import type { Dataset } from "../data/dataset.js";
import { DEMO_KEY_PREFIX, SANDBOX_KEY_PREFIX, type KeySpec } from "../keys/demo-keys.js";
import type { ApiKey, KeyRegistry, SandboxDefinition, World } from "./world-shape.js";
import type { WebhookCore } from "../webhooks/core.js";
import { ok, refuse, type Reason, type Result } from "../kernel/results.js";
import { bearerKey } from "../../src/bearer.js";
import { andThen, type Awaitable } from "../kernel/awaitable.js";
import type { WorldStore } from "./world-store.js";
import type { WorldJournal } from "./journal/port.js";
import type { WorldParts, WorldPlace, WorldsState } from "./state-port.js";

/** The default world's id (sandboxes have uuids). */
export const DEFAULT_WORLD = "default";

export type { ApiKey, KeyRegistry, SandboxDefinition, World } from "./world-shape.js";

export interface WorldsOptions {
  /** The dataset as generated: sandboxes start from it, and nothing ever changes it. */
  start: Dataset;
  /** The default world's dataset (a fork of `start`); forked here when absent. */
  defaultDataset?: Dataset;
  /** The default world's keys (the demo keys and --keys keys). */
  keys: readonly KeySpec[];
  /** The keys a sandbox gets a copy of (the demo keys). */
  sandboxKeys: readonly KeySpec[];
  /** What keeps each world's store, journal and webhooks, and the sandboxes (mock/state/backend.ts). */
  state: WorldsState;
  /** What every world's webhook service is made with; none: the mock has no webhooks (MSW). */
  webhooks?: WebhookCore;
  /** A start dataset from a data file's content, with the mock's seed, scale and today; or the problems, one line each. */
  datasetFrom?: (data: unknown) => { ok: true; dataset: Dataset } | { ok: false; lines: readonly string[] };
  /** At most this many sandboxes; default the control document's x-mock-limits. */
  maxSandboxes?: number;
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
  private readonly state: WorldsState;

  constructor(private readonly options: WorldsOptions) {
    this.maxSandboxes = options.maxSandboxes ?? mockLimits.maxSandboxes;
    this.state = options.state;
    this.state.attach({ restart: (world) => this.restart(world), forget: (world) => this.forgetHere(world) });
    this.default = this.build(DEFAULT_WORLD, null, options.start, options.keys, new Map(), undefined, undefined, options.defaultDataset);
  }

  /** Every key of every world (KeysFileError was thrown at start for a bad --keys entry). */
  get keys(): KeyRegistry {
    return this.registry;
  }

  /** A new sandbox: a fork of the start dataset and a fresh key per sandbox key spec, registered with the state (counted against the limit there). */
  createSandbox(label?: string, data?: unknown): Awaitable<SandboxResult> {
    if (this.closing) return refuse("unavailable", "the mock is shutting down and creates no more sandboxes");
    return andThen(this.state.room(this.maxSandboxes), (room) => (room.ok ? this.register(label, data) : this.full()));
  }

  /** A sandbox of a fresh definition, made once its state registered it. */
  private register(label: string | undefined, data: unknown): Awaitable<SandboxResult> {
    const random = randomText();
    const keys = this.options.sandboxKeys.map((spec) => ({ key: `${SANDBOX_KEY_PREFIX}${random}_${withoutDemoPrefix(spec.key)}`, demoKey: spec.key }));
    const definition: SandboxDefinition = { id: globalThis.crypto.randomUUID(), label: label ?? null, createdAt: new Date().toISOString(), keys, ...(data !== undefined && { data }) };
    const start = this.startOf(definition);
    if (!start.ok) return refuse("invalid", `the data file does not load: ${start.lines.join("; ")}`, "data");
    return andThen(this.state.register(definition, this.maxSandboxes), (registered) => {
      // A listing (list, find) running meanwhile may have made it known here already, from the state.
      return registered.ok ? ok(this.sandboxes.get(definition.id) ?? this.make(definition, start.dataset)) : this.full();
    });
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
    this.sandboxes.set(world.id, world);
    return world;
  }

  /** The sandboxes, oldest first: every one the state holds (with Redis, every replica's), each made known here. */
  list(): Awaitable<World[]> {
    return andThen(this.state.definitions(), (definitions) => {
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
    const sum = (of: (world: World) => number) => all.reduce((total, world) => total + of(world), 0);
    return {
      sandboxes: this.sandboxes.size,
      journalEntries: sum((w) => w.journal.inMemory.entries),
      journalBytes: sum((w) => w.journal.inMemory.bytes),
      deliveriesWaiting: sum((w) => w.webhooks?.pending ?? 0),
    };
  }

  /** A sandbox known here. */
  sandbox(id: string): World | undefined {
    return this.sandboxes.get(id.toLowerCase());
  }

  /** A sandbox of the mock: known here, or made known from the state (one made through another replica). */
  find(id: string): Awaitable<World | undefined> {
    const here = this.sandbox(id);
    if (here || !/^[0-9a-f-]{36}$/i.test(id)) return here;
    return andThen(this.state.definition(id.toLowerCase()), (definition) => definition && this.known(definition));
  }

  /** The sandbox `id` as the `caller`'s world may see it: the default world sees every one, a sandbox only itself. */
  visible(caller: World, id: string): Awaitable<World | undefined> {
    return andThen(this.find(id), (sandbox) => (sandbox && (caller.id === DEFAULT_WORLD || caller === sandbox) ? sandbox : undefined));
  }

  /**
   * A sandbox key not known here (its sandbox made through another replica) is looked up in the
   * state once and its sandbox made known; a promise only when the state answers with one.
   */
  learnKey(authorization: string | string[] | undefined): Promise<void> | undefined {
    const bearer = typeof authorization === "string" ? bearerKey(authorization) : undefined;
    if (!bearer?.ok || !bearer.key.startsWith(SANDBOX_KEY_PREFIX) || this.registry.has(bearer.key)) return undefined;
    const key = bearer.key;
    const learnt = andThen(this.state.sandboxOfKey(key), (id) => (id === undefined ? undefined : andThen(this.find(id), () => undefined)));
    return learnt instanceof Promise ? learnt : undefined;
  }

  /** The sandbox back at its start: data, endpoints, log, counters, faults and journal; keys kept. */
  reset(id: string): Awaitable<SandboxResult> {
    const world = this.sandbox(id);
    if (!world) return noSandbox(id);
    if (this.closing) return refuse("unavailable", "the mock is shutting down");
    return andThen(this.state.reset(this.place(world)), (parts) => {
      this.fit(world, parts);
      return ok(world);
    });
  }

  /** Deletes the sandbox: its keys stop at once, its waiting deliveries are cancelled. */
  delete(id: string): Awaitable<SandboxResult> {
    const world = this.sandbox(id);
    if (!world) return noSandbox(id);
    return andThen(this.state.remove(world), () => {
      this.forgetHere(world);
      return ok(world);
    });
  }

  /** A world's data back at its start here (a reset, made here or through another replica): its answers are forgotten. */
  private restart(world: World): void {
    resetDataset(world.dataset, world.start);
    this.forget(world);
  }

  /** A sandbox no longer known here (deleted, here or through another replica): its keys stop. */
  private forgetHere(world: World): void {
    if (this.sandboxes.get(world.id) !== world) return;
    this.sandboxes.delete(world.id);
    for (const key of world.keys) this.registry.delete(key.key);
    // A retired service: its endpoints removed (waiting deliveries cancelled), attempts in flight end normally.
    void world.webhooks?.close();
    // Its journal stays readable through a handle kept on it (startMock's sandbox), outside the budget.
    world.journal.detach();
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
    const keys = createKeyRegistry(specs, dataset.organizationIds, world);
    for (const [key, apiKey] of keys) {
      if (this.registry.has(key)) throw new Error("hr-mock: a generated sandbox key collides with a known key");
      this.registry.set(key, apiKey);
    }
    Object.assign(world, { keys: [...keys.values()] });
    this.fit(world, this.state.open(this.place(world, id === DEFAULT_WORLD ? 0 : ++this.ordinal)));
    return world;
  }

  /** Where a world's parts are made: each sandbox made (or reset) here has the next ordinal (it seeds event ids). */
  private place(world: World, ordinal = ++this.ordinal): WorldPlace {
    return { world, ordinal, webhooks: this.options.webhooks };
  }

  private fit(world: World, parts: WorldParts): void {
    world.store = parts.store;
    world.journal = parts.journal;
    world.webhooks = parts.webhooks;
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

/** The refusal of a sandbox id no sandbox has (or none the caller may see), naming the `field` that gave it. */
export function noSandbox(id: string, field = "id"): { ok: false; reason: Reason } {
  return refuse("not-found", `no sandbox with id ${id.slice(0, 100)}`, field);
}

/** A key without the demo keys' prefix, if it has it (a sandbox key names the key it copies so). */
function withoutDemoPrefix(key: string): string {
  return key.startsWith(DEMO_KEY_PREFIX) ? key.slice(DEMO_KEY_PREFIX.length) : key;
}
