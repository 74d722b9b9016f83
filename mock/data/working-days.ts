// The days of a leave request: working days from the first to the last day, both included.
// Saturdays and Sundays, the organisation's holidays and the employee's own days off do not count.
import { dayOf, weekday } from "./dates.js";

export interface WorkCalendar {
  /** The organisation's public holidays as ISO dates. */
  holidays: ReadonlySet<string>;
  /** The employee's regular days off, as weekday numbers (0 Sunday ... 6 Saturday). */
  daysOff: readonly number[];
}

const SATURDAY = 6;
const SUNDAY = 0;

// Holiday sets are long-lived (one per organisation), so each is turned into day numbers once:
// formatting every day of every span as text made dataset generation twice as slow.
const holidayDays = new WeakMap<ReadonlySet<string>, Set<number>>();

function holidayDaysOf(holidays: ReadonlySet<string>): Set<number> {
  let days = holidayDays.get(holidays);
  if (!days || days.size !== holidays.size) {
    days = new Set([...holidays].map((iso) => dayOf(iso)));
    holidayDays.set(holidays, days);
  }
  return days;
}

export function isWorkingDay(day: number, calendar: WorkCalendar): boolean {
  const dow = weekday(day);
  if (dow === SATURDAY || dow === SUNDAY) return false;
  if (calendar.daysOff.includes(dow)) return false;
  return !holidayDaysOf(calendar.holidays).has(day);
}

/** Working days between two ISO dates, both included; 0 when end is before start. */
export function workingDays(start: string, end: string, calendar: WorkCalendar): number {
  const last = dayOf(end);
  let count = 0;
  for (let day = dayOf(start); day <= last; day++) if (isWorkingDay(day, calendar)) count++;
  return count;
}

/** The first working day on or after the given day (searches at most a year ahead). */
export function nextWorkingDay(day: number, calendar: WorkCalendar): number {
  for (let d = day; d < day + 366; d++) if (isWorkingDay(d, calendar)) return d;
  return day;
}

/** The last day of a span that starts on `start` and holds `count` working days (count ≥ 1). */
export function endAfterWorkingDays(start: number, count: number, calendar: WorkCalendar): number {
  let seen = 0;
  let day = start;
  for (; ; day++) {
    if (isWorkingDay(day, calendar)) seen++;
    if (seen >= count || day - start > 3 * 366) return day;
  }
}
