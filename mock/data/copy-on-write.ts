// Datasets that share their start's organisations until they change one (sandboxes, and the default
// world beside them). Records never change in place (records.ts), so two datasets may hold the same
// record objects; only an organisation's arrays and indexes are changed by mutations
// (organization.ts). A fork therefore copies nothing at first: the first change of an organisation
// in a fork copies that organisation's arrays and indexes (writableOrganization), never its records,
// and the start stays as it was generated.
import type { Dataset } from "./dataset.js";
import type { OrganizationData, OrganizationIndex } from "./organization.js";

/** Organisations of a start dataset: shared by every fork, never changed. */
const shared = new WeakSet<OrganizationData>();

/** A dataset that reads `start`'s organisations until it changes one of them. */
export function forkDataset(start: Dataset): Dataset {
  for (const org of start.organizations) shared.add(org);
  return { seed: start.seed, scale: start.scale, today: start.today, version: 0, organizations: [...start.organizations], organizationById: new Map(start.organizationById) };
}

/**
 * The organisation of `ds` that a mutation may change: the fork's own copy, made on the first
 * change (only the changed organisation is copied). Undefined for an id that is not in the dataset.
 */
export function writableOrganization(ds: Dataset, orgId: string): OrganizationData | undefined {
  const org = ds.organizationById.get(orgId);
  if (!org || !shared.has(org)) return org;
  const own = copyOrganization(org);
  (ds.organizations as OrganizationData[])[ds.organizations.indexOf(org)] = own;
  (ds.organizationById as Map<string, OrganizationData>).set(orgId, own);
  return own;
}

/** `ds` back to `start`'s organisations and version 0 (picks after a reset repeat the first ones). */
export function resetDataset(ds: Dataset, start: Dataset): void {
  (ds.organizations as OrganizationData[]).splice(0, ds.organizations.length, ...start.organizations);
  const byId = ds.organizationById as Map<string, OrganizationData>;
  byId.clear();
  for (const org of start.organizations) byId.set(org.id, org);
  ds.version = 0;
}

/** Whether the organisation is still the start's (for tests and the benchmark). */
export function isShared(org: OrganizationData): boolean {
  return shared.has(org);
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
