// The state in this process: each world's parts as objects in memory, answering at once; the
// sandboxes held in a map. A --state directory (directory.ts) is this with its writes and its
// restore. Nothing here is Node-only: the MSW handlers run it in a page.
import { mockLimits } from "../../generated/control-facts.js";
import { RATE_LIMIT_WINDOW_MS } from "../kernel/limits.js";
import type { Dataset } from "../data/dataset.js";
import type { LocalWebhooks, WebhookPersistence } from "../webhooks/core.js";
import { FaultScript } from "../worlds/faults.js";
import { JournalBudget } from "../worlds/journal/budget.js";
import { Journal } from "../worlds/journal/journal.js";
import { createRateLimiter } from "../worlds/rate-limit.js";
import { MemoryWorldStore, type WorldStore } from "../worlds/world-store.js";
import type { SandboxDefinition, World, Worlds } from "../worlds/world.js";
import type { Registered, WorldParts, WorldPlace, WorldsHere } from "../worlds/state-port.js";
import type { BackendOptions, Fingerprint, Readiness, StoreMetrics, StateBackend, StateReport, StoreName } from "./backend.js";

/** The journal's size defaults to the control document's x-mock-limits. */
export type MemoryStateOptions = Pick<BackendOptions, "rateLimit" | "journalMemoryMb"> & Partial<Pick<BackendOptions, "journalSize">>;

/** What a state in this process is told as sandboxes come and go (a directory writes them). */
export interface LocalKeeping {
  /** The sink a world's webhook service writes through (none: memory only). */
  persistence(world: World, service: () => LocalWebhooks): WebhookPersistence | undefined;
  created(definition: SandboxDefinition): void;
  reset(world: World): void;
  removed(world: World): void;
  /** Writes what waits to be written. */
  flush?(): void;
}

const KEEP_NOTHING: LocalKeeping = { persistence: () => undefined, created: () => {}, reset: () => {}, removed: () => {} };

/** The memory backend: nothing outlives the process; always reachable. */
export function memoryBackend(options: MemoryStateOptions): StateBackend {
  return new MemoryBackend(options);
}

/** A state in this process; `keeping` is told of sandboxes made, reset and removed (a directory extends it). */
export class MemoryBackend implements StateBackend {
  private here: WorldsHere | undefined;
  private readonly definitionsHeld = new Map<string, SandboxDefinition>();
  /** The memory every world's journal shares. */
  private readonly budget: JournalBudget;
  /** The webhook service of each world made here (what a directory snapshots and restores). */
  protected readonly services = new Map<string, LocalWebhooks>();

  constructor(
    private readonly options: MemoryStateOptions,
    private readonly keeping: LocalKeeping = KEEP_NOTHING,
  ) {
    this.budget = new JournalBudget((options.journalMemoryMb ?? mockLimits.journalMemoryMb) * 1024 * 1024);
  }

  get fingerprint(): Fingerprint | undefined {
    return undefined;
  }

  get store(): StoreName {
    return { kind: "memory" };
  }

  attach(here: WorldsHere): void {
    this.here = here;
  }

  open(place: WorldPlace): WorldParts {
    return { store: this.worldStore(), journal: new Journal(this.options.journalSize ?? mockLimits.journalPerWorld, this.budget), webhooks: this.webhooks(place) };
  }

  room(max: number): Registered {
    return this.definitionsHeld.size >= max ? { ok: false, held: this.definitionsHeld.size } : { ok: true };
  }

  register(definition: SandboxDefinition, max: number): Registered {
    const room = this.room(max);
    if (!room.ok) return room;
    // Kept first (a directory writes it): a definition that could not be written is not held.
    this.keeping.created(definition);
    this.definitionsHeld.set(definition.id, definition);
    return { ok: true };
  }

  /** A sandbox a directory kept, held again at start. */
  protected hold(definition: SandboxDefinition): void {
    this.definitionsHeld.set(definition.id, definition);
  }

  definitions(): SandboxDefinition[] {
    return [...this.definitionsHeld.values()];
  }

  definition(id: string): SandboxDefinition | undefined {
    return this.definitionsHeld.get(id);
  }

  /** Every sandbox of this state was made here, so its keys are known here already. */
  sandboxOfKey(): undefined {
    return undefined;
  }

  reset(place: WorldPlace): WorldParts {
    const { world } = place;
    // A retired service: its endpoints removed (waiting deliveries cancelled), attempts in flight end normally.
    void world.webhooks?.close();
    this.keeping.reset(world);
    world.journal.clear();
    this.attached().restart(world);
    return { store: this.worldStore(), journal: world.journal, webhooks: this.webhooks(place) };
  }

  remove(world: World): void {
    this.definitionsHeld.delete(world.id);
    this.services.delete(world.id);
    this.keeping.removed(world);
  }

  async restore(_dataset: Dataset, _fingerprint: Fingerprint): Promise<void> {}

  async start(_worlds: Worlds): Promise<void> {}

  readonly pumpsDeliveries: boolean = false;

  report(): StateReport {
    return {};
  }

  readiness(): Readiness {
    return { reached: true, reachable: true };
  }

  metrics(): StoreMetrics | undefined {
    return undefined;
  }

  async flush(): Promise<void> {
    this.keeping.flush?.();
  }

  async close(): Promise<void> {
    await this.flush();
  }

  private worldStore(): WorldStore {
    const { rateLimit } = this.options;
    const limiter = rateLimit === "off" ? undefined : createRateLimiter(rateLimit, RATE_LIMIT_WINDOW_MS);
    return new MemoryWorldStore(limiter, new FaultScript(mockLimits.maxFaultsPerWorld));
  }

  private webhooks({ world, ordinal, webhooks }: WorldPlace): LocalWebhooks | undefined {
    if (!webhooks) return undefined;
    const service: LocalWebhooks = webhooks.local(world.dataset, ordinal, this.keeping.persistence(world, () => service));
    this.services.set(world.id, service);
    return service;
  }

  private attached(): WorldsHere {
    if (!this.here) throw new Error("hr-mock: the state was used before Worlds attached to it");
    return this.here;
  }
}
