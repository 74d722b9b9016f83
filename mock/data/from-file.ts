// A data file's entries as records: what an entry leaves out is picked as the generator would, what
// the API derives is computed, and each rule the schema cannot state (an id naming a record, a date
// order) is reported as a problem at the entry's JSON pointer, never thrown.
import type { components } from "../../generated/data-file.js";
import { dayFromYmd, dayOf, parseIsoDate, utcTimestamp } from "./dates.js";
import { isEligible } from "./eligibility.js";
import { DAYS_OFF, emailFor, leaveRequestRecord, relieversFor, slug, templateOfDepartment, templateOfLeaveType, WORK_MODES, type Picker } from "./picker.js";
import { leaveTemplateOf, statusFor, type RequestContext } from "./generate-requests.js";
import type { CompanyRecord, HolidayRecord, DepartmentRecord, EmployeeRecord, LeaveRequestRecord, LeaveTypeRecord } from "./records.js";
import { leaveStatusId } from "./statuses.js";
import { workingDays } from "./working-days.js";

type File = components["schemas"];
export type DataFile = File["DataFile"];

/** One rule a data file breaks: where (a JSON pointer into the file) and what. */
export interface DataFileProblem {
  pointer: string;
  message: string;
}

/** An organisation's entry in a data file, with where its problems are reported. */
export interface GivenOrganization {
  input: File["Organisation"];
  /** The JSON pointer of a place inside the entry (`employees/3`). */
  at(path: string): Place;
  /** Leave type ids the file gives to the other organisations (to name that mistake). */
  otherLeaveTypeIds: ReadonlySet<string>;
  problems: DataFileProblem[];
}

export interface Place {
  pointer: string;
  problem(field: string | undefined, message: string): void;
}

/** A timestamp as the API writes them (7 fractional digits, Z), from any ISO date-time text. */
function timestamp(text: string | undefined, place: Place, field: string, fallback: () => string): string {
  if (text === undefined) return fallback();
  const ms = Date.parse(text);
  if (Number.isNaN(ms) || !/(Z|[+-]\d{2}:\d{2})$/i.test(text)) {
    place.problem(field, `${JSON.stringify(text)} is not a date-time with a zone (2025-01-06T08:00:00Z)`);
    return fallback();
  }
  return utcTimestamp(ms);
}

export function givenDepartment(p: Picker, d: File["Department"], place: Place, ctx: { companies: readonly CompanyRecord[]; year: number; todayDay: number }): DepartmentRecord {
  const template = templateOfDepartment(d.name);
  let companyId = d.companyId ?? ctx.companies[0]?.id ?? "";
  if (d.companyId !== undefined && !ctx.companies.some((c) => c.id === d.companyId)) {
    place.problem("companyId", `${d.companyId} is not a company of this organisation`);
  }
  if (ctx.companies.length === 0) {
    place.problem("companyId", "the organisation has no company for the department");
    companyId = "";
  }
  const units = d.units
    ? d.units.map((u) => ({ id: u.id ?? p.uuid(), name: u.name }))
    : p.some(template.units, p.int(0, template.units.length)).map((name) => ({ id: p.uuid(), name }));
  return {
    id: d.id ?? p.uuid(),
    companyId,
    name: d.name,
    description: d.description ?? (template.name === d.name ? template.description : `The ${d.name} department.`),
    status: d.status ?? "Active",
    created: timestamp(d.created, place, "created", () => p.timestampBetween(dayFromYmd(ctx.year - 6, 1, 1), ctx.todayDay - 90)),
    units,
    leadIds: [],
    membersCount: 0,
  };
}

