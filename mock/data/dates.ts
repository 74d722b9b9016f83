// Calendar arithmetic on plain UTC day numbers (days since 1970-01-01), so that nothing here
// depends on the machine's time zone. Records keep dates as ISO texts `YYYY-MM-DD`.

export const MS_PER_DAY = 86_400_000;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The day number of an ISO date `YYYY-MM-DD`, or undefined when the text is not a real calendar date. */
export function parseIsoDate(text: string): number | undefined {
  const known = dayByIso.get(text);
  if (known !== undefined) return known;
  const match = ISO_DATE.exec(text);
  if (!match) return undefined;
  const [year, month, day] = match.slice(1).map(Number);
  const back = new Date(dayFromYmd(year, month, day) * MS_PER_DAY);
  // 2026-02-30 rolls over into March; a real date survives the round trip.
  if (back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day) return undefined;
  return remember(dayByIso, text, back.getTime() / MS_PER_DAY);
}

/** Like parseIsoDate, for dates the program itself wrote: a bad one is a bug, so it throws. */
export function dayOf(iso: string): number {
  const day = parseIsoDate(iso);
  if (day === undefined) throw new RangeError(`not an ISO date (YYYY-MM-DD): ${JSON.stringify(iso)}`);
  return day;
}

export function isoDate(day: number): string {
  return isoByDay.get(day) ?? remember(isoByDay, day, new Date(day * MS_PER_DAY).toISOString().slice(0, 10));
}

// A dataset formats and parses the same few hundred days thousands of times (a tenth of its
// generation time), so both directions are memoised; bounded, so a long run's odd dates cannot grow them.
const MEMO_LIMIT = 100_000;
const isoByDay = new Map<number, string>();
const dayByIso = new Map<string, number>();

function remember<K, V>(memo: Map<K, V>, key: K, value: V): V {
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(key, value);
  return value;
}

export function dayFromYmd(year: number, month1: number, dayOfMonth: number): number {
  // Not Date.UTC: it reads the years 0 to 99 as 1900 to 1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month1 - 1, dayOfMonth);
  return date.getTime() / MS_PER_DAY;
}

/** Day of the week as JavaScript numbers it: 0 Sunday, 1 Monday, ... 6 Saturday. */
export function weekday(day: number): number {
  // 1970-01-01 was a Thursday (4).
  return (((day + 4) % 7) + 7) % 7;
}

export function yearOf(iso: string): number {
  return Number(iso.slice(0, 4));
}

/** Month index of an ISO date, 0 January ... 11 December (the spec's Month numbering). */
export function monthIndexOf(iso: string): number {
  return Number(iso.slice(5, 7)) - 1;
}

/** The API's calendar-date text: `YYYY-MM-DDT00:00:00`, no zone. */
export function dateText(iso: string): string {
  return `${iso}T00:00:00`;
}

/** The API's UTC timestamp text with 7 fractional digits, as the provider's examples show: `2026-11-02T09:14:27.5120000Z`. */
export function utcTimestamp(ms: number): string {
  const day = Math.floor(ms / MS_PER_DAY);
  // Years outside 0000-9999 (six digits and a sign) and fractional milliseconds as Date writes them.
  if (!Number.isInteger(ms) || day < FOUR_DIGIT_YEARS.from || day >= FOUR_DIGIT_YEARS.to) return `${new Date(ms).toISOString().slice(0, 23)}0000Z`;
  // The memoised date and the time of day by arithmetic: a Date and its text per timestamp were most of the cost.
  const t = ms - day * MS_PER_DAY;
  return `${isoDate(day)}T${pad(Math.floor(t / 3_600_000), 2)}:${pad(Math.floor(t / 60_000) % 60, 2)}:${pad(Math.floor(t / 1000) % 60, 2)}.${pad(t % 1000, 3)}0000Z`;
}

/** Day numbers of 0000-01-01 and 10000-01-01. */
const FOUR_DIGIT_YEARS = { from: -719_528, to: 2_932_897 } as const;

function pad(n: number, digits: number): string {
  return String(n).padStart(digits, "0");
}

/** The real current UTC date; the only clock reading in the data layer, used as a default. */
export function currentUtcDate(): string {
  return new Date().toISOString().slice(0, 10);
}

/** The dates "today" may be: records reach six years back and a year ahead, and the spec takes four-digit years only. */
export const TODAY_RANGE = { from: "1900-01-01", to: "9000-12-31" } as const;

/** The dataset's today as an ISO date; a RangeError names what is wrong with the value given. */
export function normalizeToday(today: string | Date | undefined): string {
  if (today === undefined) return currentUtcDate();
  if (today instanceof Date && Number.isNaN(today.getTime())) throw new RangeError("today must be a valid date");
  if (!(today instanceof Date) && parseIsoDate(today) === undefined) throw new RangeError(`today must be an ISO date YYYY-MM-DD, got ${JSON.stringify(today)}`);
  const iso = today instanceof Date ? today.toISOString().slice(0, 10) : today;
  if (iso < TODAY_RANGE.from || iso > TODAY_RANGE.to) throw new RangeError(`today must be a date from ${TODAY_RANGE.from} to ${TODAY_RANGE.to}, got ${iso}`);
  return iso;
}
