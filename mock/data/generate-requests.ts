// Generated leave requests over last year, this year and the coming months, for an organisation's
// employees and leave types (generated or given by a data file).
import { LEAVE_TYPE_TEMPLATES, type LeaveTypeTemplate } from "./catalogue.js";
import { dayFromYmd, dayOf, isoDate, yearOf } from "./dates.js";
import { isEligible } from "./eligibility.js";
import { leaveRequestRecord, relieversFor, templateOfLeaveType, type Picker } from "./picker.js";
import type { EmployeeRecord, LeaveRequestRecord, LeaveTypeRecord } from "./records.js";
import { ABANDONED, APPROVED, EXPIRED, PENDING, REJECTED, SUBMITTED, isBudgeted, isLive, type LeaveStatusId } from "./statuses.js";
import { endAfterWorkingDays, nextWorkingDay, workingDays, type WorkCalendar } from "./working-days.js";

/** A leave type's template by its name; a name of a data file's own takes the first (annual leave)'s lengths and words. */
export function leaveTemplateOf(name: string): LeaveTypeTemplate {
  return templateOfLeaveType(name) ?? LEAVE_TYPE_TEMPLATES[0];
}

/** Status of a generated request by where it lies relative to today. */
export function statusFor(p: Picker, startDay: number, endDay: number, todayDay: number): LeaveStatusId {
  if (startDay > todayDay) {
    return p.weighted([[SUBMITTED, 28], [PENDING, 17], [APPROVED, 45], [REJECTED, 5], [ABANDONED, 5]] as const);
  }
  if (endDay >= todayDay) return p.weighted([[APPROVED, 90], [PENDING, 4], [ABANDONED, 6]] as const);
  return p.weighted([[APPROVED, 62], [REJECTED, 13], [ABANDONED, 10], [EXPIRED, 10], [PENDING, 3], [SUBMITTED, 2]] as const);
}

export interface RequestContext {
  target: number;
  domain: string;
  todayDay: number;
  employees: readonly EmployeeRecord[];
  leaveTypes: readonly LeaveTypeRecord[];
  membersOf: ReadonlyMap<string, readonly EmployeeRecord[]>;
  holidayDates: ReadonlySet<string>;
}

export function generateRequests(p: Picker, ctx: RequestContext): LeaveRequestRecord[] {
  const { todayDay } = ctx;
  const year = yearOf(isoDate(todayDay));
  const windowStart = dayFromYmd(year - 1, 1, 1);
  const windowEnd = todayDay + 150;
  const templates = new Map(ctx.leaveTypes.map((t) => [t.id, leaveTemplateOf(t.name)]));
  const eligibleTypes = new Map(ctx.employees.map((e) => [e.id, ctx.leaveTypes.filter((t) => isEligible(t, e))]));
  // A data file may give employees no leave type is for, or no employee at all.
  const candidates = ctx.employees.filter((e) => eligibleTypes.get(e.id)!.length > 0);
  if (candidates.length === 0) return [];
  const busy = new Map<string, [number, number][]>(); // employee → spans of live requests
  const used = new Map<string, number>(); // employee|type|year → days Submitted, Pending or Approved
  const out: LeaveRequestRecord[] = [];

  for (let attempt = 0; out.length < ctx.target && attempt < ctx.target * 30; attempt++) {
    const employee = p.pick(candidates.length === ctx.employees.length ? ctx.employees : candidates);
    const types = eligibleTypes.get(employee.id)!;
    if (types.length === 0) continue; // a data file's employee may be eligible for no leave type
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
    const live = isBudgeted(statusId);
    const budgetKey = `${employee.id}|${type.id}|${yearOf(startDate)}`;
    if (live && (used.get(budgetKey) ?? 0) + days > type.maxLeaveDays) continue;
    if (live) used.set(budgetKey, (used.get(budgetKey) ?? 0) + days);
    if (isLive(statusId)) busy.set(employee.id, [...spans, [startDay, endDay]]);

    // Asked for 1-60 days ahead, and before today (nobody asks from the future): requests for the
    // coming months spread over the last weeks rather than piling up on yesterday.
    const requestedDay = Math.min(startDay - p.skewedInt(1, 60), todayDay - 1 - p.skewedInt(0, 40));
    const id = p.uuid();
    const relievers = relieversFor(p, employee, ctx.membersOf.get(employee.departmentId) ?? [], ctx.employees);
    const comments = p.pick(template.comments);
    const requestedOn = p.timestampOn(requestedDay, 6, 21);
    out.push(leaveRequestRecord(p, ctx.domain, employee, type, { id, startDate, endDate, days, statusId, comments, requestedOn, relievers }));
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
