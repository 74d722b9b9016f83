// One organisation's records, its lookup indexes, and the only functions that change them.
// Arrays are kept presorted by the orders the lists use, so a request never sorts.
import type {
  BalanceSetUpRecord,
  CompanyRecord,
  DepartmentRecord,
  EmployeeRecord,
  HolidayRecord,
  LeaveRequestRecord,
  LeaveTypeRecord,
} from "./records.js";
import type { WorkCalendar } from "./working-days.js";
import { forgetEmployeeTexts } from "./employee-search.js";

export interface OrganizationData {
  readonly id: string;
  readonly name: string;
  /** Mail and file domain: emails are `first.last@<domain>`, public files `https://files.<domain>/...`. */
  readonly domain: string;
  readonly companies: CompanyRecord[];
  /** Sorted by created, then id (the department list's order). */
  readonly departments: DepartmentRecord[];
  /** Sorted by employee code (the employee list's order). */
  readonly employees: EmployeeRecord[];
  /** Sorted by created, then id (the leave type list's order). */
  readonly leaveTypes: LeaveTypeRecord[];
  /** Sorted by requestedOn, then id (the leave request list's order, oldest first). */
  readonly leaveRequests: LeaveRequestRecord[];
  /** Public holidays of last year, this year and next year, in date order. */
  readonly holidays: HolidayRecord[];
  /** Employee and leave type pairs whose balance was set up, in creation order. */
  readonly balanceSetUps: BalanceSetUpRecord[];
  /** Lookup maps; not enumerable, so JSON of the dataset shows the records only. */
  readonly index: OrganizationIndex;
}

export interface OrganizationIndex {
  readonly companyById: Map<string, CompanyRecord>;
  readonly departmentById: Map<string, DepartmentRecord>;
  readonly employeeById: Map<string, EmployeeRecord>;
  readonly leaveTypeById: Map<string, LeaveTypeRecord>;
  readonly leaveRequestById: Map<string, LeaveRequestRecord>;
  /** Each employee's requests, any order. */
  readonly requestsByEmployee: Map<string, LeaveRequestRecord[]>;
  /** Requests by department and by status, each in the list's order (requestedOn): a filter walks only its own. */
  readonly requestsByDepartment: Map<string, LeaveRequestRecord[]>;
  readonly requestsByStatus: Map<number, LeaveRequestRecord[]>;
  /** Keyed by departmentStatusKey(departmentId, statusId): the list's commonest pair of filters, answered by a slice. */
  readonly requestsByDepartmentStatus: Map<string, LeaveRequestRecord[]>;
  /** Keyed by balanceKey(employeeId, leaveTypeId). */
  readonly balanceSetUpByKey: Map<string, BalanceSetUpRecord>;
  readonly holidayDates: Set<string>;
}

export type OrganizationRecords = Omit<OrganizationData, "index">;

export function balanceKey(employeeId: string, leaveTypeId: string): string {
  return `${employeeId}|${leaveTypeId}`;
}

export function departmentStatusKey(departmentId: string, statusId: number): string {
  return `${departmentId}|${statusId}`;
}

/** Orders records by one text field, then by id (the lists' orders). */
const compareBy =
  <K extends string>(key: K) =>
  (a: Record<K | "id", string>, b: Record<K | "id", string>): number =>
    a[key] < b[key] ? -1 : a[key] > b[key] ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
const compareByRequestedOn = compareBy("requestedOn");
const compareByCreated = compareBy("created");
const compareByCode = compareBy("code");

/** Sorts the arrays into their list orders and attaches the indexes. */
export function indexOrganization(records: OrganizationRecords): OrganizationData {
  records.departments.sort(compareByCreated);
  records.leaveTypes.sort(compareByCreated);
  records.leaveRequests.sort(compareByRequestedOn);
  records.employees.sort(compareByCode);
  const requestsByEmployee = new Map<string, LeaveRequestRecord[]>(records.employees.map((e) => [e.id, []]));
  for (const r of records.leaveRequests) requestsByEmployee.get(r.employeeId)?.push(r);
  const requestsByDepartment = groupBy(records.leaveRequests, (r) => r.departmentId);
  const requestsByStatus = groupBy(records.leaveRequests, (r) => r.statusId);
  const requestsByDepartmentStatus = groupBy(records.leaveRequests, (r) => departmentStatusKey(r.departmentId, r.statusId));
  const index: OrganizationIndex = {
    companyById: new Map(records.companies.map((c) => [c.id, c])),
    departmentById: new Map(records.departments.map((d) => [d.id, d])),
    employeeById: new Map(records.employees.map((e) => [e.id, e])),
    leaveTypeById: new Map(records.leaveTypes.map((t) => [t.id, t])),
    leaveRequestById: new Map(records.leaveRequests.map((r) => [r.id, r])),
    requestsByEmployee,
    requestsByDepartment,
    requestsByStatus,
    requestsByDepartmentStatus,
    balanceSetUpByKey: new Map(records.balanceSetUps.map((b) => [balanceKey(b.employeeId, b.leaveTypeId), b])),
    holidayDates: new Set(records.holidays.map((h) => h.date)),
  };
  const org = { ...records } as OrganizationData;
  Object.defineProperty(org, "index", { value: index, enumerable: false, writable: false });
  return org;
}

/** The records of `sorted` grouped by `key`, each group keeping their order. */
function groupBy<K, T>(sorted: readonly T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of sorted) pushTo(groups, key(item), item);
  return groups;
}

function pushTo<K, T>(groups: Map<K, T[]>, key: K, item: T): void {
  const group = groups.get(key);
  if (group) group.push(item);
  else groups.set(key, [item]);
}

