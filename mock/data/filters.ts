// Filter predicates of the lists, built once per request from already parsed parameters.
// A null predicate means "no filter", so the list can be sliced without testing each record.
import type { OrganizationData } from "./organization.js";
import type { DepartmentRecord, EmployeeRecord, LeaveRequestRecord, LeaveTypeRecord } from "./records.js";

export interface LeaveRequestFilter {
  companyId?: string;
  departmentId?: string;
  leaveTypeId?: string;
  statusId?: number;
  /** Leave starting between these ISO dates, both included. */
  startFrom?: string;
  startTo?: string;
  /** Case-insensitive substring of the employee's full name or email, or of the leave type's name. */
  searchTerm?: string;
}

/**
 * The fewest records a leave request filter needs to walk, in the list's order: a department's or
 * a status's own requests (kept by the organisation's index) rather than every request.
 */
export function leaveRequestSource(org: OrganizationData, f: LeaveRequestFilter): readonly LeaveRequestRecord[] {
  const byDepartment = f.departmentId === undefined ? undefined : (org.index.requestsByDepartment.get(f.departmentId) ?? []);
  const byStatus = f.statusId === undefined ? undefined : (org.index.requestsByStatus.get(f.statusId) ?? []);
  if (byDepartment && byStatus) return byDepartment.length <= byStatus.length ? byDepartment : byStatus;
  return byDepartment ?? byStatus ?? org.leaveRequests;
}

export function leaveRequestPredicate(org: OrganizationData, f: LeaveRequestFilter): ((r: LeaveRequestRecord) => boolean) | null {
  const tests: ((r: LeaveRequestRecord) => boolean)[] = [];
  const { companyId, departmentId, leaveTypeId, statusId, startFrom, startTo, searchTerm } = f;
  if (statusId !== undefined) tests.push((r) => r.statusId === statusId);
  if (leaveTypeId !== undefined) tests.push((r) => r.leaveTypeId === leaveTypeId);
  if (departmentId !== undefined) tests.push((r) => r.departmentId === departmentId);
  if (companyId !== undefined) tests.push((r) => r.companyId === companyId);
  if (startFrom !== undefined) tests.push((r) => r.startDate >= startFrom);
  if (startTo !== undefined) tests.push((r) => r.startDate <= startTo);
  if (searchTerm !== undefined) {
    // Match the few employees and leave types once, then test set membership per request.
    const term = searchTerm.toLowerCase();
    const employees = new Set<string>();
    for (const e of org.employees) {
      const [name, email] = lowerCased(e);
      if (name.includes(term) || email.includes(term)) employees.add(e.id);
    }
    const types = new Set(org.leaveTypes.filter((t) => t.name.toLowerCase().includes(term)).map((t) => t.id));
    tests.push((r) => employees.has(r.employeeId) || types.has(r.leaveTypeId));
  }
  return combine(tests);
}

// Employee records are replaced, never changed, so their lower-cased texts can be kept per record.
const lowerTexts = new WeakMap<EmployeeRecord, readonly [string, string]>();

function lowerCased(e: EmployeeRecord): readonly [string, string] {
  let texts = lowerTexts.get(e);
  if (!texts) lowerTexts.set(e, (texts = [e.fullName.toLowerCase(), e.email.toLowerCase()]));
  return texts;
}

export interface LeaveTypeFilter {
  /** The companies a type applies to (organisation-wide types apply to every company). */
  companyId?: string;
  searchTerm?: string;
  isActive?: boolean;
  /** Always given: the documented default is 0. */
  eligibilityCriteria: number;
}

export function leaveTypePredicate(f: LeaveTypeFilter): (t: LeaveTypeRecord) => boolean {
  const tests: ((t: LeaveTypeRecord) => boolean)[] = [(t) => t.eligibilityCriteria === f.eligibilityCriteria];
  const { companyId, isActive, searchTerm } = f;
  if (companyId !== undefined) tests.push((t) => t.companyIds.includes(companyId));
  if (isActive !== undefined) tests.push((t) => t.isActive === isActive);
  if (searchTerm !== undefined) {
    const term = searchTerm.toLowerCase();
    tests.push((t) => t.name.toLowerCase().includes(term));
  }
  return combine(tests)!;
}

export interface DepartmentFilter {
  searchTerm?: string;
  /** Departments of any of these companies; absent or empty means every company. */
  companyIds?: readonly string[];
}

export function departmentPredicate(f: DepartmentFilter): ((d: DepartmentRecord) => boolean) | null {
  const tests: ((d: DepartmentRecord) => boolean)[] = [];
  if (f.companyIds !== undefined && f.companyIds.length > 0) {
    const companies = new Set(f.companyIds);
    tests.push((d) => companies.has(d.companyId));
  }
  if (f.searchTerm !== undefined) {
    const term = f.searchTerm.toLowerCase();
    tests.push((d) => d.name.toLowerCase().includes(term));
  }
  return combine(tests);
}

export interface EmployeeFilter {
  status?: EmployeeRecord["status"];
}

export function employeePredicate(f: EmployeeFilter): ((e: EmployeeRecord) => boolean) | null {
  const { status } = f;
  return status === undefined ? null : (e) => e.status === status;
}

function combine<R>(tests: ((r: R) => boolean)[]): ((r: R) => boolean) | null {
  if (tests.length === 0) return null;
  if (tests.length === 1) return tests[0];
  return (r) => {
    for (const test of tests) if (!test(r)) return false;
    return true;
  };
}
