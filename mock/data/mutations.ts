// Changes to the dataset that webhook events imply (leave approved, employee joined, ...). Each
// successful change puts new records in place of old ones and bumps dataset.version. Random picks
// use a faker seeded from (seed, version), so they are reproducible and never touch the generator.
import { writableOrganization } from "./copy-on-write.js";
import { englishFaker } from "./faker.js";
import { MS_PER_DAY, dayOf, isoDate, parseIsoDate, utcTimestamp } from "./dates.js";
import type { Dataset } from "./dataset.js";
import { isEligible } from "./eligibility.js";
import {
  Picker,
  emailFor,
  employeeCode,
  leaveRequestRecord,
  newEmployee,
  relieversFor,
  templateOfDepartment,
  templateOfLeaveType,
} from "./picker.js";
import {
  ensureBalanceSetUp,
  insertEmployee,
  insertLeaveRequest,
  replaceDepartment,
  replaceEmployee,
  replaceLeaveRequest,
  workCalendarOf,
} from "./organization.js";
import type { components } from "../../generated/control-api.js";
import type { EmployeeRecord, LeaveRequestRecord } from "./records.js";
import { ABANDONED, APPROVED, LEAVE_STATUS_NAMES, REJECTED, SUBMITTED, isLive, isWaiting, type LeaveStatusId } from "./statuses.js";
import { endAfterWorkingDays, nextWorkingDay, workingDays } from "./working-days.js";

type Schemas = components["schemas"];

export type MutationFailure =
  /** The organisation id is not in the dataset. */
  | "unknown-organization"
  /** The given id is not a record of that organisation. */
  | "not-found"
  /** The record exists but is in a state the change does not apply to. */
  | "not-allowed"
  /** No id was given and no record qualifies for the change. */
  | "none-available"
  /** A given value contradicts the data (dates that overlap the employee's other leave). */
  | "conflict";

/** `field` names the option at fault when it is not the record's id (an override: `set.startDate`). */
type MutationFailed = { ok: false; reason: MutationFailure; message: string; field?: string };
export type MutationResult<T> = { ok: true; record: T } | MutationFailed;

function fail(reason: MutationFailure, message: string, field?: string): MutationFailed {
  return field === undefined ? { ok: false, reason, message } : { ok: false, reason, message, field };
}

/** A picker for one mutation: seeded from the dataset's seed and version, independent of the generator. */
function mutationPicker(ds: Dataset): Picker {
  const faker = englishFaker();
  faker.seed([ds.seed, ds.version, 0x6d75]);
  return new Picker(faker);
}

const NO_ORG = (orgId: string) => fail("unknown-organization", `no organisation with id ${orgId} in the dataset`);

// ---- leave requests ---------------------------------------------------------------------------

function decide(
  ds: Dataset,
  orgId: string,
  id: string | undefined,
  to: LeaveStatusId,
  allowed: (r: LeaveRequestRecord) => boolean,
  allowedText: string,
): MutationResult<LeaveRequestRecord> {
  const org = writableOrganization(ds, orgId);
  if (!org) return NO_ORG(orgId);
  let record: LeaveRequestRecord | undefined;
  if (id !== undefined) {
    record = org.index.leaveRequestById.get(id.toLowerCase());
    if (!record) return fail("not-found", `no leave request with id ${id} in organisation ${orgId}`);
    if (!allowed(record)) {
      return fail("not-allowed", `leave request ${id} is ${LEAVE_STATUS_NAMES[record.statusId]}; only ${allowedText} requests can become ${LEAVE_STATUS_NAMES[to]}`);
    }
  } else {
    // Prefer requests that start from today to the end of this year: their change is what a
    // receiver acts upon, and it moves this year's balance, which the API shows. Then any upcoming
    // one, then any.
    const candidates = org.leaveRequests.filter(allowed);
    const upcoming = candidates.filter((r) => r.startDate >= ds.today);
    const thisYear = upcoming.filter((r) => r.startDate.slice(0, 4) === ds.today.slice(0, 4));
    const pool = thisYear.length > 0 ? thisYear : upcoming.length > 0 ? upcoming : candidates;
    if (pool.length === 0) return fail("none-available", `no ${allowedText} leave request in organisation ${orgId}`);
    record = mutationPicker(ds).pick(pool);
  }
  const next: LeaveRequestRecord = { ...record, statusId: to };
  replaceLeaveRequest(org, next);
  ds.version++;
  return { ok: true, record: next };
}

