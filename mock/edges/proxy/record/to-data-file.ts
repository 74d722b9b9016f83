// The records a run revealed (recorder.ts) as a data file: every record seen keeps its id and the
// fields the answers showed; a record referred to but never shown in full (a leave type named by a
// request, the department named by a leave request's details) gets the fields the format requires
// and the rest is left to the data file's rules. What the API derives (working days, balances,
// counts, a type's companies) is not written: the mock computes it, and verify.ts reports where that
// differs from what was recorded. What the API never shows is set so the records seen stay valid:
// no regular days off and no holidays (the recorded working days decide), leave types for either
// sex, and a leave type's eligible group drawn from those who were seen asking for it.
import { randomUUID } from "node:crypto";
import type { DataFile } from "../../../data/data-file.js";
import { LEAVE_STATUS_NAMES } from "../../../data/statuses.js";
import type { components } from "../../../../generated/api.js";
import type { Kept, Recorded, SeenDepartment, SeenEmployee, SeenLeaveRequest } from "./recorder.js";

type Schemas = components["schemas"];

type Organisation = NonNullable<DataFile["organisations"]>[number];
type Department = NonNullable<Organisation["departments"]>[number];
type Employee = NonNullable<Organisation["employees"]>[number];
type LeaveType = NonNullable<Organisation["leaveTypes"]>[number];
type LeaveRequest = NonNullable<Organisation["leaveRequests"]>[number];

const ORGANISATIONS = 2;
/** The department of employees whose own no answer showed. */
const UNSEEN_DEPARTMENT = "Department not seen";

/** `recorded` as a data file dated `today`; `uuid` makes the ids of records the file needs but no answer showed. */
export function recordedDataFile(recorded: Recorded, today: string, uuid: () => string = randomUUID): { file: DataFile; notes: string[] } {
  const notes: string[] = [];
  const byOrganisation = new Map<number, Slice>();
  const sliceOf = (group: number) => {
    const root = recorded.organisationOf(group);
    if (!byOrganisation.has(root)) byOrganisation.set(root, { leaveRequests: [], leaveTypes: [], departments: [], employees: [], balances: [] });
    return byOrganisation.get(root)!;
  };
  for (const kind of ["leaveRequests", "leaveTypes", "departments", "employees", "balances"] as const) {
    for (const [id, kept] of recorded[kind] as Map<string, Kept<unknown>>) (sliceOf(kept.group)[kind] as [string, unknown][]).push([id, kept.value]);
  }
  const roots = [...byOrganisation.keys()].sort((a, b) => a - b);
  if (roots.length > 1) notes.push(`the keys that asked fall in ${roots.length} groups that saw no record in common, recorded as ${Math.min(roots.length, ORGANISATIONS)} organisations (a key reaches one organisation; keys that saw a record in common are one)`);
  if (roots.length > ORGANISATIONS) notes.push(`records of ${roots.length - ORGANISATIONS} more organisation(s) were left out: a data file holds ${ORGANISATIONS}`);
  if (recorded.dropped > 0) notes.push(`${recorded.dropped} records seen past the recording's bound were not kept`);
  const organisations = roots.slice(0, ORGANISATIONS).map((root) => organisationOf(byOrganisation.get(root)!, uuid, notes));
  return { file: { today, organisations }, notes };
}

/** One organisation's records, each kind as [id, record] in the order first seen. */
interface Slice {
  leaveRequests: [string, SeenLeaveRequest][];
  leaveTypes: [string, Schemas["LeaveType"]][];
  departments: [string, SeenDepartment][];
  employees: [string, SeenEmployee][];
  balances: [string, Schemas["LeaveBalance"]][];
}

