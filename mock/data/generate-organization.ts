// Generates one organisation's records from a seeded faker. Everything depends only on the faker's
// seed, the scale and `today`: no clock, no crypto, no iteration over unordered collections.
import type { Faker } from "@faker-js/faker";
import {
  DEPARTMENT_TEMPLATES,
  HANDOFF_TASKS,
  LEAVE_TYPE_TEMPLATES,
  MONTH_NAMES,
  OPTIONAL_DOCUMENTS,
  type DepartmentTemplate,
  type LeaveTypeTemplate,
  type OrganizationProfile,
} from "./catalogue.js";
import { MS_PER_DAY, dayFromYmd, dayOf, isoDate, utcTimestamp, yearOf } from "./dates.js";
import { companiesOfEligibility, isEligible } from "./eligibility.js";
import { holidaysFor } from "./holidays.js";
import { balanceKey, indexOrganization, type OrganizationData } from "./organization.js";
import type {
  BalanceSetUpRecord,
  CompanyRecord,
  DepartmentRecord,
  EmployeeRecord,
  LeaveDocumentRecord,
  LeaveRequestRecord,
  LeaveTypeRecord,
  UnitRecord,
} from "./records.js";
import { ABANDONED, APPROVED, EXPIRED, PENDING, REJECTED, SUBMITTED, type LeaveStatusId } from "./statuses.js";
import { endAfterWorkingDays, nextWorkingDay, workingDays, type WorkCalendar } from "./working-days.js";

/** Small helpers over the seeded faker, so the generator reads as what it picks. */
export class Picker {
  constructor(readonly faker: Faker) {}
  uuid(): string {
    return this.faker.string.uuid();
  }
  int(min: number, max: number): number {
    return this.faker.number.int({ min, max });
  }
  chance(probability: number): boolean {
    return this.faker.number.float({ min: 0, max: 1 }) < probability;
  }
  pick<T>(items: readonly T[]): T {
    return this.faker.helpers.arrayElement(items as T[]);
  }
  some<T>(items: readonly T[], count: number): T[] {
    return this.faker.helpers.arrayElements(items as T[], Math.min(count, items.length));
  }
  weighted<T>(choices: readonly (readonly [T, number])[]): T {
    return this.faker.helpers.weightedArrayElement(choices.map(([value, weight]) => ({ value, weight })));
  }
  /** An integer in [min, max], small values more likely. */
  skewedInt(min: number, max: number): number {
    const r = this.faker.number.float({ min: 0, max: 1 });
    return Math.min(max, min + Math.floor(r * r * (max - min + 1)));
  }
  /** A UTC timestamp text on the given day, between the hours given, with millisecond precision. */
  timestampOn(day: number, fromHour: number, toHour: number): string {
    return utcTimestamp(day * MS_PER_DAY + this.int(fromHour * 3_600_000, toHour * 3_600_000 - 1));
  }
  timestampBetween(fromDay: number, toDay: number): string {
    return this.timestampOn(this.int(fromDay, toDay), 7, 19);
  }
}