/** A waiting (Submitted or Pending) request becomes Approved; without an id, a waiting one is picked. */
export function approveLeaveRequest(ds: Dataset, orgId: string, id?: string): MutationResult<LeaveRequestRecord> {
  return decide(ds, orgId, id, APPROVED, (r) => isWaiting(r.statusId), "waiting (Submitted or Pending)");
}

/** A waiting (Submitted or Pending) request becomes Rejected. */
export function rejectLeaveRequest(ds: Dataset, orgId: string, id?: string): MutationResult<LeaveRequestRecord> {
  return decide(ds, orgId, id, REJECTED, (r) => isWaiting(r.statusId), "waiting (Submitted or Pending)");
}

/** A waiting or approved request is withdrawn: it becomes Abandoned (the design's leave.cancelled status). */
export function cancelLeaveRequest(ds: Dataset, orgId: string, id?: string): MutationResult<LeaveRequestRecord> {
  return decide(ds, orgId, id, ABANDONED, (r) => isWaiting(r.statusId) || r.statusId === APPROVED, "Submitted, Pending or Approved");
}

/**
 * What the new record is for (`K`: an id; default a random one that qualifies) and the fields the
 * caller sets (`set`: the control API's overrides schema of its event); the rest are picked.
 */
type AddOptions<K extends string, Set> = { [key in K]?: string } & { set?: Set };

type AddLeaveRequestOptions = AddOptions<"employeeId", Schemas["LeaveRequestedOverrides"]> & {
  /** When it was asked; default the real clock, kept within the dataset's today so it sorts after every generated request and before its start. */
  now?: Date;
};