function organisationOf(slice: Slice, uuid: () => string, notes: string[]): Organisation {
  const companies = new Map<string, { id: string; name: string }>();
  const company = (id: string) => companies.get(id) ?? (companies.set(id, { id, name: `Company ${companies.size + 1}` }), companies.get(id)!);

  // Departments as seen; each with as many units as its unitsCount said (the API shows no unit).
  const departments = new Map<string, Department>();
  for (const [id, seen] of slice.departments) {
    const base = seen.details ?? seen.base;
    if (!base) continue;
    const heads = seen.details?.leaders ?? seen.leads ?? [];
    const entry: Department = { id, name: base.name, status: base.status, created: base.created, units: placeholderUnits(base.unitsCount, uuid), leadIds: heads.map((h) => h.id.toLowerCase()) };
    if (seen.details) {
      entry.description = seen.details.description;
      entry.companyId = company(seen.details.companyId.toLowerCase()).id;
    }
    departments.set(id, entry);
  }
  const departmentNamed = (name: string, named = true): string => {
    const found = [...departments.values()].find((d) => d.name === name);
    if (found) return found.id!;
    const made: Department = { id: uuid(), name, units: [] };
    departments.set(made.id!, made);
    if (named) notes.push(`department ${JSON.stringify(name)} was named by a leave request's details but never listed: recorded by name only`);
    return made.id!;
  };

  // Employees: names from what showed them best; their department from its heads, else by name.
  const employees = new Map<string, Employee>();
  let unplaced = 0;
  let unnamed = 0;
  for (const [id, seen] of slice.employees) {
    const [firstName, lastName] = namesOf(seen);
    if (firstName === undefined) unnamed++;
    let departmentId = seen.departmentId ?? (seen.departmentName ? departmentNamed(seen.departmentName) : undefined);
    if (departmentId === undefined) {
      // Not in a department that was seen, whose member count would then be wrong: in one of their own.
      unplaced++;
      departmentId = departmentNamed(UNSEEN_DEPARTMENT, false);
    }
    const shown = Object.entries({ code: seen.code, email: seen.email, workMode: seen.workMode, jobRoles: seen.jobRoles, status: seen.status }).filter(([, value]) => value !== undefined);
    employees.set(id, { id, firstName: firstName ?? "Unnamed", lastName: lastName ?? "", departmentId, daysOff: [], ...Object.fromEntries(shown) });
  }
  if (unplaced > 0) notes.push(`${unplaced} employee(s) whose department no answer showed were placed in a department of their own, ${JSON.stringify(UNSEEN_DEPARTMENT)}`);
  if (unnamed > 0) notes.push(`${unnamed} employee(s) seen by id only (a balance asked for them) were named "Unnamed"`);

  // Leave types as listed, and one for each name a request showed that no list did.
  const leaveTypes = new Map<string, LeaveType>();
  for (const [id, t] of slice.leaveTypes) {
    leaveTypes.set(id, {
      id,
      name: t.name,
      description: t.description,
      maxLeaveDays: t.maxLeaveDays,
      carryForward: t.carryForward,
      eligibilityCriteria: t.eligibilityCriteria,
      forSex: null,
      requiredDocument: t.requiredDocument,
      isActive: t.isActive,
      created: t.created,
      lastModified: t.lastModified,
    });
  }
  const typeNamed = (name: string): string => {
    const found = [...leaveTypes.values()].find((t) => t.name === name);
    if (found) return found.id!;
    const made: LeaveType = { id: uuid(), name, forSex: null };
    leaveTypes.set(made.id!, made);
    notes.push(`leave type ${JSON.stringify(name)} was named by leave requests but never listed: recorded by name only`);
    return made.id!;
  };

  const leaveRequests: LeaveRequest[] = [];
  const askers = new Map<string, Set<string>>();
  for (const [id, seen] of slice.leaveRequests) {
    const { summary, details } = seen;
    const leaveTypeId = typeNamed(summary.leaveTypeName);
    const employeeId = summary.employeeId.toLowerCase();
    if (!askers.has(leaveTypeId)) askers.set(leaveTypeId, new Set());
    askers.get(leaveTypeId)!.add(employeeId);
    const entry: LeaveRequest = { id, employeeId, leaveTypeId, startDate: summary.startDate.slice(0, 10), endDate: summary.endDate.slice(0, 10), comments: summary.comments, requestedOn: summary.requestedOn };
    if ((LEAVE_STATUS_NAMES as readonly string[]).includes(summary.leaveStatus)) entry.status = summary.leaveStatus;
    if (details) {
      entry.documents = details.documents;
      entry.relieverIds = details.relievers.map((r) => r.id.toLowerCase());
      entry.handoffNote = details.handoffNote;
    }
    leaveRequests.push(entry);
  }

  // A type for some group only: the groups of those seen asking for it (the API never shows them).
  for (const type of leaveTypes.values()) {
    const criteria = type.eligibilityCriteria ?? 0;
    if (criteria === 0) continue;
    const who = [...(askers.get(type.id!) ?? [])].map((id) => employees.get(id)).filter((e): e is Employee => e !== undefined);
    const distinct = (ids: (string | undefined)[]) => [...new Set(ids.filter((x): x is string => x !== undefined))];
    if (criteria === 1) {
      if (companies.size === 0 && who.length > 0) company(uuid());
      const theirs = distinct(who.map((e) => departments.get(e.departmentId)?.companyId ?? [...companies.keys()][0]));
      type.eligibleIds = theirs;
    } else if (criteria === 2) type.eligibleIds = distinct(who.map((e) => e.departmentId));
    else if (criteria === 3) type.eligibleIds = distinct(who.map((e) => unitFor(e, departments.get(e.departmentId)!, uuid, notes)));
    else type.eligibleIds = who.map((e) => e.id!);
  }

  // Balances asked for (their carried days read back from totalDays), and every pair with a request.
  const balancesSetUp: NonNullable<Organisation["balancesSetUp"]> = [];
  const pairs = new Set<string>();
  for (const [key, balance] of slice.balances) {
    const [employeeId, leaveTypeId] = key.split("|");
    const type = leaveTypes.get(leaveTypeId);
    if (!type || !employees.has(employeeId)) {
      notes.push(`a balance of a leave type no list showed was left out (${leaveTypeId.slice(0, 8)}…)`);
      continue;
    }
    pairs.add(key);
    const carried = type.maxLeaveDays === undefined ? undefined : Math.min(366, Math.max(0, balance.totalDays - type.maxLeaveDays));
    balancesSetUp.push(carried === undefined ? { employeeId, leaveTypeId } : { employeeId, leaveTypeId, carriedForwardDays: carried });
  }
  for (const r of leaveRequests) {
    const key = `${r.employeeId}|${r.leaveTypeId}`;
    if (!pairs.has(key)) pairs.add(key), balancesSetUp.push({ employeeId: r.employeeId, leaveTypeId: r.leaveTypeId });
  }

  const organisation: Organisation = {};
  const domain = commonDomain([...employees.values()].map((e) => e.email));
  if (domain) organisation.domain = domain;
  if (companies.size) organisation.companies = [...companies.values()];
  if (departments.size) organisation.departments = [...departments.values()];
  if (employees.size) organisation.employees = [...employees.values()];
  if (leaveTypes.size) organisation.leaveTypes = [...leaveTypes.values()];
  if (leaveRequests.length) {
    organisation.leaveRequests = leaveRequests;
    // The API shows no holiday; the recorded working days are the upstream's, holidays included.
    organisation.holidays = [];
  }
  if (slice.balances.length || leaveRequests.length) organisation.balancesSetUp = balancesSetUp;
  return organisation;
}

