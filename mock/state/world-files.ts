// A world's part of a --state directory: its data changes replayed onto its dataset (and the line a
// start says of a last change a crash left unfinished), and the sink its webhook service writes
// through (directory.ts wires them). Writes happen here, at the edge.
import type { Dataset } from "../data/dataset.js";
import type { WebhookPersistence, WebhookSnapshot } from "../webhooks/core.js";
import { replayChanges } from "./replay.js";
import { StateError } from "./state-error.js";
import type { StateStore } from "./store.js";
import type { PartialChange } from "./snapshot.js";

/** Replays a world's data changes onto its dataset (a fork of the checked start); answers its webhook snapshot to restore, and a torn last change skipped. */
export function replayWorld(store: StateStore, world: string, dataset: Dataset): { webhooks: WebhookSnapshot | undefined; skipped: SkippedChange | undefined } {
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

/**
 * The last line of a world's journal that a crash left unfinished (a kill in the middle of a
 * write): the change it began is not replayed, and the start says so with this.
 */
export interface SkippedChange {
  world: string;
  /** The journal's path. */
  file: string;
  /** The bytes of the unfinished line. */
  bytes: number;
  /** What the unfinished line still shows of the change: its event type, organisation, record and time, as far as they are whole. */
  change: PartialChange;
}

/** A skipped change in one line, naming the file and what was lost, for the start's output. */
export function skippedLine(skipped: SkippedChange): string {
  const { type, organizationId, id, at } = skipped.change;
  const what = [
    type ? `a ${type} change` : "a change whose type cannot be read",
    organizationId && `of organisation ${organizationId}`,
    id && `(record ${id})`,
    at && `made at ${at}`,
  ].filter(Boolean);
  return `hr-mock: --state: the last line of ${skipped.file} is unfinished (${skipped.bytes} bytes; the mock was stopped in the middle of writing it) and is skipped: ${what.join(" ")} is lost; fire it again if it is needed.`;
}
