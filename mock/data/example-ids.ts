// The contract's examples are live: organisation 1 of the default dataset gives one record of each
// kind the id its parameter examples name (generated/facts.ts exampleIds), so a request copied from
// the API reference answers as the reference says. The records keep everything else; each id is
// replaced wherever the organisation's records name it (ids are uuids, so a value equal to one is
// that record's id), and the organisation is indexed again.
import { exampleIds } from "../../generated/facts.js";
import { indexOrganization, type OrganizationData, type OrganizationRecords } from "./organization.js";
import { APPROVED } from "./statuses.js";

/** The records that take the examples' ids: a company, its first active department, that department's head (or an active employee there), an organisation-wide leave type, the employee's request of that type. */
function chosen(org: OrganizationData): Partial<Record<keyof typeof exampleIds, string>> {
  const company = org.companies[0];
  const department = org.departments.find((d) => d.companyId === company?.id && d.status === "Active") ?? org.departments[0];
  // The department's head where it has an active one, as the department example's leaders show the employee example's id.
  const active = (id: string | undefined) => org.employees.find((e) => e.id === id && e.status === "Active");
  const employee = active(department?.leadIds[0]) ?? org.employees.find((e) => e.departmentId === department?.id && e.status === "Active") ?? org.employees.find((e) => e.status === "Active");
  // The example shows the employee's approved request of an organisation-wide leave type; the nearest the data has.
  const mine = org.leaveRequests.filter((r) => r.employeeId === employee?.id);
  const wide = org.leaveTypes.filter((t) => t.isActive && t.eligibilityCriteria === 0);
  const leaveType = wide.find((t) => mine.some((r) => r.leaveTypeId === t.id && r.statusId === APPROVED)) ?? wide[0] ?? org.leaveTypes[0];
  const leaveRequest = mine.find((r) => r.leaveTypeId === leaveType?.id && r.statusId === APPROVED) ?? mine.find((r) => r.leaveTypeId === leaveType?.id) ?? mine[0] ?? org.leaveRequests[org.leaveRequests.length - 1];
  return { company: company?.id, department: department?.id, employee: employee?.id, leaveType: leaveType?.id, leaveRequest: leaveRequest?.id };
}

/** The organisation with the examples' ids in place of its chosen records' ids. */
export function adoptExampleIds(org: OrganizationData): OrganizationData {
  const renames = new Map<string, string>();
  for (const [kind, id] of Object.entries(chosen(org)) as [keyof typeof exampleIds, string | undefined][]) if (id !== undefined && id !== exampleIds[kind]) renames.set(id, exampleIds[kind]);
  if (renames.size === 0) return org;
  const rename = (value: unknown): unknown => {
    if (typeof value === "string") return renames.get(value) ?? value;
    if (Array.isArray(value)) return value.map(rename);
    if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rename(v)]));
    return value;
  };
  return indexOrganization(rename({ ...org }) as OrganizationRecords);
}
