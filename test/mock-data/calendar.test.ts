import { describe, expect, it } from "vitest";
import { dateText, parseIsoDate, utcTimestamp, weekday, dayOf } from "../../mock/data/dates.js";
import { easterSunday, holidaysFor, type HolidayRule } from "../../mock/data/holidays.js";
import { isWorkingDay, workingDays } from "../../mock/data/working-days.js";
import { ORGANIZATION_PROFILES } from "../../mock/data/catalogue.js";
import { isoDate } from "../../mock/data/dates.js";

type Case = [string, { given: { start: string; end: string; holidays?: string[]; daysOff?: number[] }; want: number }];

// 2026-01-05 is a Monday; 2026-01-01 a Thursday; 2028 is a leap year.
const cases: Case[] = [
  ["a single weekday", { given: { start: "2026-01-06", end: "2026-01-06" }, want: 1 }],
  ["Monday to Friday", { given: { start: "2026-01-05", end: "2026-01-09" }, want: 5 }],
  ["a whole week, weekend included, counts five", { given: { start: "2026-01-05", end: "2026-01-11" }, want: 5 }],
  ["a weekend alone counts nothing", { given: { start: "2026-01-10", end: "2026-01-11" }, want: 0 }],
  ["two weeks", { given: { start: "2026-01-05", end: "2026-01-16" }, want: 10 }],
  ["a holiday inside the span is left out", { given: { start: "2026-01-05", end: "2026-01-09", holidays: ["2026-01-07"] }, want: 4 }],
  ["a holiday on a Saturday takes nothing more", { given: { start: "2026-01-05", end: "2026-01-11", holidays: ["2026-01-10"] }, want: 5 }],
  ["a holiday outside the span does not matter", { given: { start: "2026-01-05", end: "2026-01-09", holidays: ["2026-01-12"] }, want: 5 }],
  ["Friday as a day off is left out", { given: { start: "2026-01-05", end: "2026-01-11", daysOff: [5] }, want: 4 }],
  ["two days off a week", { given: { start: "2026-01-05", end: "2026-01-16", daysOff: [1, 3] }, want: 6 }],
  ["a day off that is also a holiday counts once", { given: { start: "2026-01-05", end: "2026-01-09", holidays: ["2026-01-09"], daysOff: [5] }, want: 4 }],
  ["a Sunday day off changes nothing", { given: { start: "2026-01-05", end: "2026-01-11", daysOff: [0] }, want: 5 }],
  ["across the year end with Christmas and New Year", { given: { start: "2025-12-22", end: "2026-01-02", holidays: ["2025-12-25", "2025-12-26", "2026-01-01"] }, want: 7 }],
  ["across the year end, a day off too", { given: { start: "2025-12-29", end: "2026-01-02", holidays: ["2026-01-01"], daysOff: [5] }, want: 3 }],
  ["across a leap day", { given: { start: "2028-02-28", end: "2028-03-01" }, want: 3 }],
  ["end before start is nothing", { given: { start: "2026-01-09", end: "2026-01-05" }, want: 0 }],
];

describe("working days between two dates, both included", () => {
  it.each(cases)("%s", (_name, { given, want }) => {
    const calendar = { holidays: new Set(given.holidays ?? []), daysOff: given.daysOff ?? [] };
    expect(workingDays(given.start, given.end, calendar), `${given.start}..${given.end}`).toBe(want);
  });

  it("counts exactly the days isWorkingDay accepts", () => {
    const calendar = { holidays: new Set(["2026-04-03", "2026-04-06"]), daysOff: [5] };
    let expected = 0;
    for (let d = dayOf("2026-03-01"); d <= dayOf("2026-05-31"); d++) if (isWorkingDay(d, calendar)) expected++;
    expect(workingDays("2026-03-01", "2026-05-31", calendar)).toBe(expected);
  });
});

describe("dates", () => {
  it.each([
    ["2026-02-28", true],
    ["2028-02-29", true],
    ["2026-02-29", false],
    ["0001-01-01", true],
    ["0099-12-31", true],
    ["0000-02-29", true],
    ["0100-02-29", false],
    ["2026-13-01", false],
    ["2026-1-01", false],
    ["20260101", false],
    ["", false],
  ] as const)("parseIsoDate(%j) is a real date: %s", (text, valid) => {
    expect(parseIsoDate(text) !== undefined, text).toBe(valid);
  });

  it.each(["0001-01-01", "0099-12-31", "1969-12-31", "2026-05-14", "9999-12-31"])("%s survives dayOf then isoDate (years below 100 too)", (iso) => {
    expect(isoDate(dayOf(iso))).toBe(iso);
  });

  it("weekday numbers Sunday 0 ... Saturday 6, as getUTCDay", () => {
    for (const iso of ["1970-01-01", "2025-12-29", "2026-01-01", "2026-05-16", "2026-05-17", "1969-12-31"]) {
      expect(weekday(dayOf(iso)), iso).toBe(new Date(`${iso}T00:00:00Z`).getUTCDay());
    }
  });

  it("writes the API's texts: dates with a zero time, timestamps with 7 fractional digits and Z", () => {
    expect(dateText("2026-12-21")).toBe("2026-12-21T00:00:00");
    expect(utcTimestamp(Date.UTC(2026, 10, 2, 9, 14, 27, 512))).toBe("2026-11-02T09:14:27.5120000Z");
  });
});

describe("holiday calendars", () => {
  it.each([
    [2024, "2024-03-31"],
    [2025, "2025-04-20"],
    [2026, "2026-04-05"],
    [2027, "2027-03-28"],
    [2038, "2038-04-25"],
  ] as const)("Easter Sunday %i is %s", (year, want) => {
    expect(isoDate(easterSunday(year))).toBe(want);
  });

  const byName = (rules: HolidayRule[], year: number) => new Map(holidaysFor(rules, [year]).map((h) => [h.name, h.date]));

  it.each([
    ["UK", 0, 2026, "Good Friday", "2026-04-03"],
    ["UK", 0, 2026, "Easter Monday", "2026-04-06"],
    ["UK", 0, 2026, "Early May Bank Holiday", "2026-05-04"],
    ["UK", 0, 2026, "Spring Bank Holiday", "2026-05-25"],
    ["UK", 0, 2026, "Summer Bank Holiday", "2026-08-31"],
    ["UK", 0, 2025, "Boxing Day", "2025-12-26"],
    ["US", 1, 2026, "Martin Luther King Jr. Day", "2026-01-19"],
    ["US", 1, 2026, "Memorial Day", "2026-05-25"],
    ["US", 1, 2026, "Labor Day", "2026-09-07"],
    ["US", 1, 2026, "Thanksgiving Day", "2026-11-26"],
    ["US", 1, 2027, "Thanksgiving Day", "2027-11-25"],
  ] as const)("%s calendar: %s %s is %s", (_country, profile, year, name, want) => {
    expect(byName(ORGANIZATION_PROFILES[profile].holidays, year).get(name)).toBe(want);
  });

  it("lists the holidays of every year asked, in date order", () => {
    const list = holidaysFor(ORGANIZATION_PROFILES[0].holidays, [2025, 2026, 2027]);
    expect(list.length).toBe(3 * ORGANIZATION_PROFILES[0].holidays.length);
    expect(list.map((h) => h.date)).toEqual([...list.map((h) => h.date)].sort());
  });
});
