// Leave request statuses (section 3.1). The names and numbers are checked against the spec's
// LeaveStatusName / LeaveStatusId enums by a test.
import type { components } from "../../generated/api.js";

export type LeaveStatusName = components["schemas"]["LeaveStatusName"];
export type LeaveStatusId = components["schemas"]["LeaveStatusId"];

/** Status names indexed by their number. */
export const LEAVE_STATUS_NAMES = [
  "Submitted",
  "Pending",
  "Approved",
  "Rejected",
  "Abandoned",
  "Expired",
] as const satisfies readonly LeaveStatusName[];

export const SUBMITTED = 0;
export const PENDING = 1;
export const APPROVED = 2;
export const REJECTED = 3;
export const ABANDONED = 4;
export const EXPIRED = 5;

/** Submitted and Pending requests wait for a decision. */
export function isWaiting(statusId: number): boolean {
  return statusId === SUBMITTED || statusId === PENDING;
}

/** The LeaveStatus filter: a status name in any letter case, or a number 0 to 5 (design assumption). */
export function parseLeaveStatus(text: string): LeaveStatusId | undefined {
  const t = text.trim();
  if (/^[0-5]$/.test(t)) return Number(t) as LeaveStatusId;
  const lower = t.toLowerCase();
  const index = LEAVE_STATUS_NAMES.findIndex((name) => name.toLowerCase() === lower);
  return index < 0 ? undefined : (index as LeaveStatusId);
}