/** First and last name: as shown, or read from the full name (the first word, then the rest). */
function namesOf(seen: SeenEmployee): [string | undefined, string | undefined] {
  const full = seen.fullName?.trim();
  const first = seen.firstName ?? (full ? full.split(/\s+/)[0] : undefined);
  if (seen.lastName !== undefined) return [first, seen.lastName];
  if (full && first && full.startsWith(`${first} `)) return [first, full.slice(first.length + 1)];
  return [first, undefined];
}

function placeholderUnits(count: number, uuid: () => string): { id: string; name: string }[] {
  return Array.from({ length: Math.max(0, Math.min(50, count)) }, (_, i) => ({ id: uuid(), name: `Unit ${i + 1}` }));
}

/** The unit of an employee who asked for a unit-wide type: one of the department's, made when it has none. */
function unitFor(employee: Employee, department: Department, uuid: () => string, notes: string[]): string {
  if (employee.unitId) return employee.unitId;
  department.units ??= [];
  if (department.units.length === 0) {
    department.units.push({ id: uuid(), name: "Unit 1" });
    notes.push(`department ${JSON.stringify(department.name)} was given a unit: a unit-wide leave type was asked for by its members`);
  }
  employee.unitId = department.units[0].id!;
  return employee.unitId;
}

function commonDomain(emails: (string | undefined)[]): string | undefined {
  const counts = new Map<string, number>();
  for (const email of emails) {
    const domain = email?.split("@")[1]?.toLowerCase();
    if (domain) counts.set(domain, (counts.get(domain) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
}
