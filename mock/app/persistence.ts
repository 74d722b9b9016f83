// A --state directory wired to the worlds (Node only: the store writes files). The default world's
// webhook service writes through worldPersistence; each sandbox's service writes to its own world of
// the directory through a sink that a reset or delete cuts off, so a retired service never writes
// the old state back; sandboxes kept in the directory come back with their ids, keys, data changes
// and webhooks.
import type { Dataset } from "../data/dataset.js";
import { detachable, replayWorld, worldPersistence, type SkippedChange, type StateStore } from "../state/index.js";
import type { WebhookEngine } from "../webhooks/index.js";
import type { WebhookService } from "../webhooks/service.js";
import type { SandboxLifecycle, Worlds } from "../worlds/world.js";

export interface StateWiring {
  /** A sandbox's webhook service, writing to its world of the directory. */
  sandboxService(dataset: Dataset, ordinal: number, worldId: string): WebhookService;
  lifecycle: SandboxLifecycle;
  /** Makes the directory's sandboxes again, with their changes and webhooks; the torn last changes it skipped. */
  restoreSandboxes(worlds: Worlds): SkippedChange[];
}

export function wireState(store: StateStore, engine: WebhookEngine, onError: (line: string) => void): StateWiring {
  const sinks = new Map<string, () => void>();
  // The services made here, by world: what a restored sandbox's webhooks come back into.
  const services = new Map<string, WebhookService>();
  const cut = (worldId: string) => sinks.get(worldId)?.();
  return {
    sandboxService(dataset, ordinal, worldId) {
      cut(worldId);
      let service: WebhookService | undefined;
      const { sink, detach } = detachable(worldPersistence(store, worldId, () => service!.snapshot(), onError));
      sinks.set(worldId, detach);
      service = engine.serviceFor(dataset, ordinal, sink);
      services.set(worldId, service);
      return service;
    },
    lifecycle: {
      created: (_world, definition) => store.saveSandbox(definition),
      reset: (world) => {
        cut(world.id);
        store.clearWorld(world.id);
      },
      deleted: (world) => {
        cut(world.id);
        sinks.delete(world.id);
        services.delete(world.id);
        store.removeWorld(world.id);
      },
    },
    restoreSandboxes(worlds) {
      const skipped: SkippedChange[] = [];
      for (const definition of store.sandboxes()) {
        const world = worlds.restoreSandbox(definition);
        const restored = replayWorld(store, definition.id, world.dataset);
        if (restored.webhooks) services.get(world.id)?.restore(restored.webhooks);
        if (restored.skipped) skipped.push(restored.skipped);
      }
      return skipped;
    },
  };
}