export function givenEmployee(
  p: Picker,
  e: File["Employee"],
  place: Place,
  ctx: { departmentById: ReadonlyMap<string, DepartmentRecord>; templateOf: ReadonlyMap<string, ReturnType<typeof templateOfDepartment>>; domain: string; takenEmails: Set<string>; nextCode: () => string },
): EmployeeRecord | undefined {
  const department = ctx.departmentById.get(e.departmentId);
  if (!department) {
    place.problem("departmentId", `${e.departmentId} is not a department of this organisation`);
    return undefined;
  }
  if (e.unitId && !department.units.some((u) => u.id === e.unitId)) place.problem("unitId", `${e.unitId} is not a unit of department ${department.name}`);
  const sex = e.sex ?? (p.faker.person.sexType() === "female" ? "female" : "male");
  const template = ctx.templateOf.get(department.id) ?? templateOfDepartment(department.name);
  return {
    id: e.id ?? p.uuid(),
    code: e.code ?? ctx.nextCode(),
    firstName: e.firstName,
    lastName: e.lastName,
    fullName: `${e.firstName} ${e.lastName}`,
    email: e.email ?? emailFor(e.firstName, e.lastName, ctx.domain, ctx.takenEmails),
    sex,
    workMode: e.workMode ?? p.weighted(WORK_MODES),
    jobRoles: e.jobRoles ?? p.some(template.roles, 1),
    companyId: department.companyId,
    departmentId: department.id,
    unitId: e.unitId !== undefined ? e.unitId : department.units.length > 0 ? p.pick(department.units).id : null,
    daysOff: e.daysOff ? [...e.daysOff].sort((a, b) => a - b) : p.weighted(DAYS_OFF),
    status: e.status ?? "Active",
  };
}

type KnownIds = Record<"companies" | "departments" | "units" | "employees", ReadonlySet<string>>;

const ELIGIBLE_KIND: Record<1 | 2 | 3 | 4, [keyof KnownIds, string]> = { 1: ["companies", "company"], 2: ["departments", "department"], 3: ["units", "unit"], 4: ["employees", "employee"] };

export function givenLeaveType(
  p: Picker,
  t: File["LeaveType"],
  place: Place,
  ctx: { domain: string; year: number; todayDay: number; annualDays: number; known: KnownIds; companyIdsOf: (criteria: LeaveTypeRecord["eligibilityCriteria"], ids: readonly string[]) => string[] },
): LeaveTypeRecord {
  const template = templateOfLeaveType(t.name);
  const criteria = t.eligibilityCriteria ?? template?.eligibility ?? 0;
  const eligibleIds = t.eligibleIds ?? [];
  if (criteria === 0 && eligibleIds.length > 0) place.problem("eligibleIds", "eligibility criteria 0 (everyone) takes no eligible ids");
  if (criteria !== 0) {
    const [collection, what] = ELIGIBLE_KIND[criteria];
    eligibleIds.forEach((id, i) => {
      if (!ctx.known[collection].has(id)) place.problem(`eligibleIds/${i}`, `${id} is not a ${what} of this organisation (eligibility criteria ${criteria} lists ${what} ids)`);
    });
  }
  const createdDay = p.int(dayFromYmd(ctx.year - 4, 1, 1), dayFromYmd(ctx.year - 1, 1, 1) - 1);
  const created = timestamp(t.created, place, "created", () => p.timestampOn(createdDay, 8, 17));
  const lastModified = timestamp(t.lastModified, place, "lastModified", () => p.timestampBetween(createdDay + 1, ctx.todayDay - 1));
  if (lastModified < created) place.problem("lastModified", `${t.lastModified ?? lastModified} is before created ${created}`);
  const requiredDocument = t.requiredDocument ?? (template?.documents ?? []).map((name) => ({ id: p.uuid(), name, document: `https://files.${ctx.domain}/templates/${slug(name)}.docx` }));
  return {
    id: t.id ?? p.uuid(),
    name: t.name,
    description: t.description ?? template?.description ?? `${t.name}.`,
    maxLeaveDays: t.maxLeaveDays ?? template?.maxLeaveDays ?? ctx.annualDays,
    carryForward: t.carryForward ?? (template ? { maxCarryForwardLimit: template.carry[0], expirationDate: template.carry[1] as LeaveTypeRecord["carryForward"]["expirationDate"] } : { maxCarryForwardLimit: 0, expirationDate: 0 }),
    eligibilityCriteria: criteria,
    eligibleIds,
    companyIds: ctx.companyIdsOf(criteria, eligibleIds),
    forSex: t.forSex !== undefined ? t.forSex : (template?.forSex ?? null),
    requiresDocument: requiredDocument.length > 0,
    requiredDocument,
    isActive: t.isActive ?? true,
    created,
    lastModified,
  };
}