export function workCalendarOf(org: OrganizationData, employee: EmployeeRecord): WorkCalendar {
  return { holidays: org.index.holidayDates, daysOff: employee.daysOff };
}

/** Where each employee's and each leave type's requests stand in the list's order (`leaveRequests` indexes, ascending). */
type RequestPlaces = Record<"byEmployee" | "byLeaveType", ReadonlyMap<string, Int32Array>>;

/**
 * The requests' places by employee and by leave type, kept until a request changes: a search sorts
 * numbers rather than comparing records' dates (most of a search's time at --scale 10).
 */
export function requestPlacesOf(org: OrganizationData): RequestPlaces {
  let places = requestPlaces.get(org);
  if (!places) requestPlaces.set(org, (places = { byEmployee: placesBy(org.leaveRequests, (r) => r.employeeId), byLeaveType: placesBy(org.leaveRequests, (r) => r.leaveTypeId) }));
  return places;
}

function placesBy(requests: readonly LeaveRequestRecord[], key: (r: LeaveRequestRecord) => string): Map<string, Int32Array> {
  const lists = groupBy([...requests.keys()], (i) => key(requests[i]));
  return new Map([...lists].map(([k, list]) => [k, Int32Array.from(list)]));
}

const requestPlaces = new WeakMap<OrganizationData, RequestPlaces>();

// ---- changes (used by mutations only) -------------------------------------------------------

function replaceIn<T>(array: T[], previous: T, next: T): void {
  const i = array.indexOf(previous);
  if (i < 0) throw new Error("record to replace is not in its array");
  array[i] = next;
}

/** First index in a sorted array whose element sorts after `item`. */
function upperBound<T>(array: readonly T[], item: T, compare: (a: T, b: T) => number): number {
  let lo = 0;
  let hi = array.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compare(array[mid], item) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function replaceLeaveRequest(org: OrganizationData, next: LeaveRequestRecord): void {
  const previous = org.index.leaveRequestById.get(next.id);
  if (!previous) throw new Error(`no leave request ${next.id}`);
  if (compareByRequestedOn(previous, next) !== 0) throw new Error("a replaced leave request keeps its sort keys");
  replaceIn(org.leaveRequests, previous, next);
  replaceIn(org.index.requestsByEmployee.get(next.employeeId) ?? [], previous, next);
  org.index.leaveRequestById.set(next.id, next);
  // A decision moves a request to another status group; its department may move with its employee.
  moveBetweenGroups(org.index.requestsByStatus, previous.statusId, next.statusId, previous, next);
  moveBetweenGroups(org.index.requestsByDepartment, previous.departmentId, next.departmentId, previous, next);
  requestPlaces.delete(org);
  const pair = (r: LeaveRequestRecord) => departmentStatusKey(r.departmentId, r.statusId);
  moveBetweenGroups(org.index.requestsByDepartmentStatus, pair(previous), pair(next), previous, next);
}

function moveBetweenGroups<K>(groups: Map<K, LeaveRequestRecord[]>, from: K, to: K, previous: LeaveRequestRecord, next: LeaveRequestRecord): void {
  const source = groups.get(from) ?? [];
  if (from === to) {
    replaceIn(source, previous, next);
    return;
  }
  source.splice(source.indexOf(previous), 1);
  insertSorted(groups, to, next);
}

function insertSorted<K>(groups: Map<K, LeaveRequestRecord[]>, key: K, record: LeaveRequestRecord): void {
  const group = groups.get(key);
  if (!group) groups.set(key, [record]);
  else group.splice(upperBound(group, record, compareByRequestedOn), 0, record);
}

export function insertLeaveRequest(org: OrganizationData, record: LeaveRequestRecord): void {
  requestPlaces.delete(org);
  org.leaveRequests.splice(upperBound(org.leaveRequests, record, compareByRequestedOn), 0, record);
  org.index.leaveRequestById.set(record.id, record);
  insertSorted(org.index.requestsByStatus, record.statusId, record);
  insertSorted(org.index.requestsByDepartment, record.departmentId, record);
  insertSorted(org.index.requestsByDepartmentStatus, departmentStatusKey(record.departmentId, record.statusId), record);
  pushTo(org.index.requestsByEmployee, record.employeeId, record);
}

/** Puts `next` in the place of the record of its id, in the list and in its index. */
function replaceRecord<T extends { id: string }>(list: T[], byId: Map<string, T>, next: T): void {
  const previous = byId.get(next.id);
  if (!previous) throw new Error(`no record ${next.id} to replace`);
  replaceIn(list, previous, next);
  byId.set(next.id, next);
}

export function replaceEmployee(org: OrganizationData, next: EmployeeRecord): void {
  replaceRecord(org.employees, org.index.employeeById, next);
  forgetEmployeeTexts(org.employees);
}

export function insertEmployee(org: OrganizationData, record: EmployeeRecord): void {
  org.employees.splice(upperBound(org.employees, record, compareByCode), 0, record);
  org.index.employeeById.set(record.id, record);
  org.index.requestsByEmployee.set(record.id, []);
  forgetEmployeeTexts(org.employees);
}

export function replaceDepartment(org: OrganizationData, next: DepartmentRecord): void {
  replaceRecord(org.departments, org.index.departmentById, next);
}

/** Marks a balance as set up (a first request of the type does that); keeps an existing record. */
export function ensureBalanceSetUp(org: OrganizationData, employeeId: string, leaveTypeId: string): void {
  const key = balanceKey(employeeId, leaveTypeId);
  if (org.index.balanceSetUpByKey.has(key)) return;
  const record: BalanceSetUpRecord = { employeeId, leaveTypeId, carriedForwardDays: 0 };
  org.balanceSetUps.push(record);
  org.index.balanceSetUpByKey.set(key, record);
}
