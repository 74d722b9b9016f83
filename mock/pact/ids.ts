// The record ids a Pact interaction takes from its provider state: which kind of record a value sent
// in a path or query names (looked up in the caller's organisation, never guessed from a parameter's
// name), and the record of each kind the state endpoint offers in a world it set up.
import type { OrganizationData } from "../data/organization.js";

/** The provider-state values a request's ids come from, the organisation index that holds them, and their words in a state's name. */
const ID_KINDS = [
  ["leaveRequestId", "leaveRequestById", "a leave request"],
  ["departmentId", "departmentById", "a department"],
  ["employeeId", "employeeById", "an employee"],
  ["leaveTypeId", "leaveTypeById", "a leave type"],
  ["companyId", "companyById", "a company"],
] as const;

export type IdKind = (typeof ID_KINDS)[number][0];

/** The kind of record `value` is in the organisation, if it is one. */
export function idKindOf(org: OrganizationData, value: string): IdKind | undefined {
  for (const [kind, index] of ID_KINDS) if (org.index[index].has(value)) return kind;
  return undefined;
}

/** One record of each kind the organisation has (an active one where records have a status). */
export function offeredIds(org: OrganizationData): Partial<Record<IdKind, string>> {
  const activeDepartment = org.departments.find((d) => d.status === "Active") ?? org.departments[0];
  const activeEmployee = org.employees.find((e) => e.status === "Active") ?? org.employees[0];
  const activeType = org.leaveTypes.find((t) => t.isActive) ?? org.leaveTypes[0];
  const offered: Partial<Record<IdKind, string>> = {
    leaveRequestId: org.leaveRequests[org.leaveRequests.length - 1]?.id,
    departmentId: activeDepartment?.id,
    employeeId: activeEmployee?.id,
    leaveTypeId: activeType?.id,
    companyId: org.companies[0]?.id,
  };
  for (const key of Object.keys(offered) as IdKind[]) if (offered[key] === undefined) delete offered[key];
  return offered;
}

/** Words for a state's name: "a leave request", "a department". */
export const RECORD_WORDS = Object.fromEntries(ID_KINDS.map(([kind, , words]) => [kind, words])) as Record<IdKind, string>;