/** A new Submitted request starting in the coming weeks; its days come from the calendar. */
export function addLeaveRequest(ds: Dataset, orgId: string, options: AddLeaveRequestOptions = {}): MutationResult<LeaveRequestRecord> {
  const org = writableOrganization(ds, orgId);
  if (!org) return NO_ORG(orgId);
  const p = mutationPicker(ds);
  const activeTypes = org.leaveTypes.filter((t) => t.isActive);

  let employee: EmployeeRecord | undefined;
  if (options.employeeId !== undefined) {
    employee = org.index.employeeById.get(options.employeeId.toLowerCase());
    if (!employee) return fail("not-found", `no employee with id ${options.employeeId} in organisation ${orgId}`);
    if (employee.status === "Terminated") return fail("not-allowed", `employee ${options.employeeId} is Terminated and cannot ask for leave`);
  } else {
    const pool = org.employees.filter((e) => e.status === "Active");
    if (pool.length === 0) return fail("none-available", `no Active employee in organisation ${orgId}`);
    employee = p.pick(pool);
  }
  const staff = employee;

  const set = options.set ?? {};
  let type = undefined as (typeof activeTypes)[number] | undefined;
  if (set.leaveTypeId !== undefined) {
    const field = "set.leaveTypeId";
    type = org.index.leaveTypeById.get(set.leaveTypeId.toLowerCase());
    if (!type) return fail("not-found", `no leave type with id ${set.leaveTypeId} in organisation ${orgId}`, field);
    if (!type.isActive) return fail("not-allowed", `leave type ${type.name} (${type.id}) is inactive and cannot be requested`, field);
    if (!isEligible(type, staff)) return fail("not-allowed", `employee ${staff.id} is not eligible for ${type.name} (${type.id})`, field);
  } else {
    const eligible = activeTypes.filter((t) => isEligible(t, staff));
    if (eligible.length === 0) return fail("none-available", `employee ${staff.id} is eligible for no active leave type`);
    type = p.weighted(eligible.map((t) => [t, templateOfLeaveType(t.name)?.weight ?? 1] as const));
  }
  const leaveType = type;

  const calendar = workCalendarOf(org, staff);
  const todayDay = dayOf(ds.today);
  const [minLength, maxLength] = templateOfLeaveType(leaveType.name)?.length ?? [1, 5];
  // The employee's requests that hold their days: a new one may not overlap them.
  const live = (org.index.requestsByEmployee.get(staff.id) ?? []).filter((r) => isLive(r.statusId));
  const clashOf = (s: number, e: number) => live.find((r) => dayOf(r.startDate) <= e && s <= dayOf(r.endDate));
  const pickedLength = () => p.skewedInt(minLength, Math.min(maxLength, Math.max(minLength, 5)));
  let startDay = 0;
  let endDay = -1;
  if (set.startDate !== undefined || set.endDate !== undefined) {
    const given = givenSpan(set, (start) => endAfterWorkingDays(start, pickedLength(), calendar));
    if (!given.ok) return given;
    [startDay, endDay] = [given.record.startDay, given.record.endDay];
    if (workingDays(isoDate(startDay), isoDate(endDay), calendar) === 0) {
      return fail("not-allowed", `${isoDate(startDay)} to ${isoDate(endDay)} holds no working day of employee ${staff.id} (weekends, holidays and days off)`, "set.startDate");
    }
    const clash = clashOf(startDay, endDay);
    if (clash) {
      return fail("conflict", `${isoDate(startDay)} to ${isoDate(endDay)} overlaps leave request ${clash.id} of employee ${staff.id} (${clash.startDate} to ${clash.endDate}, ${LEAVE_STATUS_NAMES[clash.statusId]})`, "set.startDate");
    }
  } else {
    for (let attempt = 0; attempt < 40 && endDay < 0; attempt++) {
      const s = nextWorkingDay(todayDay + p.int(7, 42), calendar);
      const e = endAfterWorkingDays(s, pickedLength(), calendar);
      if (!clashOf(s, e)) [startDay, endDay] = [s, e];
    }
    if (endDay < 0) return fail("none-available", `employee ${staff.id} has no free dates in the coming weeks`);
  }

  const todayStart = todayDay * MS_PER_DAY;
  const nowMs = (options.now ?? new Date()).getTime();
  const requestedMs = Math.min(Math.max(Number.isFinite(nowMs) ? nowMs : todayStart, todayStart), todayStart + MS_PER_DAY - 1);
  const id = p.uuid();
  const members = org.employees.filter((e) => e.departmentId === staff.departmentId);
  const relievers = relieversFor(p, staff, members, org.employees);
  const startDate = isoDate(startDay);
  const endDate = isoDate(endDay);
  const record = leaveRequestRecord(p, org.domain, staff, leaveType, {
    id,
    startDate,
    endDate,
    days: workingDays(startDate, endDate, calendar),
    statusId: SUBMITTED,
    comments: set.comments ?? p.pick(templateOfLeaveType(leaveType.name)?.comments ?? ["Time off."]),
    requestedOn: utcTimestamp(requestedMs),
    relievers,
  });
  insertLeaveRequest(org, record);
  ensureBalanceSetUp(org, staff.id, leaveType.id);
  ds.version++;
  return { ok: true, record };
}

/** The days of the given dates (checked for real calendar days), the end picked by `pickEnd` when only the start is given. */
function givenSpan(set: Schemas["LeaveRequestedOverrides"], pickEnd: (startDay: number) => number): MutationResult<{ startDay: number; endDay: number }> {
  if (set.startDate === undefined) return fail("not-allowed", "endDate needs startDate", "set.endDate");
  const startDay = parseIsoDate(set.startDate.slice(0, 10));
  if (startDay === undefined) return fail("not-allowed", `${set.startDate} is not a calendar date`, "set.startDate");
  if (set.endDate === undefined) return { ok: true, record: { startDay, endDay: pickEnd(startDay) } };
  const endDay = parseIsoDate(set.endDate.slice(0, 10));
  if (endDay === undefined) return fail("not-allowed", `${set.endDate} is not a calendar date`, "set.endDate");
  if (endDay < startDay) return fail("not-allowed", `endDate ${set.endDate} is before startDate ${set.startDate}`, "set.endDate");
  return { ok: true, record: { startDay, endDay } };
}