export function givenHolidays(holidays: readonly File["Holiday"][], given: GivenOrganization): HolidayRecord[] {
  const seen = new Set<string>();
  holidays.forEach((h, i) => {
    if (parseIsoDate(h.date) === undefined) given.at(`holidays/${i}`).problem("date", `${h.date} is not a calendar date`);
    else if (seen.has(h.date)) given.at(`holidays/${i}`).problem("date", `${h.date} is listed twice`);
    seen.add(h.date);
  });
  return holidays.map((h) => ({ date: h.date, name: h.name })).sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

export function givenRequest(
  p: Picker,
  r: File["LeaveRequest"],
  place: Place,
  ctx: Omit<RequestContext, "target"> & { employeeById: ReadonlyMap<string, EmployeeRecord>; otherLeaveTypeIds: ReadonlySet<string> },
): LeaveRequestRecord | undefined {
  const employee = ctx.employeeById.get(r.employeeId);
  const type = ctx.leaveTypes.find((t) => t.id === r.leaveTypeId);
  if (!employee) place.problem("employeeId", `${r.employeeId} is not an employee of this organisation`);
  if (!type) {
    const elsewhere = ctx.otherLeaveTypeIds.has(r.leaveTypeId);
    place.problem("leaveTypeId", elsewhere ? `${r.leaveTypeId} is a leave type of another organisation` : `${r.leaveTypeId} is not a leave type of this organisation`);
  }
  const start = parseIsoDate(r.startDate);
  const end = parseIsoDate(r.endDate);
  if (start === undefined) place.problem("startDate", `${r.startDate} is not a calendar date`);
  if (end === undefined) place.problem("endDate", `${r.endDate} is not a calendar date`);
  if (start !== undefined && end !== undefined && end < start) place.problem("endDate", `${r.endDate} is before startDate ${r.startDate}`);
  if (!employee || !type || start === undefined || end === undefined || end < start) return undefined;
  if (!isEligible(type, employee)) place.problem("leaveTypeId", `employee ${employee.fullName} is not eligible for ${type.name}`);
  const calendar = { holidays: ctx.holidayDates, daysOff: employee.daysOff };
  const days = workingDays(r.startDate, r.endDate, calendar);
  if (days < 1) place.problem("endDate", `${r.startDate} to ${r.endDate} holds no working day of ${employee.fullName}`);
  const startDay = dayOf(r.startDate);
  const endDay = dayOf(r.endDate);
  const id = r.id ?? p.uuid();
  const requestedDay = Math.min(startDay - p.skewedInt(1, 60), ctx.todayDay - 1 - p.skewedInt(0, 40));
  const relievers = r.relieverIds ? undefined : relieversFor(p, employee, ctx.membersOf.get(employee.departmentId) ?? [], ctx.employees);
  (r.relieverIds ?? []).forEach((rid, i) => {
    if (!ctx.employeeById.has(rid)) place.problem(`relieverIds/${i}`, `${rid} is not an employee of this organisation`);
  });
  const relieverRecords = relievers ?? (r.relieverIds ?? []).flatMap((rid) => ctx.employeeById.get(rid) ?? []);
  return leaveRequestRecord(p, ctx.domain, employee, type, {
    id,
    startDate: r.startDate,
    endDate: r.endDate,
    days,
    statusId: r.status ? leaveStatusId(r.status) : statusFor(p, startDay, endDay, ctx.todayDay),
    comments: r.comments ?? p.pick(leaveTemplateOf(type.name).comments),
    requestedOn: timestamp(r.requestedOn, place, "requestedOn", () => p.timestampOn(requestedDay, 6, 21)),
    relievers: relieverRecords,
    documents: r.documents?.map((d) => ({ id: d.id, name: d.name, mime: d.mime, storage: d.document.startsWith("app://") ? (1 as const) : (0 as const), document: d.document })),
    handoffNote: r.handoffNote,
  });
}

export function givenBalances(
  pairs: readonly File["BalanceSetUp"][],
  given: GivenOrganization,
  ctx: { employeeById: ReadonlyMap<string, EmployeeRecord>; leaveTypeById: ReadonlyMap<string, LeaveTypeRecord> },
): File["BalanceSetUp"][] {
  const seen = new Set<string>();
  return pairs.filter((pair, i) => {
    const place = given.at(`balancesSetUp/${i}`);
    if (!ctx.employeeById.has(pair.employeeId)) place.problem("employeeId", `${pair.employeeId} is not an employee of this organisation`);
    if (!ctx.leaveTypeById.has(pair.leaveTypeId)) place.problem("leaveTypeId", `${pair.leaveTypeId} is not a leave type of this organisation`);
    const key = `${pair.employeeId}|${pair.leaveTypeId}`;
    if (seen.has(key)) place.problem(undefined, "the pair is listed twice");
    seen.add(key);
    return ctx.employeeById.has(pair.employeeId) && ctx.leaveTypeById.has(pair.leaveTypeId);
  });
}
