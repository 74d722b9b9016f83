// The example records carry the examples' values (generated/facts.ts exampleRecords, read from the
// contract's success examples) where the data's rules allow: names, codes, texts, work mode, roles,
// dates. What the rules compute stays computed (days, balances, member and unit counts), and a value
// is kept from the generator when adopting it would break a rule; every such condition is named here.
import { exampleRecords } from "../../generated/facts.js";
import { dayFromYmd, dayOf, isoDate, yearOf } from "./dates.js";
import { isEligible } from "./eligibility.js";
import { emailFor, templateOfDepartment } from "./picker.js";
import { balanceKey, type OrganizationRecords } from "./organization.js";
import type { DepartmentRecord, EmployeeRecord, LeaveRequestRecord, LeaveTypeRecord } from "./records.js";
import { EXPIRED, isBudgeted, isLive, type LeaveStatusId } from "./statuses.js";
import { workingDays } from "./working-days.js";
import { DEPARTMENT_TEMPLATES } from "./catalogue.js";

/** The records chosen to be the examples' (their generated ids), and the example reliever's. */
interface ExampleChoice {
  department: string;
  employee: string;
  leaveType: string;
  leaveRequest: string;
  reliever?: string;
}

const { department: DEPARTMENT, employee: EMPLOYEE, leaveType: LEAVE_TYPE, leaveRequest: REQUEST } = exampleRecords;
/** The example request's status, widened: the rules below hold for any the example may show. */
const STATUS: LeaveStatusId = REQUEST.leaveStatusId;
/** The example reliever, as the leave request's example shows it. */
export const EXAMPLE_RELIEVER = REQUEST.relievers[0];
/** The example request's first and last day, and the day it was asked. */
const [START, END, ASKED] = [REQUEST.startDate.slice(0, 10), REQUEST.endDate.slice(0, 10), REQUEST.requestedOn.slice(0, 10)];
/** The example request's working days for `employee`. */
const exampleDays = (org: OrganizationRecords, employee: EmployeeRecord) => workingDays(START, END, { holidays: new Set(org.holidays.map((h) => h.date)), daysOff: employee.daysOff });

const byId = <T extends { id: string }>(list: readonly T[], id: string) => list.find((x) => x.id === id)!;
const replace = <T extends { id: string }>(list: T[], next: T) => list.splice(list.findIndex((x) => x.id === next.id), 1, next);

/** The example's department name's template, and its employees' roles and units re-themed from the old one's (by position), so a renamed department's people do its work. */
function adoptDepartment(org: OrganizationRecords, department: DepartmentRecord, headId: string, today: string): void {
  const from = DEPARTMENT_TEMPLATES.find((t) => t.name === department.name);
  const to = DEPARTMENT_TEMPLATES.find((t) => t.name === DEPARTMENT.name);
  const sameCompany = org.departments.filter((d) => d.companyId === department.companyId && d.id !== department.id);
  const renamed = !sameCompany.some((d) => d.name === DEPARTMENT.name);
  const retheme = renamed && from !== undefined && to !== undefined && from !== to && department.units.length <= to.units.length;
  replace(org.departments, {
    ...department,
    name: renamed ? DEPARTMENT.name : department.name,
    description: DEPARTMENT.description,
    // A creation date after today would be from the future.
    created: DEPARTMENT.created.slice(0, 10) < today ? DEPARTMENT.created : department.created,
    units: retheme ? department.units.map((u, i) => ({ ...u, name: to.units[i] })) : department.units,
    // The examples show one head, the example employee (an Active member, chosen so).
    leadIds: [headId],
  });
  if (!retheme) return;
  for (const e of org.employees.filter((x) => x.departmentId === department.id)) {
    replace(org.employees, { ...e, jobRoles: [...new Set(e.jobRoles.map((role) => to.roles[Math.max(0, from.roles.indexOf(role)) % to.roles.length]))] });
  }
}

