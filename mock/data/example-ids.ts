// The contract's examples are live: organisation 1 of the default dataset gives one record of each
// kind the id its parameter examples name (generated/facts.ts exampleIds), and the values they show
// where the data's rules allow (example-records.ts), so a request copied from the API reference
// answers as the reference says.
import { exampleIds, exampleRecords } from "../../generated/facts.js";
import { adoptExampleValues, EXAMPLE_RELIEVER } from "./example-records.js";
import { indexOrganization, type OrganizationData, type OrganizationRecords } from "./organization.js";
import type { EmployeeRecord } from "./records.js";
import { APPROVED } from "./statuses.js";

/** The records that take the examples' ids: a company, its active department of the example's name (else its first active one), an Active member with no regular day off (the example's days count every weekday; a head first), an organisation-wide leave type of the example's name, the employee's request of that type, and a colleague to relieve them. */
function chosen(org: OrganizationData): Partial<Record<keyof typeof exampleIds, string>> & { reliever?: string } {
  const company = org.companies[0];
  const active = org.departments.filter((d) => d.companyId === company?.id && d.status === "Active");
  const department = active.find((d) => d.name === exampleRecords.department.name) ?? active[0] ?? org.departments[0];
  const members = org.employees.filter((e) => e.departmentId === department?.id && e.status === "Active");
  const head = (e: EmployeeRecord) => department?.leadIds.includes(e.id) ?? false;
  const free = (e: EmployeeRecord) => e.daysOff.length === 0;
  const employee = members.find((e) => head(e) && free(e)) ?? members.find(free) ?? members.find(head) ?? members[0] ?? org.employees.find((e) => e.status === "Active");
  const mine = org.leaveRequests.filter((r) => r.employeeId === employee?.id);
  const wide = org.leaveTypes.filter((t) => t.isActive && t.eligibilityCriteria === 0);
  const leaveType = wide.find((t) => t.name === exampleRecords.leaveType.name) ?? wide.find((t) => mine.some((r) => r.leaveTypeId === t.id && r.statusId === APPROVED)) ?? wide[0] ?? org.leaveTypes[0];
  const leaveRequest = mine.find((r) => r.leaveTypeId === leaveType?.id && r.statusId === APPROVED) ?? mine.find((r) => r.leaveTypeId === leaveType?.id) ?? mine[0] ?? org.leaveRequests[org.leaveRequests.length - 1];
  const reliever = members.find((e) => e.id !== employee?.id) ?? org.employees.find((e) => e.status === "Active" && e.id !== employee?.id);
  return { company: company?.id, department: department?.id, employee: employee?.id, leaveType: leaveType?.id, leaveRequest: leaveRequest?.id, reliever: reliever?.id };
}

/** The organisation with the examples' ids in place of its chosen records' ids, and the examples' values on them (example-records.ts). */
export function adoptExamples(org: OrganizationData, today: string): OrganizationData {
  const choice = chosen(org);
  const records: OrganizationRecords = { ...org, departments: [...org.departments], employees: [...org.employees], leaveTypes: [...org.leaveTypes], leaveRequests: [...org.leaveRequests], balanceSetUps: [...org.balanceSetUps] };
  const { department, employee, leaveType, leaveRequest, reliever } = choice;
  if (department && employee && leaveType && leaveRequest) adoptExampleValues(records, { department, employee, leaveType, leaveRequest, reliever }, today);
  const renames = new Map<string, string>();
  for (const [kind, id] of Object.entries(choice) as [keyof typeof exampleIds | "reliever", string | undefined][]) {
    const example = kind === "reliever" ? EXAMPLE_RELIEVER.id : exampleIds[kind];
    if (id !== undefined && id !== example) renames.set(id, example);
  }
  return indexOrganization(renameIds(records, renames));
}

/** The fields that can hold a renamed record's id (companies', departments', employees', leave types' and requests'); units' and documents' ids are their own. */
const ID_FIELDS = {
  companies: ["id"],
  departments: ["id", "companyId", "leadIds"],
  employees: ["id", "companyId", "departmentId", "unitId"],
  leaveTypes: ["id", "eligibleIds", "companyIds"],
  leaveRequests: ["id", "employeeId", "leaveTypeId", "companyId", "departmentId", "relieverIds"],
  balanceSetUps: ["employeeId", "leaveTypeId"],
} as const satisfies { readonly [K in keyof IdLists]: readonly (keyof IdLists[K][number])[] };

type IdLists = Pick<OrganizationRecords, "companies" | "departments" | "employees" | "leaveTypes" | "leaveRequests" | "balanceSetUps">;

/** The records with every id in `renames` replaced: only the id fields are read, and only records whose ids change are copied (a deep copy of the organisation was most of adoptExamples' time). */
function renameIds(records: OrganizationRecords, renames: ReadonlyMap<string, string>): OrganizationRecords {
  const lists = Object.entries(ID_FIELDS).map(([kind, keys]) => [kind, (records[kind as keyof IdLists] as object[]).map((r) => renamed(r, keys, renames))]);
  return { ...records, ...Object.fromEntries(lists) };
}

/** The record with its id fields (texts or lists of texts) renamed; the same object when none changes. */
function renamed<T extends object>(record: T, keys: readonly string[], renames: ReadonlyMap<string, string>): T {
  let copy: Record<string, unknown> | undefined;
  for (const key of keys) {
    const value: unknown = (record as Record<string, unknown>)[key];
    const next =
      typeof value === "string" ? renames.get(value)
      : Array.isArray(value) && value.some((x) => renames.has(x)) ? value.map((x: string) => renames.get(x) ?? x)
      : undefined;
    if (next !== undefined) (copy ??= { ...(record as Record<string, unknown>) })[key] = next;
  }
  return (copy as T | undefined) ?? record;
}
