// A world's part of a --state directory: its data changes replayed onto its dataset, and the sink
// its webhook service writes through (directory.ts wires them). Writes happen here, at the edge;
// the service only says that something changed.
import type { Dataset } from "../data/dataset.js";
import type { WebhookPersistence, WebhookSnapshot } from "../webhooks/core.js";
import { replayChanges } from "./replay.js";
import type { SkippedChange } from "./skipped.js";
import { StateError } from "./state-error.js";
import type { StateStore } from "./store.js";

/** What a world's part of the directory gave back: the webhook snapshot to restore, and a torn last change skipped. */
export interface RestoredWorld {
  webhooks: WebhookSnapshot | undefined;
  skipped: SkippedChange | undefined;
}

/** Replays a world's data changes onto its dataset (a fork of the checked start). */
export function replayWorld(store: StateStore, world: string, dataset: Dataset): RestoredWorld {
  const { changes, webhooks, torn } = store.load(world);
  const problem = replayChanges(dataset, changes);
  if (problem) throw new StateError(`${store.where}: the data changes do not replay (${problem}); it was made by another version of the mock or edited; give a new --state directory`);
  for (const endpoint of webhooks?.endpoints ?? []) {
    if (!dataset.organizationById.has(endpoint.organizationId)) {
      throw new StateError(`${store.where}: endpoint ${endpoint.id} belongs to organisation ${endpoint.organizationId}, which this dataset does not have`);
    }
  }
  return { webhooks, skipped: torn && { world, ...torn } };
}

/**
 * The webhook service's sink for one world: changes in one turn of the event loop are written
 * once, at its end, as one atomic snapshot; data changes are appended to the journal at once.
 * A failed write is reported (once until a write succeeds again), never thrown into the service.
 * Detached, it writes nothing: a sandbox reset or deleted must not have its retired service write
 * the old state back while it closes.
 */
export function worldPersistence(store: StateStore, world: string, snapshot: () => WebhookSnapshot, onError: (line: string) => void): { sink: WebhookPersistence; detach(): void } {
  let dirty = false;
  let failing = false;
  let detached = false;
  const attempt = (write: () => void): void => {
    if (detached) return;
    try {
      write();
      failing = false;
    } catch (error) {
      if (!failing) onError(`hr-mock: cannot write the state to ${store.dir} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); changes since are kept in memory only`);
      failing = true;
    }
  };
  const flush = (): void => {
    if (!dirty) return;
    dirty = false;
    attempt(() => store.saveWebhooks(world, snapshot()));
  };
  const sink: WebhookPersistence = {
    where: store.dir,
    changed() {
      if (dirty) return;
      dirty = true;
      queueMicrotask(flush);
    },
    flush,
    dataChanged: (change) => attempt(() => store.appendChange(world, change)),
  };
  return { sink, detach: () => (detached = true) };
}