// ---- employees --------------------------------------------------------------------------------

/** A new Active employee in an Active department, with the next employee code. */
export function addEmployee(ds: Dataset, orgId: string, options: AddOptions<"departmentId", Schemas["EmployeeCreatedOverrides"]> = {}): MutationResult<EmployeeRecord> {
  const org = writableOrganization(ds, orgId);
  if (!org) return NO_ORG(orgId);
  const p = mutationPicker(ds);
  let department;
  if (options.departmentId !== undefined) {
    department = org.index.departmentById.get(options.departmentId.toLowerCase());
    if (!department) return fail("not-found", `no department with id ${options.departmentId} in organisation ${orgId}`);
    if (department.status !== "Active") return fail("not-allowed", `department ${department.name} (${department.id}) is InActive and takes no new employees`);
  } else {
    const pool = org.departments.filter((d) => d.status === "Active");
    if (pool.length === 0) return fail("none-available", `no Active department in organisation ${orgId}`);
    department = p.pick(pool);
  }
  const lastCode = org.employees.reduce((max, e) => Math.max(max, Number(e.code.slice(4)) || 0), 0);
  const takenEmails = new Set(org.employees.map((e) => e.email));
  const picked = newEmployee(p, {
    id: p.uuid(),
    code: employeeCode(lastCode + 1),
    department,
    template: templateOfDepartment(department.name),
    status: "Active",
    domain: org.domain,
    takenEmails,
  });
  const set = options.set ?? {};
  const firstName = set.firstName ?? picked.firstName;
  const lastName = set.lastName ?? picked.lastName;
  const named = set.firstName !== undefined || set.lastName !== undefined;
  const employee: EmployeeRecord = {
    ...picked,
    firstName,
    lastName,
    fullName: `${firstName} ${lastName}`,
    // The email follows the name, as for every generated employee.
    email: named ? emailFor(firstName, lastName, org.domain, takenEmails) : picked.email,
    workMode: set.workMode ?? picked.workMode,
    jobRoles: set.jobRoles ?? picked.jobRoles,
  };
  insertEmployee(org, employee);
  replaceDepartment(org, {
    ...department,
    membersCount: department.membersCount + 1,
    leadIds: department.leadIds.length > 0 ? department.leadIds : [employee.id],
  });
  ds.version++;
  return { ok: true, record: employee };
}

/**
 * The employee becomes Terminated and leaves the member count; a head is replaced by an Active
 * member when none would remain. Without an id, an Active employee who is not a head is picked.
 */
export function terminateEmployee(ds: Dataset, orgId: string, id?: string): MutationResult<EmployeeRecord> {
  const org = writableOrganization(ds, orgId);
  if (!org) return NO_ORG(orgId);
  let employee: EmployeeRecord | undefined;
  if (id !== undefined) {
    employee = org.index.employeeById.get(id.toLowerCase());
    if (!employee) return fail("not-found", `no employee with id ${id} in organisation ${orgId}`);
    if (employee.status === "Terminated") return fail("not-allowed", `employee ${id} is already Terminated`);
  } else {
    const heads = new Set(org.departments.flatMap((d) => d.leadIds));
    const pool = org.employees.filter((e) => e.status === "Active" && !heads.has(e.id));
    if (pool.length === 0) return fail("none-available", `no Active employee who is not a department head in organisation ${orgId}`);
    employee = mutationPicker(ds).pick(pool);
  }
  const next: EmployeeRecord = { ...employee, status: "Terminated" };
  replaceEmployee(org, next);
  const department = org.index.departmentById.get(next.departmentId);
  if (department) {
    let leadIds = department.leadIds.filter((l) => l !== next.id);
    if (leadIds.length === 0) {
      const successor = org.employees.find((e) => e.departmentId === department.id && e.status === "Active");
      leadIds = successor ? [successor.id] : [];
    }
    replaceDepartment(org, { ...department, membersCount: department.membersCount - 1, leadIds });
  }
  ds.version++;
  return { ok: true, record: next };
}
