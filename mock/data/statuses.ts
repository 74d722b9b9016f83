// Leave request statuses (section 3.1), as the spec's LeaveStatusName and LeaveStatusId enums
// state them (generated/facts.ts); the id's x-enum-varnames name each number.
import type { components } from "../../generated/api.js";
import { LeaveStatusIdByName, LeaveStatusIdValues, LeaveStatusNameValues } from "../../generated/facts.js";

export type LeaveStatusName = components["schemas"]["LeaveStatusName"];
export type LeaveStatusId = components["schemas"]["LeaveStatusId"];

/** Status names indexed by their number (the two enums list them in the same order; a test checks it). */
export const LEAVE_STATUS_NAMES: readonly LeaveStatusName[] = LeaveStatusNameValues;

export const { Submitted: SUBMITTED, Pending: PENDING, Approved: APPROVED, Rejected: REJECTED, Abandoned: ABANDONED, Expired: EXPIRED } = LeaveStatusIdByName;

/** Submitted and Pending requests wait for a decision. */
export function isWaiting(statusId: number): boolean {
  return statusId === SUBMITTED || statusId === PENDING;
}

/** Requests that hold their days (an employee's never overlap): all but Rejected and Abandoned ones. */
export const isLive = (statusId: number): boolean => statusId !== REJECTED && statusId !== ABANDONED;

/** Requests that count against the type's yearly allowance: waiting and Approved ones. */
export const isBudgeted = (statusId: number): boolean => isWaiting(statusId) || statusId === APPROVED;

/** The LeaveStatus filter's value (validated by the spec: a name as the enum spells it, or a number) as the status number. */
export function leaveStatusId(status: LeaveStatusName | LeaveStatusId): LeaveStatusId {
  return typeof status === "number" ? status : LeaveStatusIdValues[LEAVE_STATUS_NAMES.indexOf(status)];
}
