// Datasets that share their start's organisations until they change one (sandboxes, and the default
// world beside them). Records never change in place (records.ts), so two datasets may hold the same
// record objects; only an organisation's arrays and indexes are changed by mutations
// (organization.ts). A fork therefore copies nothing at first: the first change of an organisation
// in a fork copies that organisation's arrays and indexes (writableOrganization), never its records,
// and the start stays as it was generated.
// Organisations not built yet (lazy-organizations.ts) are shared the same way: a fork holds the
// start's slot, and whichever dataset reads it first builds it for all of them.
import { datasetOf, type Dataset } from "./dataset.js";
import { LazyOrganization, OrganizationTable, slotOf } from "./lazy-organizations.js";
import type { OrganizationData, OrganizationIndex } from "./organization.js";

/** Slots of a start dataset: shared by every fork, their organisations never changed. */
const shared = new WeakSet<LazyOrganization>();

/** A dataset that reads `start`'s organisations until it changes one of them; builds none. */
export function forkDataset(start: Dataset): Dataset {
  const slots = tableOf(start).allSlots();
  for (const slot of slots) shared.add(slot);
  return datasetOf(start, new OrganizationTable(slots));
}

/**
 * The organisation of `ds` that a mutation may change: the fork's own copy, made on the first
 * change (only the changed organisation is copied). Undefined for an id that is not in the dataset.
 */
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

/** New arrays and maps holding the same records. */
function copyOrganization(org: OrganizationData): OrganizationData {
  const i = org.index;
  const index: OrganizationIndex = {
    companyById: new Map(i.companyById),
    departmentById: new Map(i.departmentById),
    employeeById: new Map(i.employeeById),
    leaveTypeById: new Map(i.leaveTypeById),
    leaveRequestById: new Map(i.leaveRequestById),
    requestsByEmployee: copyGroups(i.requestsByEmployee),
    requestsByDepartment: copyGroups(i.requestsByDepartment),
    requestsByStatus: copyGroups(i.requestsByStatus),
    requestsByDepartmentStatus: copyGroups(i.requestsByDepartmentStatus),
    balanceSetUpByKey: new Map(i.balanceSetUpByKey),
    departmentByUnitId: new Map(i.departmentByUnitId),
    holidayDates: new Set(i.holidayDates),
  };
  const copy = {
    ...org,
    companies: [...org.companies],
    departments: [...org.departments],
    employees: [...org.employees],
    leaveTypes: [...org.leaveTypes],
    leaveRequests: [...org.leaveRequests],
    holidays: [...org.holidays],
    balanceSetUps: [...org.balanceSetUps],
  } as OrganizationData;
  Object.defineProperty(copy, "index", { value: index, enumerable: false, writable: false });
  return copy;
}

function copyGroups<K, T>(groups: Map<K, T[]>): Map<K, T[]> {
  const copy = new Map<K, T[]>();
  for (const [key, group] of groups) copy.set(key, [...group]);
  return copy;
}
