// The keys the mock knows, resolved against the dataset: each key to its organisation's id and
// its set of permissions, in its world.
import type { KeySpec } from "../keys/demo-keys.js";
import type { World } from "./world.js";
import { KeysFileError } from "../keys/load-keys.js";

export interface ApiKey {
  key: string;
  /** 1-based position of the key's organisation in the dataset. */
  organisation: number;
  organizationId: string;
  permissions: ReadonlySet<string>;
  label: string;
  /** The world the key belongs to (the default world, or a sandbox): its data, webhooks, counters and faults. */
  world: World;
}

export type KeyRegistry = ReadonlyMap<string, ApiKey>;

/**
 * `organizationIds` are the dataset's organisations in order; a spec's `organisation` is a
 * position in that list (1, 2) or one of the ids.
 */
export function createKeyRegistry(specs: readonly KeySpec[], organizationIds: readonly string[], world: World): KeyRegistry {
  const registry = new Map<string, ApiKey>();
  for (const spec of specs) {
    if (registry.has(spec.key)) throw new KeysFileError(`key "${spec.label}" is defined twice (a demo key or an earlier entry has the same key)`);
    const index =
      typeof spec.organisation === "number" ? spec.organisation - 1 : organizationIds.indexOf(spec.organisation);
    if (index < 0 || index >= organizationIds.length) {
      throw new KeysFileError(
        `key "${spec.label}": organisation ${JSON.stringify(spec.organisation)} is not 1 to ${organizationIds.length} nor an organisation id of this dataset`,
      );
    }
    registry.set(spec.key, {
      key: spec.key,
      organisation: index + 1,
      organizationId: organizationIds[index],
      permissions: new Set(spec.permissions),
      label: spec.label,
      world,
    });
  }
  return registry;
}
