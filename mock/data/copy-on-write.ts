// Datasets that share their start's organisations until they change one (sandboxes, and the default
// world beside them). Records never change in place (records.ts), so a fork copies nothing at first:
// its first change of an organisation copies that organisation's arrays and indexes, never its
// records. A slot not built yet (lazy-organizations.ts) is shared too: whoever reads it first builds it.
import { datasetOf, type Dataset } from "./dataset.js";
import { LazyOrganization, OrganizationTable, slotOf } from "./lazy-organizations.js";
import type { OrganizationData } from "./organization.js";

/** Slots of a start dataset: shared by every fork, their organisations never changed. */
const shared = new WeakSet<LazyOrganization>();

/** A dataset that reads `start`'s organisations until it changes one of them; builds none. */
export function forkDataset(start: Dataset): Dataset {
  const slots = tableOf(start).allSlots();
  for (const slot of slots) shared.add(slot);
  return datasetOf(start, new OrganizationTable(slots));
}

/** The organisation of `ds` a mutation may change: a fork's own copy, made on its first change; undefined for an unknown id. */
export function writableOrganization(ds: Dataset, orgId: string): OrganizationData | undefined {
  const table = tableOf(ds);
  const slot = table.slot(orgId);
  if (!slot || !shared.has(slot)) return slot?.get();
  const own = copyOrganization(slot.get());
  table.replace(new LazyOrganization(orgId, own));
  return own;
}

/** `ds` back to `start`'s organisations and version 0 (picks after a reset repeat the first ones). */
export function resetDataset(ds: Dataset, start: Dataset): void {
  const table = tableOf(ds);
  for (const slot of tableOf(start).allSlots()) {
    shared.add(slot);
    table.replace(slot);
  }
  ds.version = 0;
}

/** Whether the organisation is still the start's (for tests and the benchmark); builds nothing. */
export function isShared(org: OrganizationData): boolean {
  const slot = slotOf(org);
  return slot !== undefined && shared.has(slot);
}

/** The dataset's organisations; every dataset is made by datasetOf. */
function tableOf(ds: Dataset): OrganizationTable {
  const table = ds.organizationById;
  if (!(table instanceof OrganizationTable)) throw new Error("a dataset not made by createDataset or forkDataset");
  return table;
}

/** New arrays, maps and sets holding the same records (an index's groups are arrays, copied too). */
function copyOrganization(org: OrganizationData): OrganizationData {
  const copyOf = (value: unknown): unknown =>
    Array.isArray(value) ? [...value]
    : value instanceof Set ? new Set(value)
    : value instanceof Map ? new Map([...value].map(([key, item]) => [key, Array.isArray(item) ? [...item] : item]))
    : value;
  const copied = <T extends object>(from: T) => Object.fromEntries(Object.entries(from).map(([key, value]) => [key, copyOf(value)])) as T;
  const copy = copied(org);
  Object.defineProperty(copy, "index", { value: copied(org.index), enumerable: false, writable: false });
  return copy;
}
