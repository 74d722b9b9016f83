// Filter predicates of the lists, built once per request from already parsed parameters.
// A null predicate means "no filter", so the list can be sliced without testing each record.
import { departmentStatusKey, requestPlacesOf, type OrganizationData } from "./organization.js";
import { employeesMatching } from "./employee-search.js";
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
 * The fewest leave requests a filter needs to walk, in the list's order (an index group, or the
 * requests a search term names), and a test of only the filters that source does not imply: with no
 * other filter the page is a slice, whatever the organisation's size.
 */
export function leaveRequestSelection(org: OrganizationData, f: LeaveRequestFilter): { source: readonly LeaveRequestRecord[]; keep: ((r: LeaveRequestRecord) => boolean) | null } {
  const { index } = org;
  // The smallest source; of equal ones, the one that implies the most filters (leaves the fewest tests).
  let source: readonly LeaveRequestRecord[] = org.leaveRequests;
  let implied: Implied = NONE_IMPLIED;
  const offer = (next: readonly LeaveRequestRecord[], nextImplied: Implied) => {
    if (next.length < source.length || (next.length === source.length && nextImplied.length > implied.length)) [source, implied] = [next, nextImplied];
  };
  if (f.departmentId !== undefined && f.statusId !== undefined) offer(index.requestsByDepartmentStatus.get(departmentStatusKey(f.departmentId, f.statusId)) ?? [], DEPARTMENT_AND_STATUS);
  if (f.departmentId !== undefined) offer(index.requestsByDepartment.get(f.departmentId) ?? [], DEPARTMENT);
  if (f.statusId !== undefined) offer(index.requestsByStatus.get(f.statusId) ?? [], STATUS);
  let search: ReturnType<typeof searchMatches> | undefined;
  if (f.searchTerm !== undefined) {
    search = searchMatches(org, f.searchTerm);
    // Every leave type named: the term matches every request (each has one of the organisation's types).
    if (search.types.size > 0 && search.types.size === org.leaveTypes.length) offer(org.leaveRequests, SEARCH);
    else {
      // Gathered only when fewer than the smallest source above (a department's, say) would walk.
      const named = searchedRequests(org, search, source.length);
      if (named) offer(named, SEARCH);
    }
  }
  return { source, keep: leaveRequestPredicate(f, implied, search) };
}

/** The filters a source holds to already (an index group holds to its department or status). */
type Implied = readonly (keyof LeaveRequestFilter)[];
const NONE_IMPLIED: Implied = [];
const DEPARTMENT_AND_STATUS: Implied = ["departmentId", "statusId"];
const DEPARTMENT: Implied = ["departmentId"];
const STATUS: Implied = ["statusId"];
const SEARCH: Implied = ["searchTerm"];

/** The employees whose full name or email, and the leave types whose name, hold `term` (any case). */
function searchMatches(org: OrganizationData, term: string): { employees: Set<string>; types: Set<string> } {
  const lower = term.toLowerCase();
  const employees = employeesMatching(org.employees, lower);
  const types = new Set(org.leaveTypes.filter(nameHolds(term)).map((t) => t.id));
  return { employees, types };
}

/** A test of whether a record's name holds `term`, in any letter case. */
function nameHolds(term: string): (record: { name: string }) => boolean {
  const lower = term.toLowerCase();
  return (record) => record.name.toLowerCase().includes(lower);
}

/**
 * The requests of the matched employees and leave types, once each, in the list's order: a few are
 * sorted, many are marked on a table of the list then walked once. Undefined when more than `atMost`.
 */
function searchedRequests(org: OrganizationData, search: ReturnType<typeof searchMatches>, atMost: number): LeaveRequestRecord[] | undefined {
  const { byEmployee, byLeaveType } = requestPlacesOf(org);
  const lists: Int32Array[] = [];
  let count = 0;
  for (const [ids, places] of [[search.employees, byEmployee], [search.types, byLeaveType]] as const) {
    for (const id of ids) {
      const list = places.get(id);
      if (list) lists.push(list), (count += list.length);
    }
  }
  // Against the whole list, marking beats testing every record even when most match.
  if (count > atMost && atMost < org.leaveRequests.length) return undefined;
  const requests = org.leaveRequests;
  const found: LeaveRequestRecord[] = [];
  if (count > requests.length / 16) {
    const marked = new Uint8Array(requests.length);
    for (const list of lists) for (let i = 0; i < list.length; i++) marked[list[i]] = 1;
    for (let i = 0; i < marked.length; i++) if (marked[i] === 1) found.push(requests[i]);
    return found;
  }
  const all = new Int32Array(count);
  let at = 0;
  for (const list of lists) all.set(list, (at += list.length) - list.length);
  all.sort();
  for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[i - 1]) found.push(requests[all[i]]);
  return found;
}

/** A test of the filters of `f` its source does not imply. */
function leaveRequestPredicate(f: LeaveRequestFilter, implied: Implied, search: ReturnType<typeof searchMatches> | undefined): ((r: LeaveRequestRecord) => boolean) | null {
  const tests: ((r: LeaveRequestRecord) => boolean)[] = [];
  const { companyId, leaveTypeId, startFrom, startTo } = f;
  const departmentId = implied.includes("departmentId") ? undefined : f.departmentId;
  const statusId = implied.includes("statusId") ? undefined : f.statusId;
  const searchTerm = implied.includes("searchTerm") ? undefined : f.searchTerm;
  if (statusId !== undefined) tests.push((r) => r.statusId === statusId);
  if (leaveTypeId !== undefined) tests.push((r) => r.leaveTypeId === leaveTypeId);
  if (departmentId !== undefined) tests.push((r) => r.departmentId === departmentId);
  if (companyId !== undefined) tests.push((r) => r.companyId === companyId);
  if (startFrom !== undefined) tests.push((r) => r.startDate >= startFrom);
  if (startTo !== undefined) tests.push((r) => r.startDate <= startTo);
  if (searchTerm !== undefined && search !== undefined) {
    // The few employees and leave types were matched once; each request is a set membership test.
    const { employees, types } = search;
    tests.push((r) => employees.has(r.employeeId) || types.has(r.leaveTypeId));
  }
  return combine(tests);
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
  if (searchTerm !== undefined) tests.push(nameHolds(searchTerm));
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
  if (f.searchTerm !== undefined) tests.push(nameHolds(f.searchTerm));
  return combine(tests);
}

export function employeePredicate(f: Partial<Pick<EmployeeRecord, "status">>): ((e: EmployeeRecord) => boolean) | null {
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