export function slug(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** `first.last@domain`, letters and digits only in each part. */
export function emailFor(firstName: string, lastName: string, domain: string, taken: Set<string>): string {
  const local = `${slug(firstName).replace(/-/g, "")}.${slug(lastName).replace(/-/g, "")}`;
  let email = `${local}@${domain}`;
  for (let n = 2; taken.has(email); n++) email = `${local}${n}@${domain}`;
  taken.add(email);
  return email;
}

export function employeeCode(n: number): string {
  return `EMP-${String(n).padStart(4, "0")}`;
}

const WORK_MODES = [["Hybrid", 45], ["Onsite", 35], ["Remote", 20]] as const;
const DAYS_OFF: readonly (readonly [number[], number])[] = [[[], 76], [[5], 15], [[1], 5], [[3], 4]];
const EMPLOYEE_STATUSES = [["Active", 86], ["Inactive", 6], ["Terminated", 8]] as const;

export interface NewEmployeeInput {
  id: string;
  code: string;
  department: DepartmentRecord;
  template: DepartmentTemplate;
  status: EmployeeRecord["status"];
  domain: string;
  takenEmails: Set<string>;
}

/** One employee of a department, names and habits from the picker. */
export function newEmployee(p: Picker, input: NewEmployeeInput): EmployeeRecord {
  const sex = p.faker.person.sexType() === "female" ? "female" : "male";
  const firstName = p.faker.person.firstName(sex);
  const lastName = p.faker.person.lastName();
  const { department, template } = input;
  return {
    id: input.id,
    code: input.code,
    firstName,
    lastName,
    fullName: `${firstName} ${lastName}`,
    email: emailFor(firstName, lastName, input.domain, input.takenEmails),
    sex,
    workMode: p.weighted(WORK_MODES),
    jobRoles: p.some(template.roles, p.chance(0.2) ? 2 : 1),
    companyId: department.companyId,
    departmentId: department.id,
    unitId: department.units.length > 0 ? p.pick(department.units).id : null,
    daysOff: p.weighted(DAYS_OFF),
    status: input.status,
  };
}

export function templateOfDepartment(name: string): DepartmentTemplate {
  return DEPARTMENT_TEMPLATES.find((t) => t.name === name) ?? DEPARTMENT_TEMPLATES[0];
}

export function templateOfLeaveType(name: string): LeaveTypeTemplate | undefined {
  return LEAVE_TYPE_TEMPLATES.find((t) => t.name === name);
}

function documentFor(p: Picker, domain: string, requestId: string, fileName: string, mime: string): LeaveDocumentRecord {
  const id = p.uuid();
  const storage = p.chance(0.5) ? 0 : 1;
  return {
    id,
    name: fileName,
    mime,
    storage,
    document: storage === 0 ? `https://files.${domain}/leave/${requestId}/${fileName}` : `app://documents/${id}`,
  };
}

/** Documents of a request: the type's required ones, sometimes an optional one otherwise. */
export function documentsFor(p: Picker, domain: string, requestId: string, type: LeaveTypeRecord): LeaveDocumentRecord[] {
  if (type.requiresDocument) {
    return type.requiredDocument.map((d) => documentFor(p, domain, requestId, `${slug(d.name)}.pdf`, "application/pdf"));
  }
  if (!p.chance(0.12)) return [];
  const optional = p.pick(OPTIONAL_DOCUMENTS);
  return [documentFor(p, domain, requestId, optional.name, optional.mime)];
}

export function relieversFor(p: Picker, employee: EmployeeRecord, colleagues: readonly EmployeeRecord[], fallback: readonly EmployeeRecord[]): EmployeeRecord[] {
  const count = p.weighted([[0, 25], [1, 55], [2, 20]] as const);
  if (count === 0) return [];
  let pool = colleagues.filter((c) => c.id !== employee.id && c.status === "Active");
  if (pool.length < count) pool = fallback.filter((c) => c.id !== employee.id && c.status === "Active");
  return p.some(pool, count);
}

export function handoffNoteFor(p: Picker, relievers: readonly EmployeeRecord[], endDay: number): string {
  if (relievers.length === 0) {
    return p.pick([
      "Nothing urgent open; I will answer emails when back.",
      "Out-of-office reply is set; urgent matters go to the team inbox.",
      "All tasks closed before leaving.",
    ]);
  }
  const [first, second] = p.some(HANDOFF_TASKS, 2);
  const nextMonth = MONTH_NAMES[(new Date((endDay + 28) * MS_PER_DAY).getUTCMonth())];
  const names = relievers.map((r) => r.firstName).join(" and ");
  return `${first} is with ${names}; ${second.charAt(0).toLowerCase()}${second.slice(1)} moved to ${nextMonth}.`;
}

/** Status of a generated request by where it lies relative to today. */
function statusFor(p: Picker, startDay: number, endDay: number, todayDay: number): LeaveStatusId {
  if (startDay > todayDay) {
    return p.weighted([[SUBMITTED, 28], [PENDING, 17], [APPROVED, 45], [REJECTED, 5], [ABANDONED, 5]] as const);
  }
  if (endDay >= todayDay) return p.weighted([[APPROVED, 90], [PENDING, 4], [ABANDONED, 6]] as const);
  return p.weighted([[APPROVED, 62], [REJECTED, 13], [ABANDONED, 10], [EXPIRED, 10], [PENDING, 3], [SUBMITTED, 2]] as const);
}

export interface GenerateOptions {
  scale: number;
  today: string;
}

export function generateOrganization(p: Picker, profile: OrganizationProfile, { scale, today }: GenerateOptions): OrganizationData {
  const todayDay = dayOf(today);
  const year = yearOf(today);
  const id = p.uuid();
  const domain = profile.domain;

  const companies: CompanyRecord[] = profile.companies.map((name) => ({ id: p.uuid(), name }));

  // Departments: 4-6 per company, the first of each company Active, about one in seven InActive.
  const departments: DepartmentRecord[] = [];
  const templateOf = new Map<string, DepartmentTemplate>();
  for (const company of companies) {
    const templates = p.some(DEPARTMENT_TEMPLATES, p.int(4, 6));
    templates.forEach((template, i) => {
      const units: UnitRecord[] = p.some(template.units, p.int(0, template.units.length)).map((name) => ({ id: p.uuid(), name }));
      const department: DepartmentRecord = {
        id: p.uuid(),
        companyId: company.id,
        name: template.name,
        description: template.description,
        status: i > 0 && p.chance(0.15) ? "InActive" : "Active",
        created: p.timestampBetween(dayFromYmd(year - 6, 1, 1), todayDay - 90),
        units,
        leadIds: [],
        membersCount: 0,
      };
      departments.push(department);
      templateOf.set(department.id, template);
    });
  }
  if (!departments.some((d) => d.status === "InActive")) {
    const last = departments.length - 1;
    departments[last] = { ...departments[last], status: "InActive" };
  }

  // Employees: every department gets 2-3 seats first (the first two Active, so heads exist), the
  // rest go to Active departments by weight; seats are shuffled so codes do not follow departments.
  const employeeCount = Math.max(departments.length * 3, Math.round(profile.employees * scale));
  const seats: { department: number; forcedActive: boolean }[] = [];
  departments.forEach((d, i) => {
    const reserved = d.status === "Active" ? 3 : 2;
    for (let k = 0; k < reserved; k++) seats.push({ department: i, forcedActive: k < 2 });
  });
  const activeDepartments = departments.map((d, i) => [i, d.status === "Active" ? p.int(1, 6) : 0] as const).filter(([, w]) => w > 0);
  while (seats.length < employeeCount) seats.push({ department: p.weighted(activeDepartments), forcedActive: false });
  const shuffled = p.faker.helpers.shuffle(seats);
  const takenEmails = new Set<string>();
  const employees: EmployeeRecord[] = shuffled.map((seat, i) => {
    const department = departments[seat.department];
    return newEmployee(p, {
      id: p.uuid(),
      code: employeeCode(i + 1),
      department,
      template: templateOf.get(department.id)!,
      status: seat.forcedActive ? "Active" : p.weighted(EMPLOYEE_STATUSES),
      domain,
      takenEmails,
    });
  });
  const membersOf = new Map<string, EmployeeRecord[]>(departments.map((d) => [d.id, []]));
  for (const e of employees) membersOf.get(e.departmentId)!.push(e);
  for (let i = 0; i < departments.length; i++) {
    const d = departments[i];
    const members = membersOf.get(d.id)!;
    const active = members.filter((e) => e.status === "Active");
    departments[i] = {
      ...d,
      leadIds: p.some(active, p.chance(0.3) ? 2 : 1).map((e) => e.id),
      membersCount: members.filter((e) => e.status !== "Terminated").length,
    };
  }
  const employeeById = new Map(employees.map((e) => [e.id, e]));
  const departmentById = new Map(departments.map((d) => [d.id, d]));
  const departmentOfUnit = new Map(departments.flatMap((d) => d.units.map((u) => [u.id, d] as const)));

  // Leave types: one per template; eligible groups picked from this organisation's records.
  const allUnits = departments.filter((d) => d.status === "Active").flatMap((d) => d.units);
  const activeEmployees = employees.filter((e) => e.status === "Active");
  const leaveTypes: LeaveTypeRecord[] = LEAVE_TYPE_TEMPLATES.map((t) => {
    const eligibleIds: string[] =
      t.eligibility === 1 ? p.some(companies, Math.max(1, companies.length - 1)).map((c) => c.id)
      : t.eligibility === 2 ? p.some(departments.filter((d) => d.status === "Active"), Math.ceil(departments.length * 0.4)).map((d) => d.id)
      : t.eligibility === 3 ? p.some(allUnits, Math.max(1, Math.ceil(allUnits.length * 0.35))).map((u) => u.id)
      : t.eligibility === 4 ? p.some(activeEmployees, p.int(6, 10)).map((e) => e.id)
      : [];
    const createdDay = p.int(dayFromYmd(year - 4, 1, 1), dayFromYmd(year - 1, 1, 1) - 1);
    return {
      id: p.uuid(),
      name: t.name,
      description: t.description,
      maxLeaveDays: t.maxLeaveDays ?? profile.annualDays,
      carryForward: { maxCarryForwardLimit: t.carry[0], expirationDate: t.carry[1] as LeaveTypeRecord["carryForward"]["expirationDate"] },
      eligibilityCriteria: t.eligibility,
      eligibleIds,
      companyIds: companiesOfEligibility(t.eligibility, eligibleIds, {
        companyIds: companies.map((c) => c.id),
        companyOfDepartment: (x) => departmentById.get(x)?.companyId,
        companyOfUnit: (x) => departmentOfUnit.get(x)?.companyId,
        companyOfEmployee: (x) => employeeById.get(x)?.companyId,
      }),
      forSex: t.forSex,
      requiresDocument: t.documents.length > 0,
      requiredDocument: t.documents.map((name) => ({ id: p.uuid(), name, document: `https://files.${domain}/templates/${slug(name)}.docx` })),
      isActive: t.isActive,
      created: p.timestampOn(createdDay, 8, 17),
      lastModified: p.timestampBetween(createdDay + 1, todayDay - 1),
    };
  });

  const holidays = holidaysFor(profile.holidays, [year - 1, year, year + 1]);
  const holidayDates = new Set(holidays.map((h) => h.date));

  // Leave requests over last year, this year and the coming months.
  const leaveRequests = generateRequests(p, {
    target: Math.round(profile.leaveRequests * scale),
    domain,
    todayDay,
    employees,
    leaveTypes,
    membersOf,
    holidayDates,
  });

  // Balances set up: every pair with a request, and about half of the other eligible pairs.
  // Carried forward: last year's unused allowance, for types that carry days.
  const approvedLastYear = new Map<string, number>();
  const withRequests = new Set<string>();
  for (const r of leaveRequests) {
    const key = balanceKey(r.employeeId, r.leaveTypeId);
    withRequests.add(key);
    if (r.statusId === APPROVED && yearOf(r.startDate) === year - 1) approvedLastYear.set(key, (approvedLastYear.get(key) ?? 0) + r.days);
  }
  const balanceSetUps: BalanceSetUpRecord[] = [];
  for (const e of employees) {
    for (const t of leaveTypes) {
      const key = balanceKey(e.id, t.id);
      const setUp = withRequests.has(key) || (isEligible(t, e) && p.chance(t.name === "Annual Leave" ? 0.8 : 0.4));
      if (!setUp) continue;
      const carriedForwardDays = t.carryForward.maxCarryForwardLimit > 0 ? Math.max(0, t.maxLeaveDays - (approvedLastYear.get(key) ?? 0)) : 0;
      balanceSetUps.push({ employeeId: e.id, leaveTypeId: t.id, carriedForwardDays });
    }
  }

  return indexOrganization({ id, name: profile.name, domain, companies, departments, employees, leaveTypes, leaveRequests, holidays, balanceSetUps });
}

interface RequestContext {
  target: number;
  domain: string;
  todayDay: number;
  employees: readonly EmployeeRecord[];
  leaveTypes: readonly LeaveTypeRecord[];
  membersOf: ReadonlyMap<string, readonly EmployeeRecord[]>;
  holidayDates: ReadonlySet<string>;
}

function generateRequests(p: Picker, ctx: RequestContext): LeaveRequestRecord[] {
  const { todayDay } = ctx;
  const year = yearOf(isoDate(todayDay));
  const windowStart = dayFromYmd(year - 1, 1, 1);
  const windowEnd = todayDay + 150;
  const templates = new Map(ctx.leaveTypes.map((t) => [t.id, templateOfLeaveType(t.name)!]));
  const eligibleTypes = new Map(ctx.employees.map((e) => [e.id, ctx.leaveTypes.filter((t) => isEligible(t, e))]));
  const busy = new Map<string, [number, number][]>(); // employee → spans of live requests
  const used = new Map<string, number>(); // employee|type|year → days Submitted, Pending or Approved
  const out: LeaveRequestRecord[] = [];

  for (let attempt = 0; out.length < ctx.target && attempt < ctx.target * 30; attempt++) {
    const employee = p.pick(ctx.employees);
    const types = eligibleTypes.get(employee.id)!;
    const type = p.weighted(types.map((t) => [t, templates.get(t.id)!.weight] as const));
    const template = templates.get(type.id)!;
    // Inactive employees and retired leave types have past requests only.
    const latestStart = employee.status === "Active" && type.isActive ? windowEnd : todayDay - 20;
    const calendar: WorkCalendar = { holidays: ctx.holidayDates, daysOff: employee.daysOff };
    const startDay = nextWorkingDay(p.int(windowStart, latestStart), calendar);
    if (startDay > latestStart) continue;
    const endDay = endAfterWorkingDays(startDay, p.skewedInt(template.length[0], template.length[1]), calendar);
    const startDate = isoDate(startDay);
    const endDate = isoDate(endDay);
    const days = workingDays(startDate, endDate, calendar);
    const spans = busy.get(employee.id) ?? [];
    if (days < 1 || spans.some(([s, e]) => startDay <= e && s <= endDay)) continue;
    const statusId = statusFor(p, startDay, endDay, todayDay);
    const live = statusId === SUBMITTED || statusId === PENDING || statusId === APPROVED;
    const budgetKey = `${employee.id}|${type.id}|${yearOf(startDate)}`;
    if (live && (used.get(budgetKey) ?? 0) + days > type.maxLeaveDays) continue;
    if (live) used.set(budgetKey, (used.get(budgetKey) ?? 0) + days);
    if (statusId !== REJECTED && statusId !== ABANDONED) busy.set(employee.id, [...spans, [startDay, endDay]]);

    // Asked for 1-60 days ahead, and before today (nobody asks from the future): requests for the
    // coming months spread over the last weeks rather than piling up on yesterday.
    const requestedDay = Math.min(startDay - p.skewedInt(1, 60), todayDay - 1 - p.skewedInt(0, 40));
    const id = p.uuid();
    const relievers = relieversFor(p, employee, ctx.membersOf.get(employee.departmentId) ?? [], ctx.employees);
    out.push({
      id,
      employeeId: employee.id,
      leaveTypeId: type.id,
      companyId: employee.companyId,
      departmentId: employee.departmentId,
      startDate,
      endDate,
      days,
      statusId,
      comments: p.pick(template.comments),
      requestedOn: p.timestampOn(requestedDay, 6, 21),
      documents: documentsFor(p, ctx.domain, id, type),
      relieverIds: relievers.map((r) => r.id),
      handoffNote: handoffNoteFor(p, relievers, endDay),
    });
  }
  ensureEveryStatus(out, todayDay);
  return out;
}

/** The generator's weights make every status near certain; this makes it certain for any seed. */
function ensureEveryStatus(requests: LeaveRequestRecord[], todayDay: number): void {
  const wanted: [LeaveStatusId, (r: LeaveRequestRecord) => boolean][] = [
    [SUBMITTED, (r) => dayOf(r.startDate) > todayDay],
    [PENDING, (r) => dayOf(r.startDate) > todayDay],
    [APPROVED, () => true],
    [REJECTED, () => true],
    [ABANDONED, () => true],
    [EXPIRED, (r) => dayOf(r.endDate) < todayDay],
  ];
  for (const [status, fits] of wanted) {
    if (requests.some((r) => r.statusId === status)) continue;
    // Turning an Abandoned or Rejected request into the missing status keeps the balances' budgets.
    const i = requests.findIndex((r) => fits(r) && (r.statusId === ABANDONED || r.statusId === REJECTED) && requests.filter((x) => x.statusId === r.statusId).length > 1);
    if (i >= 0) requests[i] = { ...requests[i], statusId: status };
  }
}