/** The example's names, code, work mode and roles; the email follows the name at the organisation's domain (the examples' example.com is another domain). */
function adoptEmployee(org: OrganizationRecords, domain: string, employee: EmployeeRecord, shown: { firstName: string; lastName: string; workMode?: EmployeeRecord["workMode"]; jobRoles?: readonly string[]; code?: string }): void {
  const taken = new Set(org.employees.filter((e) => e.id !== employee.id).map((e) => e.email));
  const holder = shown.code === undefined ? undefined : org.employees.find((e) => e.code === shown.code && e.id !== employee.id);
  // Codes are unique: the employee who had the example's code takes the example employee's.
  if (holder) replace(org.employees, { ...holder, code: employee.code });
  const roles = templateOfDepartment(org.departments.find((d) => d.id === employee.departmentId)?.name ?? "").roles;
  replace(org.employees, {
    ...employee,
    code: shown.code ?? employee.code,
    firstName: shown.firstName,
    lastName: shown.lastName,
    fullName: `${shown.firstName} ${shown.lastName}`,
    email: emailFor(shown.firstName, shown.lastName, domain, taken),
    workMode: shown.workMode ?? employee.workMode,
    // Roles of the department's kind only.
    jobRoles: shown.jobRoles && shown.jobRoles.every((r) => roles.includes(r)) ? shown.jobRoles : employee.jobRoles,
  });
  // Handoff notes name their relievers by first name.
  const named = new RegExp(`\\b${employee.firstName.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`, "g");
  for (const r of org.leaveRequests.filter((x) => x.relieverIds.includes(employee.id))) replace(org.leaveRequests, { ...r, handoffNote: r.handoffNote.replace(named, shown.firstName) });
}

/** Budgeted days of one employee's requests of a type in a year, leaving one request out. */
function liveDays(org: OrganizationRecords, employeeId: string, typeId: string, year: number, except?: string): number {
  return org.leaveRequests.filter((r) => r.employeeId === employeeId && r.leaveTypeId === typeId && r.id !== except && isBudgeted(r.statusId) && yearOf(r.startDate) === year).reduce((n, r) => n + r.days, 0);
}

/** Whether each employee's budgeted days of the type in each year of their requests of it (liveDays) stay within `max`: summed once per employee and year (liveDays per request was quadratic, a seventh of createDataset's time). */
function budgetsHold(org: OrganizationRecords, typeId: string, max: number): boolean {
  const ofType = org.leaveRequests.filter((r) => r.leaveTypeId === typeId);
  const key = (r: LeaveRequestRecord) => `${r.employeeId}|${yearOf(r.startDate)}`;
  const days = new Map<string, number>();
  for (const r of ofType) if (isBudgeted(r.statusId)) days.set(key(r), (days.get(key(r)) ?? 0) + r.days);
  return ofType.every((r) => (days.get(key(r)) ?? 0) <= max);
}

/** The example's texts; its days' budget and carry-forward where no request or balance of the type breaks them; its dates where they are before today. */
function adoptLeaveType(org: OrganizationRecords, type: LeaveTypeRecord, today: string): void {
  const budgetHolds = budgetsHold(org, type.id, LEAVE_TYPE.maxLeaveDays);
  const carriesHold = LEAVE_TYPE.carryForward.maxCarryForwardLimit > 0 || org.balanceSetUps.every((b) => b.leaveTypeId !== type.id || b.carriedForwardDays === 0);
  const datesHold = LEAVE_TYPE.lastModified.slice(0, 10) < today;
  replace(org.leaveTypes, {
    ...type,
    name: org.leaveTypes.some((t) => t.id !== type.id && t.name === LEAVE_TYPE.name) ? type.name : LEAVE_TYPE.name,
    description: LEAVE_TYPE.description,
    maxLeaveDays: budgetHolds ? LEAVE_TYPE.maxLeaveDays : type.maxLeaveDays,
    carryForward: carriesHold ? LEAVE_TYPE.carryForward : type.carryForward,
    // A type that needs no document can drop its list; one that does keeps what its requests carry.
    ...(LEAVE_TYPE.requiresDocument === false ? { requiresDocument: false, requiredDocument: [] } : {}),
    ...(datesHold ? { created: LEAVE_TYPE.created, lastModified: LEAVE_TYPE.lastModified } : {}),
  });
}

/**
 * Why the example's dates and status cannot be the request's for this today, or undefined when they
 * can: the generator's rules (asked before today and before it starts; in the window of records,
 * 1 January of last year to 150 days ahead, which the holiday calendar covers; statuses fit the
 * time; no overlap with the employee's live requests; the type's yearly budget).
 */
