// `--state DIR`: the state in this process (memory.ts), written to a directory as it changes and
// restored from it at start: the start dataset checked against the directory's fingerprint, each
// world's data changes replayed and its webhooks restored (world-files.ts), the sandboxes kept made
// again with their ids and keys.
import type { Dataset } from "../data/dataset.js";
import type { LocalWebhooks, WebhookPersistence, WebhookSnapshot } from "../webhooks/core.js";
import type { World, Worlds } from "../worlds/world.js";
import type { BackendOptions, Fingerprint, StateReport, StoreName } from "./backend.js";
import { MemoryBackend, type LocalKeeping } from "./memory.js";
import { replayWorld, skippedLine, worldPersistence, type SkippedChange } from "./world-files.js";
import { StateError } from "./state-error.js";
import { DEFAULT_WORLD, fingerprintDifferences, openStateDirectory, type StateStore } from "./store.js";

/** Opens the directory (a StateError of one line for one that is not an hr-mock state, or is in use). */
export function directoryBackend(dir: string, options: BackendOptions): DirectoryBackend {
  return new DirectoryBackend(openStateDirectory(dir, options.stateNamed), options);
}

/** The sinks of the worlds' services: each cut off when its world is reset or deleted. */
class DirectoryKeeping implements LocalKeeping {
  private readonly sinks = new Map<string, { sink: WebhookPersistence; detach(): void }>();

  constructor(
    private readonly store: StateStore,
    private readonly onError: (line: string) => void,
  ) {}

  persistence(world: World, service: () => LocalWebhooks): WebhookPersistence {
    this.sinks.get(world.id)?.detach();
    const made = worldPersistence(this.store, world.id, () => service().snapshot(), this.onError);
    this.sinks.set(world.id, made);
    return made.sink;
  }

  created(definition: Parameters<StateStore["saveSandbox"]>[0]): void {
    this.store.saveSandbox(definition);
  }

  reset(world: World): void {
    this.sinks.get(world.id)?.detach();
    this.store.clearWorld(world.id);
  }

  removed(world: World): void {
    this.sinks.get(world.id)?.detach();
    this.sinks.delete(world.id);
    this.store.removeWorld(world.id);
  }

  /** Every sink's pending snapshot written now. */
  flush(): void {
    for (const { sink } of this.sinks.values()) sink.flush();
  }
}

export class DirectoryBackend extends MemoryBackend {
  private readonly onError: (line: string) => void;
  /** The default world's webhooks as the directory gave them back, restored into its service once made. */
  private saved: WebhookSnapshot | undefined;
  private restored = { changes: 0, endpoints: 0, waiting: 0 };
  private readonly skipped: SkippedChange[] = [];

  constructor(
    private readonly files: StateStore,
    options: BackendOptions,
  ) {
    super(options, new DirectoryKeeping(files, options.onError));
    this.onError = options.onError;
  }

  override get fingerprint(): Fingerprint | undefined {
    return this.files.fingerprint;
  }

  override get store(): StoreName {
    return { kind: "directory" };
  }

  /** Checks the start dataset against the directory and replays the default world's data changes onto it; a new state records the fingerprint. */
  override async restore(dataset: Dataset, fingerprint: Fingerprint): Promise<void> {
    const store = this.files;
    if (store.fingerprint === undefined) return store.begin(fingerprint);
    const differences = fingerprintDifferences(store.fingerprint, fingerprint);
    if (differences.length > 0) {
      throw new StateError(`${store.where} was made from another start dataset: ${differences.join(", ")}; start with the state's flags, or give a new --state directory`);
    }
    const before = dataset.version;
    const { webhooks, skipped } = replayWorld(store, DEFAULT_WORLD, dataset);
    this.saved = webhooks;
    this.restored = { changes: dataset.version - before, endpoints: webhooks?.endpoints.length ?? 0, waiting: webhooks?.waiting.length ?? 0 };
    if (skipped) this.skipped.push(skipped);
  }

  /** The default world's webhooks restored, then the sandboxes kept made again with their changes and webhooks; each unfinished last line said once. */
  override async start(worlds: Worlds): Promise<void> {
    const { services } = this;
    if (this.saved) services.get(DEFAULT_WORLD)?.restore(this.saved);
    for (const definition of this.files.sandboxes()) {
      this.hold(definition);
      const world = worlds.restoreSandbox(definition);
      const restored = replayWorld(this.files, definition.id, world.dataset);
      if (restored.webhooks) services.get(world.id)?.restore(restored.webhooks);
      if (restored.skipped) this.skipped.push(restored.skipped);
    }
    // Said at every start until the next change of that world is written (which cuts the line off).
    for (const change of this.skipped) this.onError(skippedLine(change));
  }

  override report(): StateReport {
    return { state: { dir: this.files.dir, restored: this.restored, skipped: this.skipped } };
  }

  /** What waits to be written is written before the directory's lock goes. */
  override async close(): Promise<void> {
    await super.close();
    this.files.release();
  }
}
