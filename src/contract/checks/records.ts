// Rules a single record must keep whatever the request: a leave request's status number and name
// agree (service-api.md 3.1), it ends on or after it starts, and its working days fit its calendar days.
import { fromProblems, notChecked, type Finding } from "../results.js";
import { dayOf } from "./filters.js";

const DAY_MS = 86_400_000;

const utcDay = (iso: string) => Date.parse(`${iso}T00:00:00Z`);

/** Calendar days from start to end, both included; undefined when unreadable or reversed. */
export function calendarDays(start: string, end: string): number | undefined {
  const a = utcDay(start);
  const b = utcDay(end);
  if (Number.isNaN(a) || Number.isNaN(b) || b < a) return undefined;
  return Math.round((b - a) / DAY_MS) + 1;
}

/** Monday to Friday days from start to end, both included. */
export function weekdays(start: string, end: string): number | undefined {
  const total = calendarDays(start, end);
  if (total === undefined) return undefined;
  let count = 0;
  const first = utcDay(start);
  for (let i = 0; i < total; i++) {
    const weekday = new Date(first + i * DAY_MS).getUTCDay();
    if (weekday !== 0 && weekday !== 6) count++;
  }
  return count;
}

const label = (item: any) => (typeof item?.id === "string" ? `${item.id.slice(0, 8)}…` : "an item");

export function checkStatusAgreement(items: readonly any[], statusNames: ReadonlyMap<number, string>): Finding {
  if (items.length === 0) return notChecked("no leave request seen");
  const problems = items
    .filter((item) => statusNames.get(item?.leaveStatusId) !== item?.leaveStatus)
    .map((item) => `${label(item)} leaveStatusId ${item?.leaveStatusId} with leaveStatus ${JSON.stringify(item?.leaveStatus)}`);
  return fromProblems(problems, `${items.length} leave requests: leaveStatusId and leaveStatus agree`);
}

export function checkLeaveDates(items: readonly any[]): Finding {
  if (items.length === 0) return notChecked("no leave request seen");
  const problems: string[] = [];
  for (const item of items) {
    const start = dayOf(item?.startDate);
    const end = dayOf(item?.endDate);
    if (start === undefined || end === undefined) continue; // the schema check reports unreadable dates
    const calendar = calendarDays(start, end);
    if (calendar === undefined) problems.push(`${label(item)} ends ${end}, before it starts ${start}`);
    else if (typeof item.days === "number" && (item.days < 0 || item.days > calendar)) {
      problems.push(`${label(item)} has ${item.days} working days in ${calendar} calendar days (${start} to ${end})`);
    }
  }
  return fromProblems(problems, `${items.length} leave requests end on or after they start, days within their calendar days`);
}
