// The records of the seeded dataset. They hold more than the API shows (company ids, days off,
// eligible ids, storage of documents); the resource handlers build the API's objects from them
// explicitly. Records are never changed in place: a mutation puts a new object in their place, so
// caches keyed by record object stay correct.
import type { components } from "../../generated/api.js";
import type { HolidayRecord } from "./holidays.js";
import type { LeaveStatusId } from "./statuses.js";

type Schemas = components["schemas"];
export type { HolidayRecord };

export interface CompanyRecord {
  readonly id: string;
  readonly name: string;
}

export interface UnitRecord {
  readonly id: string;
  readonly name: string;
}

export interface DepartmentRecord {
  readonly id: string;
  readonly companyId: string;
  readonly name: string;
  readonly description: string;
  readonly status: Schemas["DepartmentStatus"];
  /** UTC timestamp text with 7 fractional digits. */
  readonly created: string;
  readonly units: readonly UnitRecord[];
  /** Employee ids of the 1-2 heads, all members of the department. */
  readonly leadIds: readonly string[];
  /** Employees of the department who are not Terminated (a terminated employee has left it). */
  readonly membersCount: number;
}

export interface EmployeeRecord {
  readonly id: string;
  /** The organisation's employee code, `EMP-0042`. */
  readonly code: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly fullName: string;
  readonly email: string;
  readonly sex: "female" | "male";
  readonly workMode: Schemas["WorkMode"];
  readonly jobRoles: readonly string[];
  readonly companyId: string;
  readonly departmentId: string;
  /** A unit of the department, or null when the department has no units. */
  readonly unitId: string | null;
  /** Regular days off as weekday numbers, 0 Sunday ... 6 Saturday (Friday is 5). */
  readonly daysOff: readonly number[];
  readonly status: Schemas["EmployeeStatus"];
}

export interface RequiredDocumentRecord {
  readonly id: string;
  readonly name: string;
  readonly document: string;
}

export interface LeaveTypeRecord {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly maxLeaveDays: number;
  readonly carryForward: { readonly maxCarryForwardLimit: number; readonly expirationDate: Schemas["Month"] };
  readonly eligibilityCriteria: Schemas["EligibilityCriteria"];
  /** Who is eligible: company ids (1), department ids (2), unit ids (3), employee ids (4); empty for 0. */
  readonly eligibleIds: readonly string[];
  /** Companies the type applies to (the LeaveTypeCompanyId x-assumption); every company for criteria 0. */
  readonly companyIds: readonly string[];
  /** Only for one sex (maternity, paternity); null for everyone. */
  readonly forSex: "female" | "male" | null;
  readonly requiresDocument: boolean;
  readonly requiredDocument: readonly RequiredDocumentRecord[];
  readonly isActive: boolean;
  readonly created: string;
  readonly lastModified: string;
}

/** A leave type's terms, first in both its API object (LeaveType) and its data-file entry, in this order. */
export function leaveTypeTerms(t: LeaveTypeRecord) {
  const { id, name, description, maxLeaveDays, eligibilityCriteria } = t;
  return { id, name, description, maxLeaveDays, carryForward: { maxCarryForwardLimit: t.carryForward.maxCarryForwardLimit, expirationDate: t.carryForward.expirationDate }, eligibilityCriteria };
}

export interface LeaveDocumentRecord {
  readonly id: string;
  readonly name: string;
  readonly mime: string;
  /** The provider's storage value: 0 a public link, 1 private to the service's application. */
  readonly storage: 0 | 1;
  /** A `https://files.<domain>/...` link (storage 0) or an opaque `app://documents/<id>` (storage 1). */
  readonly document: string;
}

export interface LeaveRequestRecord {
  readonly id: string;
  readonly employeeId: string;
  readonly leaveTypeId: string;
  /** The employee's company and department, kept on the request for fast filtering (employees never move). */
  readonly companyId: string;
  readonly departmentId: string;
  /** ISO dates of the first and last day off. */
  readonly startDate: string;
  readonly endDate: string;
  /** Working days, computed from the organisation's calendar and the employee's days off. */
  readonly days: number;
  readonly statusId: LeaveStatusId;
  readonly comments: string;
  /** UTC timestamp text with 7 fractional digits, before startDate. */
  readonly requestedOn: string;
  readonly documents: readonly LeaveDocumentRecord[];
  readonly relieverIds: readonly string[];
  readonly handoffNote: string;
}

/** An employee's balance of a leave type has been set up; without one, rule 1 of section 4.3 applies. */
export interface BalanceSetUpRecord {
  readonly employeeId: string;
  readonly leaveTypeId: string;
  /** Last year's unused days (0 when the type carries nothing); the balance caps them at maxCarryForwardLimit. */
  readonly carriedForwardDays: number;
}
