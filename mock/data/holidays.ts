// Public holiday calendars: fixed dates, Easter-relative dates and "nth weekday of a month" dates.
import { dayFromYmd, isoDate, weekday } from "./dates.js";
import type { HolidayRecord } from "./records.js";

export type HolidayRule =
  | { kind: "fixed"; name: string; month: number; day: number }
  /** Days after Easter Sunday (negative: before). */
  | { kind: "easter"; name: string; offset: number }
  /** The nth given weekday (0 Sunday ... 6 Saturday) of a month (1-12); n = -1 is the last one. */
  | { kind: "nth-weekday"; name: string; month: number; weekday: number; n: number };

/** Easter Sunday of a Gregorian year as a day number (the anonymous Gregorian algorithm). */
export function easterSunday(year: number): number {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return dayFromYmd(year, month, day);
}

function nthWeekday(year: number, month: number, dow: number, n: number): number {
  if (n > 0) {
    const first = dayFromYmd(year, month, 1);
    return first + ((dow - weekday(first) + 7) % 7) + 7 * (n - 1);
  }
  const last = dayFromYmd(year, month + 1, 0);
  return last - ((weekday(last) - dow + 7) % 7) + 7 * (n + 1);
}

function holidayDay(rule: HolidayRule, year: number): number {
  switch (rule.kind) {
    case "fixed":
      return dayFromYmd(year, rule.month, rule.day);
    case "easter":
      return easterSunday(year) + rule.offset;
    case "nth-weekday":
      return nthWeekday(year, rule.month, rule.weekday, rule.n);
  }
}

/** The holidays of the given years, in date order. */
export function holidaysFor(rules: readonly HolidayRule[], years: readonly number[]): HolidayRecord[] {
  const out: { day: number; name: string }[] = [];
  for (const year of years) for (const rule of rules) out.push({ day: holidayDay(rule, year), name: rule.name });
  out.sort((x, y) => x.day - y.day);
  return out.map(({ day, name }) => ({ date: isoDate(day), name }));
}
