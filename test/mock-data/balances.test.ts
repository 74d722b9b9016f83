import { describe, expect, it } from "vitest";
import { computeBalance, type BalanceInput, type LeaveBalance } from "../../mock/data/balances.js";

const annual = { maxLeaveDays: 20, carryForward: { maxCarryForwardLimit: 5, expirationDate: 2 } }; // carried days expire after March
const r = (startDate: string, days: number, statusId: number) => ({ startDate, days, statusId });

type Case = [string, { given: Partial<BalanceInput>; want: LeaveBalance }];

const base: BalanceInput = { leaveType: annual, setUp: true, carriedForwardDays: 0, requests: [], today: "2026-05-14" };

const cases: Case[] = [
  [
    "rule 1: never set up gives the full allowance with nothing taken, whatever the requests say",
    { given: { setUp: false, carriedForwardDays: 4, requests: [r("2026-02-02", 3, 2)] }, want: { totalDays: 20, daysTaken: 0, daysRemaining: 20, leavePending: 0, leaveRejected: 0 } },
  ],
  ["set up and nothing asked", { given: {}, want: { totalDays: 20, daysTaken: 0, daysRemaining: 20, leavePending: 0, leaveRejected: 0 } }],
  [
    "approved days are taken; Submitted and Pending are pending; Rejected counted apart; Abandoned and Expired ignored",
    {
      given: { requests: [r("2026-02-02", 3, 2), r("2026-03-02", 2, 2), r("2026-06-01", 4, 0), r("2026-07-01", 1, 1), r("2026-04-01", 2, 3), r("2026-04-10", 5, 4), r("2026-01-20", 6, 5)] },
      want: { totalDays: 20, daysTaken: 5, daysRemaining: 10, leavePending: 5, leaveRejected: 2 },
    },
  ],
  [
    "only this year's requests count, by their start date",
    { given: { requests: [r("2025-12-29", 4, 2), r("2027-01-04", 3, 0), r("2026-12-31", 1, 2)] }, want: { totalDays: 20, daysTaken: 1, daysRemaining: 19, leavePending: 0, leaveRejected: 0 } },
  ],
  [
    "carried days count before the expiry month has passed (March, expiry month 2)",
    { given: { today: "2026-03-31", carriedForwardDays: 3 }, want: { totalDays: 23, daysTaken: 0, daysRemaining: 23, leavePending: 0, leaveRejected: 0 } },
  ],
  [
    "carried days are gone once the expiry month has passed (April)",
    { given: { today: "2026-04-01", carriedForwardDays: 3 }, want: { totalDays: 20, daysTaken: 0, daysRemaining: 20, leavePending: 0, leaveRejected: 0 } },
  ],
  [
    "carried days are capped at maxCarryForwardLimit",
    { given: { today: "2026-01-15", carriedForwardDays: 12 }, want: { totalDays: 25, daysTaken: 0, daysRemaining: 25, leavePending: 0, leaveRejected: 0 } },
  ],
  [
    "expiry month 0: carried days count in January only",
    { given: { today: "2026-01-31", carriedForwardDays: 2, leaveType: { maxLeaveDays: 8, carryForward: { maxCarryForwardLimit: 2, expirationDate: 0 } } }, want: { totalDays: 10, daysTaken: 0, daysRemaining: 10, leavePending: 0, leaveRejected: 0 } },
  ],
  [
    "expiry month 0: nothing carried in February",
    { given: { today: "2026-02-01", carriedForwardDays: 2, leaveType: { maxLeaveDays: 8, carryForward: { maxCarryForwardLimit: 2, expirationDate: 0 } } }, want: { totalDays: 8, daysTaken: 0, daysRemaining: 8, leavePending: 0, leaveRejected: 0 } },
  ],
  [
    "a type without carry-forward carries nothing",
    { given: { today: "2026-01-05", carriedForwardDays: 7, leaveType: { maxLeaveDays: 10, carryForward: { maxCarryForwardLimit: 0, expirationDate: 11 } } }, want: { totalDays: 10, daysTaken: 0, daysRemaining: 10, leavePending: 0, leaveRejected: 0 } },
  ],
  [
    "daysRemaining never goes below 0",
    { given: { requests: [r("2026-02-02", 15, 2), r("2026-08-03", 9, 0)] }, want: { totalDays: 20, daysTaken: 15, daysRemaining: 0, leavePending: 9, leaveRejected: 0 } },
  ],
  [
    "carried days add to what remains",
    { given: { today: "2026-02-10", carriedForwardDays: 5, requests: [r("2026-01-12", 4, 2), r("2026-03-02", 3, 1)] }, want: { totalDays: 25, daysTaken: 4, daysRemaining: 18, leavePending: 3, leaveRejected: 0 } },
  ],
];

describe("leave balance of one employee and one leave type, this year", () => {
  it.each(cases)("%s", (_name, { given, want }) => {
    expect(computeBalance({ ...base, ...given })).toEqual(want);
  });
});
