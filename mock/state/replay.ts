// Data changes back: each journalled trigger's data change is applied again, in order, on the same
// start dataset. Mutations pick from a faker seeded by the dataset's seed and version
// (mock/data/mutations.ts), and the trigger's own time is kept, so the same records come back.
import type { Dataset } from "../data/dataset.js";
import { buildEventData } from "../webhooks/triggers.js";
import type { DataChange } from "../webhooks/core.js";

/** Applies the changes; the first that no longer applies is the reason, else undefined. */
export function replayChanges(dataset: Dataset, changes: readonly DataChange[]): string | undefined {
  for (const [i, change] of changes.entries()) {
    const org = dataset.organizationById.get(change.organizationId);
    if (!org) return `change ${i + 1} names organisation ${change.organizationId}, which this dataset does not have`;
    const version = dataset.version;
    const built = buildEventData(change.input.type, {
      dataset,
      org,
      id: change.input.id,
      set: change.input.set ?? {},
      now: new Date(change.at),
      // Only triggers that change the data are journalled; their records come from the mutations.
      newId: () => "00000000-0000-4000-8000-000000000000",
      pick: (items) => items[0],
      endpoints: [],
    });
    if (!built.ok) return `change ${i + 1} (${change.input.type}) no longer applies: ${built.reason.message}`;
    if (dataset.version === version) return `change ${i + 1} (${change.input.type}) changed nothing`;
  }
  return undefined;
}
