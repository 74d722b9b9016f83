// The records of the dataset: a data file's entries (generated/data-file.d.ts) with every field, plus
// what the API derives or filters by. Never changed in place: a mutation puts a new object in their
// place, so caches keyed by record object stay correct.
import type { components } from "../../generated/data-file.js";
import type { LeaveStatusId } from "./statuses.js";

type Entries = components["schemas"];

/** An entry as a record: every field present, read-only (its arrays too). */
type RecordOf<T> = { readonly [K in keyof T]-?: ReadOnlyArray<Exclude<T[K], undefined>> };
type ReadOnlyArray<V> = V extends readonly (infer E)[] ? readonly E[] : V;

export type CompanyRecord = RecordOf<Entries["Company"]>;
export type HolidayRecord = RecordOf<Entries["Holiday"]>;
export type UnitRecord = RecordOf<Entries["Unit"]>;

export interface DepartmentRecord extends RecordOf<Omit<Entries["Department"], "units">> {
  readonly units: readonly UnitRecord[];
  /** Employees of the department who are not Terminated (a terminated employee has left it). */
  readonly membersCount: number;
}

export interface EmployeeRecord extends RecordOf<Entries["Employee"]> {
  readonly fullName: string;
  /** The department's company, kept for fast filtering (employees never move). */
  readonly companyId: string;
}

export interface LeaveTypeRecord extends RecordOf<Entries["LeaveType"]> {
  /** Companies the type applies to (the LeaveTypeCompanyId x-assumption); every company for criteria 0. */
  readonly companyIds: readonly string[];
  readonly requiresDocument: boolean;
}

/** A leave type's terms, first in both its API object (LeaveType) and its data-file entry, in this order. */
export function leaveTypeTerms(t: LeaveTypeRecord) {
  const { id, name, description, maxLeaveDays, eligibilityCriteria } = t;
  return { id, name, description, maxLeaveDays, carryForward: { maxCarryForwardLimit: t.carryForward.maxCarryForwardLimit, expirationDate: t.carryForward.expirationDate }, eligibilityCriteria };
}

type DocumentEntry = NonNullable<Entries["LeaveRequest"]["documents"]>[number];

export interface LeaveDocumentRecord extends RecordOf<DocumentEntry> {
  /** The provider's storage value: 0 a public link, 1 private to the service's application (an opaque `app://documents/<id>`). */
  readonly storage: 0 | 1;
}

export interface LeaveRequestRecord extends RecordOf<Omit<Entries["LeaveRequest"], "status" | "documents">> {
  /** The employee's company and department, kept on the request for fast filtering (employees never move). */
  readonly companyId: string;
  readonly departmentId: string;
  /** Working days, computed from the organisation's calendar and the employee's days off. */
  readonly days: number;
  readonly statusId: LeaveStatusId;
  readonly documents: readonly LeaveDocumentRecord[];
}

/** An employee's balance of a leave type has been set up; without one, rule 1 of section 4.3 applies. */
export type BalanceSetUpRecord = RecordOf<Entries["BalanceSetUp"]>;
