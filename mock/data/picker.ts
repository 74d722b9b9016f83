// The seeded picker and the parts of records it picks, for the generator and for what a data file
// leaves out (from-file.ts). Everything depends only on the faker's seed: no clock, no crypto, no
// iteration over unordered collections.
import type { Faker } from "@faker-js/faker";
import {
  DEPARTMENT_TEMPLATES,
  HANDOFF_TASKS,
  LEAVE_TYPE_TEMPLATES,
  MONTH_NAMES,
  OPTIONAL_DOCUMENTS,
  type DepartmentTemplate,
  type LeaveTypeTemplate,
} from "./catalogue.js";
import { MS_PER_DAY, dayOf, utcTimestamp } from "./dates.js";
import type { DepartmentRecord, EmployeeRecord, LeaveDocumentRecord, LeaveRequestRecord, LeaveTypeRecord } from "./records.js";

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

/** How often each work mode and each set of regular days off is picked (a data file's employees too). */
export const WORK_MODES = [["Hybrid", 45], ["Onsite", 35], ["Remote", 20]] as const;
export const DAYS_OFF: readonly (readonly [number[], number])[] = [[[], 76], [[5], 15], [[1], 5], [[3], 4]];

type NewEmployeeInput = Pick<EmployeeRecord, "id" | "code" | "status"> & { department: DepartmentRecord; template: DepartmentTemplate; domain: string; takenEmails: Set<string> };

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

/** A leave request of `employee` and `type`; its documents and handoff note are picked unless given, after the caller's picks. */
export function leaveRequestRecord(
  p: Picker,
  domain: string,
  employee: EmployeeRecord,
  type: LeaveTypeRecord,
  r: Pick<LeaveRequestRecord, "id" | "startDate" | "endDate" | "days" | "statusId" | "comments" | "requestedOn"> & { relievers: readonly EmployeeRecord[]; documents?: LeaveDocumentRecord[]; handoffNote?: string },
): LeaveRequestRecord {
  return {
    id: r.id,
    employeeId: employee.id,
    leaveTypeId: type.id,
    companyId: employee.companyId,
    departmentId: employee.departmentId,
    startDate: r.startDate,
    endDate: r.endDate,
    days: r.days,
    statusId: r.statusId,
    comments: r.comments,
    requestedOn: r.requestedOn,
    documents: r.documents ?? documentsFor(p, domain, r.id, type),
    relieverIds: r.relievers.map((e) => e.id),
    handoffNote: r.handoffNote ?? handoffNoteFor(p, r.relievers, dayOf(r.endDate)),
  };
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
