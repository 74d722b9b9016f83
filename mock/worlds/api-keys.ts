// The keys the mock knows, resolved against the dataset: each key to its organisation's id and
// its set of permissions, in its world. Generic over the world, so that world.ts, which makes the
// keys, is the one module that names both (ApiKey there).
import type { KeySpec } from "../keys/demo-keys.js";
import { KeysFileError } from "../keys/load-keys.js";

export interface ApiKeyOf<W> {
  key: string;
  /** 1-based position of the key's organisation in the dataset. */
  organisation: number;
  organizationId: string;
  permissions: ReadonlySet<string>;
  label: string;
  /** The world the key belongs to (the default world, or a sandbox): its data, webhooks, counters and faults. */
  world: W;
}

/**
 * `organizationIds` are the dataset's organisations in order; a spec's `organisation` is a
 * position in that list (1, 2) or one of the ids.
 */
export function createKeyRegistry<W>(specs: readonly KeySpec[], organizationIds: readonly string[], world: W): ReadonlyMap<string, ApiKeyOf<W>> {
  const registry = new Map<string, ApiKeyOf<W>>();
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
