// One organisation's records, collection by collection: each one a data file gives is taken from it
// (from-file.ts fills in what its entries leave out), every other one is generated from the seeded
// picker, in the generator's order; what the API derives (heads, counts, a type's companies, working
// and carried-forward days) is computed here for both.
import type { DepartmentTemplate, OrganizationProfile } from "./catalogue.js";
import { DEPARTMENT_TEMPLATES, LEAVE_TYPE_TEMPLATES } from "./catalogue.js";
import { dayFromYmd, dayOf, yearOf } from "./dates.js";
import { companiesOfEligibility, isEligible } from "./eligibility.js";
import type { GivenOrganization } from "./from-file.js";
import { givenBalances, givenDepartment, givenEmployee, givenHolidays, givenLeaveType, givenRequest } from "./from-file.js";
import { employeeCode, newEmployee, slug, templateOfDepartment, type Picker } from "./picker.js";
import { generateRequests } from "./generate-requests.js";
import { holidaysFor } from "./holidays.js";
import { balanceKey, indexOrganization, type OrganizationData } from "./organization.js";
import type { BalanceSetUpRecord, CompanyRecord, DepartmentRecord, EmployeeRecord, LeaveTypeRecord, UnitRecord } from "./records.js";
import { APPROVED } from "./statuses.js";

export interface BuildOptions {
  scale: number;
  today: string;
  /** The data file's entry for this organisation, with where its problems go. */
  given?: GivenOrganization;
  /** The organisation's id when the caller drew it already (its first pick, drawn ahead for a later build: dataset.ts). */
  id?: string;
}

const EMPLOYEE_STATUSES = [["Active", 86], ["Inactive", 6], ["Terminated", 8]] as const;