function requestDatesRefusal(org: OrganizationRecords, request: LeaveRequestRecord, today: string): string | undefined {
  const windowStart = isoDate(dayFromYmd(yearOf(today) - 1, 1, 1));
  const windowEnd = isoDate(dayOf(today) + 150);
  if (!(ASKED < today)) return `it was asked on ${ASKED}, not before today (${today})`;
  if (START < windowStart || START > windowEnd) return `${START} is outside the records' window for today ${today} (${windowStart} to ${windowEnd})`;
  if (STATUS === EXPIRED && !(END < today)) return `Expired before its end (${END})`;
  const employee = byId(org.employees, request.employeeId);
  const type = byId(org.leaveTypes, request.leaveTypeId);
  if (!(employee.status === "Active" && type.isActive) && !(START < today)) return "an inactive employee's or type's request only in the past";
  const days = exampleDays(org, employee);
  if (days < 1) return "no working day in it";
  const clash = org.leaveRequests.find((r) => r.employeeId === employee.id && r.id !== request.id && isLive(r.statusId) && r.startDate <= END && START <= r.endDate);
  if (isLive(STATUS) && clash) return `it overlaps the employee's request ${clash.startDate} to ${clash.endDate}`;
  if (isBudgeted(STATUS) && liveDays(org, employee.id, type.id, yearOf(START), request.id) + days > type.maxLeaveDays) return `the ${type.name} budget of ${yearOf(START)} would be exceeded`;
  return undefined;
}

/** The example's texts, document and reliever; its type, dates, status and request time where requestDatesRefusal finds no rule against them. */
function adoptRequest(org: OrganizationRecords, domain: string, request: LeaveRequestRecord, leaveTypeId: string, relieverId: string | undefined, today: string): void {
  const employee = byId(org.employees, request.employeeId);
  const type = byId(org.leaveTypes, leaveTypeId);
  const typed = isEligible(type, employee) ? { ...request, leaveTypeId } : request;
  const refusal = requestDatesRefusal(org, typed, today);
  const dated: LeaveRequestRecord = refusal !== undefined ? typed : {
    ...typed,
    startDate: START,
    endDate: END,
    days: exampleDays(org, employee),
    statusId: STATUS,
    requestedOn: REQUEST.requestedOn,
  };
  const [document] = REQUEST.documents;
  replace(org.leaveRequests, {
    ...dated,
    comments: REQUEST.comments,
    // A public link as the data's links are made (the organisation's files host, the request's id: the example's own link is at another domain, under the document's id).
    documents: document ? [{ id: document.id, name: document.name, mime: document.mime, storage: 0, document: `https://files.${domain}/leave/${REQUEST.id}/${document.name}` }] : dated.documents,
    relieverIds: relieverId ? [relieverId] : dated.relieverIds,
    handoffNote: REQUEST.handoffNote,
  });
  // Every pair with a request has its balance set up.
  if (!org.balanceSetUps.some((b) => balanceKey(b.employeeId, b.leaveTypeId) === balanceKey(employee.id, type.id))) org.balanceSetUps.push({ employeeId: employee.id, leaveTypeId: type.id, carriedForwardDays: 0 });
}

/** Gives the chosen records (still under their generated ids) the examples' values, in place. */
export function adoptExampleValues(org: OrganizationRecords, choice: ExampleChoice, today: string): void {
  adoptDepartment(org, byId(org.departments, choice.department), choice.employee, today);
  adoptEmployee(org, org.domain, byId(org.employees, choice.employee), { ...REQUEST, code: EMPLOYEE.employeeId, firstName: EMPLOYEE.firstName, lastName: EMPLOYEE.lastName });
  if (choice.reliever !== undefined) {
    const [firstName, ...rest] = EXAMPLE_RELIEVER.fullName.split(" ");
    adoptEmployee(org, org.domain, byId(org.employees, choice.reliever), { firstName, lastName: rest.join(" ") });
  }
  adoptRequest(org, org.domain, byId(org.leaveRequests, choice.leaveRequest), choice.leaveType, choice.reliever, today);
  // Last: the budget it may take is checked against every request as it now is.
  adoptLeaveType(org, byId(org.leaveTypes, choice.leaveType), today);
}
