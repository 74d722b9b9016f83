// Leave balance of one employee and one leave type for this year (section 4.3 and the design's
// assumptions): computed from the requests, never stored.
import type { components } from "../../generated/api.js";
import { monthIndexOf, yearOf } from "./dates.js";
import { APPROVED, PENDING, REJECTED, SUBMITTED } from "./statuses.js";

export type LeaveBalance = components["schemas"]["LeaveBalance"];

export interface BalanceInput {
  leaveType: { maxLeaveDays: number; carryForward: { maxCarryForwardLimit: number; expirationDate: number } };
  /** Whether the employee's balance of this type was ever set up (rule 1 of section 4.3). */
  setUp: boolean;
  /** Unused days of last year recorded for this employee and type (capped here by maxCarryForwardLimit). */
  carriedForwardDays: number;
  /** The employee's requests of this leave type, any year. */
  requests: Iterable<{ startDate: string; days: number; statusId: number }>;
  /** ISO date of today; "this year" is its calendar year and a request belongs to the year of its startDate. */
  today: string;
}

/** Carried days count while today's month index is at most the expiry month (0 January). */
function carriedDaysInForce(carriedForwardDays: number, carryForward: BalanceInput["leaveType"]["carryForward"], today: string): number {
  if (monthIndexOf(today) > carryForward.expirationDate) return 0;
  return Math.max(0, Math.min(carriedForwardDays, carryForward.maxCarryForwardLimit));
}

export function computeBalance(input: BalanceInput): LeaveBalance {
  const { leaveType, today } = input;
  if (!input.setUp) {
    // Rule 1: never set up, so the type's full allowance with nothing taken.
    return { totalDays: leaveType.maxLeaveDays, daysTaken: 0, daysRemaining: leaveType.maxLeaveDays, leavePending: 0, leaveRejected: 0 };
  }
  const year = yearOf(today);
  let daysTaken = 0;
  let leavePending = 0;
  let leaveRejected = 0;
  for (const r of input.requests) {
    if (yearOf(r.startDate) !== year) continue;
    if (r.statusId === APPROVED) daysTaken += r.days;
    else if (r.statusId === SUBMITTED || r.statusId === PENDING) leavePending += r.days;
    else if (r.statusId === REJECTED) leaveRejected += r.days;
  }
  const totalDays = leaveType.maxLeaveDays + carriedDaysInForce(input.carriedForwardDays, leaveType.carryForward, today);
  return { totalDays, daysTaken, daysRemaining: Math.max(0, totalDays - daysTaken - leavePending), leavePending, leaveRejected };
}