export function buildOrganization(p: Picker, profile: OrganizationProfile, { scale, today, given, id: drawnId }: BuildOptions): OrganizationData {
  const todayDay = dayOf(today);
  const year = yearOf(today);
  const input = given?.input;
  // Picked whether or not the file names them, so naming an organisation changes nothing else.
  const pickedId = drawnId ?? p.uuid();
  const id = input?.id ?? pickedId;
  const name = input?.name ?? profile.name;
  const domain = input?.domain ?? profile.domain;

  const companies: CompanyRecord[] = input?.companies
    ? input.companies.map((c) => ({ id: c.id ?? p.uuid(), name: c.name }))
    : profile.companies.map((company) => ({ id: p.uuid(), name: company }));

  // Departments: 4-6 per company, the first of each company Active, about one in seven InActive.
  const departments: DepartmentRecord[] = [];
  const templateOf = new Map<string, DepartmentTemplate>();
  if (input?.departments) {
    input.departments.forEach((d, i) => {
      const department = givenDepartment(p, d, given!.at(`departments/${i}`), { companies, year, todayDay });
      departments.push(department);
      templateOf.set(department.id, templateOfDepartment(department.name));
    });
  } else {
    for (const company of companies) {
      const templates = p.some(DEPARTMENT_TEMPLATES, p.int(4, 6));
      templates.forEach((template, i) => {
        const units: UnitRecord[] = p.some(template.units, p.int(0, template.units.length)).map((unit) => ({ id: p.uuid(), name: unit }));
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
    if (departments.length > 0 && !departments.some((d) => d.status === "InActive")) {
      const last = departments.length - 1;
      departments[last] = { ...departments[last], status: "InActive" };
    }
  }

  const takenEmails = new Set<string>();
  let employees: EmployeeRecord[];
  if (input?.employees) {
    const departmentById = new Map(departments.map((d) => [d.id, d]));
    const takenCodes = new Set(input.employees.flatMap((e) => (e.code === undefined ? [] : [e.code])));
    let next = 1;
    const nextCode = () => {
      while (takenCodes.has(employeeCode(next))) next++;
      takenCodes.add(employeeCode(next));
      return employeeCode(next);
    };
    for (const e of input.employees) if (e.email) takenEmails.add(e.email.toLowerCase());
    employees = input.employees.flatMap((e, i) => {
      const made = givenEmployee(p, e, given!.at(`employees/${i}`), { departmentById, templateOf, domain, takenEmails, nextCode });
      return made ? [made] : [];
    });
  } else {
    // Every department gets 2-3 seats first (the first two Active, so heads exist), the rest go to
    // Active departments by weight; seats are shuffled so codes do not follow departments.
    const employeeCount = departments.length === 0 ? 0 : Math.max(departments.length * 3, Math.round(profile.employees * scale));
    const seats: { department: number; forcedActive: boolean }[] = [];
    departments.forEach((d, i) => {
      const reserved = d.status === "Active" ? 3 : 2;
      for (let k = 0; k < reserved; k++) seats.push({ department: i, forcedActive: k < 2 });
    });
    const activeDepartments = departments.map((d, i) => [i, d.status === "Active" ? p.int(1, 6) : 0] as const).filter(([, w]) => w > 0);
    while (seats.length < employeeCount && activeDepartments.length > 0) seats.push({ department: p.weighted(activeDepartments), forcedActive: false });
    const shuffled = p.faker.helpers.shuffle(seats);
    employees = shuffled.map((seat, i) => {
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
  }

  // Heads and member counts, derived for given and generated departments alike.
  const membersOf = new Map<string, EmployeeRecord[]>(departments.map((d) => [d.id, []]));
  for (const e of employees) membersOf.get(e.departmentId)?.push(e);
  for (let i = 0; i < departments.length; i++) {
    const d = departments[i];
    const members = membersOf.get(d.id)!;
    const active = members.filter((e) => e.status === "Active");
    const givenLeads = input?.departments?.[i]?.leadIds;
    if (givenLeads) {
      givenLeads.forEach((leadId, k) => {
        if (!active.some((e) => e.id === leadId)) given!.at(`departments/${i}`).problem(`leadIds/${k}`, `${leadId} is not an Active employee of department ${d.name}`);
      });
    }
    departments[i] = {
      ...d,
      leadIds: givenLeads ? [...givenLeads] : p.some(active, p.chance(0.3) ? 2 : 1).map((e) => e.id),
      membersCount: members.filter((e) => e.status !== "Terminated").length,
    };
  }
  const employeeById = new Map(employees.map((e) => [e.id, e]));
  const departmentById = new Map(departments.map((d) => [d.id, d]));
  const departmentOfUnit = new Map(departments.flatMap((d) => d.units.map((u) => [u.id, d] as const)));
  const companyIdsOf = (criteria: LeaveTypeRecord["eligibilityCriteria"], eligibleIds: readonly string[]) =>
    companiesOfEligibility(criteria, eligibleIds, {
      companyIds: companies.map((c) => c.id),
      companyOfDepartment: (x) => departmentById.get(x)?.companyId,
      companyOfUnit: (x) => departmentOfUnit.get(x)?.companyId,
      companyOfEmployee: (x) => employeeById.get(x)?.companyId,
    });

  // Leave types: one per template; eligible groups picked from this organisation's records.
  let leaveTypes: LeaveTypeRecord[];
  if (input?.leaveTypes) {
    const known = { companies: new Set(companies.map((c) => c.id)), departments: new Set(departmentById.keys()), units: new Set(departmentOfUnit.keys()), employees: new Set(employeeById.keys()) };
    leaveTypes = input.leaveTypes.map((t, i) => givenLeaveType(p, t, given!.at(`leaveTypes/${i}`), { domain, year, todayDay, annualDays: profile.annualDays, known, companyIdsOf }));
  } else {
    const allUnits = departments.filter((d) => d.status === "Active").flatMap((d) => d.units);
    const activeEmployees = employees.filter((e) => e.status === "Active");
    leaveTypes = LEAVE_TYPE_TEMPLATES.map((t) => {
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
        companyIds: companyIdsOf(t.eligibility, eligibleIds),
        forSex: t.forSex,
        requiresDocument: t.documents.length > 0,
        requiredDocument: t.documents.map((doc) => ({ id: p.uuid(), name: doc, document: `https://files.${domain}/templates/${slug(doc)}.docx` })),
        isActive: t.isActive,
        created: p.timestampOn(createdDay, 8, 17),
        lastModified: p.timestampBetween(createdDay + 1, todayDay - 1),
      };
    });
  }

  const holidays = input?.holidays ? givenHolidays(input.holidays, given!) : holidaysFor(profile.holidays, [year - 1, year, year + 1]);
  const holidayDates = new Set(holidays.map((h) => h.date));

  // Leave requests over last year, this year and the coming months; a file's own employees ask as
  // often as generated ones do.
  const requestTarget = input?.employees ? Math.round((employees.length * profile.leaveRequests) / profile.employees) : Math.round(profile.leaveRequests * scale);
  const leaveRequests = input?.leaveRequests
    ? input.leaveRequests.flatMap((r, i) => {
        const made = givenRequest(p, r, given!.at(`leaveRequests/${i}`), { domain, todayDay, employeeById, leaveTypes, membersOf, holidayDates, employees, otherLeaveTypeIds: given!.otherLeaveTypeIds });
        return made ? [made] : [];
      })
    : generateRequests(p, { target: requestTarget, domain, todayDay, employees, leaveTypes, membersOf, holidayDates });

  // Balances set up: every pair with a request, and about half of the other eligible pairs.
  // Carried forward: last year's unused allowance, for types that carry days.
  const approvedLastYear = new Map<string, number>();
  const withRequests = new Set<string>();
  for (const r of leaveRequests) {
    const key = balanceKey(r.employeeId, r.leaveTypeId);
    withRequests.add(key);
    if (r.statusId === APPROVED && yearOf(r.startDate) === year - 1) approvedLastYear.set(key, (approvedLastYear.get(key) ?? 0) + r.days);
  }
  const carried = (t: LeaveTypeRecord, key: string) => (t.carryForward.maxCarryForwardLimit > 0 ? Math.max(0, t.maxLeaveDays - (approvedLastYear.get(key) ?? 0)) : 0);
  const leaveTypeById = new Map(leaveTypes.map((t) => [t.id, t]));
  const balanceSetUps: BalanceSetUpRecord[] = [];
  if (input?.balancesSetUp) {
    for (const pair of givenBalances(input.balancesSetUp, given!, { employeeById, leaveTypeById })) {
      const key = balanceKey(pair.employeeId, pair.leaveTypeId);
      balanceSetUps.push({ employeeId: pair.employeeId, leaveTypeId: pair.leaveTypeId, carriedForwardDays: pair.carriedForwardDays ?? carried(leaveTypeById.get(pair.leaveTypeId)!, key) });
    }
  } else {
    for (const e of employees) {
      for (const t of leaveTypes) {
        const key = balanceKey(e.id, t.id);
        const setUp = withRequests.has(key) || (isEligible(t, e) && p.chance(t.name === "Annual Leave" ? 0.8 : 0.4));
        if (setUp) balanceSetUps.push({ employeeId: e.id, leaveTypeId: t.id, carriedForwardDays: carried(t, key) });
      }
    }
  }

  return indexOrganization({ id, name, domain, companies, departments, employees, leaveTypes, leaveRequests, holidays, balanceSetUps });
}
