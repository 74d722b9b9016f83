// A dataset's organisations by id, in order, each given built or built when first read (dataset.ts
// decides: a generated dataset's organisation 2 waits, as the demo keys' requests never read it).
// Ids, has and size build nothing; get, values and the iterators build what they return.
import type { OrganizationData } from "./organization.js";

/** The organisation at `position` (1 the first, as keys name it), built if need be; here so that its readers load no generator. */
export function organizationAt(
  dataset: { readonly organizationIds: readonly string[]; readonly organizationById: ReadonlyMap<string, OrganizationData> },
  position: number,
): OrganizationData | undefined {
  const id = dataset.organizationIds[position - 1];
  return id === undefined ? undefined : dataset.organizationById.get(id);
}

/** The name of the organisation at `position`, without building it (a banner names them all). */
export function organizationNameAt(dataset: { readonly organizationIds: readonly string[]; readonly organizationById: ReadonlyMap<string, OrganizationData> }, position: number): string | undefined {
  const id = dataset.organizationIds[position - 1];
  const table = dataset.organizationById;
  return id === undefined ? undefined : table instanceof OrganizationTable ? table.slot(id)?.name : table.get(id)?.name;
}

/** The slot that holds each organisation (copy-on-write.ts tells the start's from a fork's own by it). */
const slots = new WeakMap<OrganizationData, LazyOrganization>();

/** The slot `org` was given to or built by. */
export function slotOf(org: OrganizationData): LazyOrganization | undefined {
  return slots.get(org);
}

/** One organisation: given, or built once on the first get. */
export class LazyOrganization {
  private value: OrganizationData | undefined;
  private build: (() => OrganizationData) | undefined;
  /** Known before the build (the profile's): naming an organisation builds nothing. */
  readonly name: string;

  constructor(
    readonly id: string,
    source: OrganizationData | { name: string; build: () => OrganizationData },
  ) {
    if ("build" in source) this.build = source.build;
    else this.hold(source);
    this.name = source.name;
  }

  get built(): boolean {
    return this.value !== undefined;
  }

  get(): OrganizationData {
    if (this.value === undefined) {
      // Once only: a build draws from its dataset's picker, so a second try would not give the same bytes.
      const build = this.build;
      this.build = undefined;
      if (!build) throw new Error(`organisation ${this.id} failed to build before`);
      const org = build();
      // The ids were handed out before the build: a different one would split the dataset.
      if (org.id !== this.id || org.name !== this.name) throw new Error(`organisation ${this.id} (${this.name}) was built as ${org.id} (${org.name})`);
      this.hold(org);
    }
    return this.value!;
  }

  private hold(org: OrganizationData): void {
    this.value = org;
    slots.set(org, this);
  }
}

/** The organisations of one dataset: a ReadonlyMap by id whose get builds the one asked for. */
export class OrganizationTable implements ReadonlyMap<string, OrganizationData> {
  /** In the dataset's order; never changes (mutations change records, not which organisations there are). */
  readonly ids: readonly string[];
  private readonly slots: Map<string, LazyOrganization>;

  constructor(slots: readonly LazyOrganization[]) {
    this.slots = new Map(slots.map((slot) => [slot.id, slot]));
    this.ids = [...this.slots.keys()];
  }

  get size(): number {
    return this.slots.size;
  }

  has(id: string): boolean {
    return this.slots.has(id);
  }

  get(id: string): OrganizationData | undefined {
    return this.slots.get(id)?.get();
  }

  /** Every organisation in order, building those not built yet. */
  all(): OrganizationData[] {
    return this.ids.map((id) => this.slots.get(id)!.get());
  }

  slot(id: string): LazyOrganization | undefined {
    return this.slots.get(id);
  }

  /** The slots in order, built or not (forks and resets copy these). */
  allSlots(): LazyOrganization[] {
    return [...this.slots.values()];
  }

  /** Puts `slot` where the organisation of its id is (the order stays). */
  replace(slot: LazyOrganization): void {
    if (!this.slots.has(slot.id)) throw new Error(`no organisation ${slot.id} to replace`);
    this.slots.set(slot.id, slot);
  }

  keys(): MapIterator<string> {
    return this.slots.keys();
  }

  values(): MapIterator<OrganizationData> {
    return new Map(this.entriesBuilt()).values();
  }

  entries(): MapIterator<[string, OrganizationData]> {
    return new Map(this.entriesBuilt()).entries();
  }

  [Symbol.iterator](): MapIterator<[string, OrganizationData]> {
    return this.entries();
  }

  forEach(callback: (value: OrganizationData, key: string, map: ReadonlyMap<string, OrganizationData>) => void, thisArg?: unknown): void {
    for (const [id, org] of this.entriesBuilt()) callback.call(thisArg, org, id, this);
  }

  private entriesBuilt(): [string, OrganizationData][] {
    return this.ids.map((id) => [id, this.slots.get(id)!.get()]);
  }
}

/** Builds every organisation not built yet (a page's handlers do it once the page is quiet). */
export function buildEveryOrganization(dataset: { readonly organizationById: ReadonlyMap<string, OrganizationData> }): void {
  const table = dataset.organizationById;
  if (table instanceof OrganizationTable) table.all();
}

/** The ids of the organisations built so far, in order; builds none (tests, the benchmark). */
export function builtOrganizationIds(dataset: { readonly organizationById: ReadonlyMap<string, OrganizationData> }): string[] {
  const table = dataset.organizationById;
  if (!(table instanceof OrganizationTable)) return [...table.keys()];
  return table.allSlots().flatMap((slot) => (slot.built ? [slot.id] : []));
}
