// What Prism's generator (json-schema-faker) is given for `Prefer: dynamic=true`: a copy of the
// operation whose response schemas say three things the contract deliberately leaves open, for
// generation only (the copy is never used to validate, and the spec is unchanged):
// - an object has only the properties it names. The contract leaves objects open (a provider may add
//   fields), and the generator fills open objects with invented fields such as "Ut_1": 73458371.
// - dates lie near today. A calendar date's pattern allows the year 9999 and the 31st of February,
//   and the generator's own date-times fall between 1890 and 1970.
// - a list is short. The contract's limits (100 items a page, 20 documents a leave type) are
//   ceilings; drawn evenly up to them, a page of leave types weighs 250 KiB and takes half a second.
// All are plain JSON Schema keywords the generator draws from with its seeded random, so `seed=…`
// still repeats what they decide; `x-faker` hints (names, text) Prism's faker draws unseeded.
import { dateText, isoDate, MS_PER_DAY, utcTimestamp } from "../data/dates.js";
import type { PrismOperation } from "../kernel/spec.js";

/** Calendar dates (leave days) are drawn from a year either side of today. */
export const CALENDAR_DAYS_EACH_SIDE = 365;
/** Timestamps (when a record was asked for, created, changed) are drawn from the two years before today. */
export const TIMESTAMP_DAYS_BACK = 730;

/** The most items a generated list holds (fewer where the spec's maxItems says so). */
export const LIST_ITEMS_MAX = 10;

/** The operation as Prism's generator should see it on `today` (a UTC day number). */
export function forGeneration(operation: PrismOperation, today: number): PrismOperation {
  const copy = structuredClone(operation);
  const calendarDates = days(today - CALENDAR_DAYS_EACH_SIDE, today + CALENDAR_DAYS_EACH_SIDE).map((day) => dateText(isoDate(day)));
  // A time of day that varies from day to day (working hours, to the millisecond), not a random one:
  // the list is the same for every request of the day.
  const timestamps = days(today - TIMESTAMP_DAYS_BACK, today - 1).map((day) => utcTimestamp(day * MS_PER_DAY + ((day * 7_919_113) % 36_000_000) + 7 * 3_600_000));
  const isCalendarDate = (pattern: string) => {
    const re = new RegExp(pattern, "u");
    return re.test(calendarDates[CALENDAR_DAYS_EACH_SIDE]) && !re.test("text");
  };
  const seen = new WeakSet<object>();
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== "object" || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) return node.forEach(visit);
    const schema = node as Record<string, unknown>;
    if (schema.properties && typeof schema.properties === "object" && !("additionalProperties" in schema)) schema.additionalProperties = false;
    if (schema.type === "array") schema.maxItems = Math.min(LIST_ITEMS_MAX, typeof schema.maxItems === "number" ? schema.maxItems : LIST_ITEMS_MAX);
    if (schema.type === "string" && typeof schema.pattern === "string" && isCalendarDate(schema.pattern)) {
      // The generator reads a pattern before an enum: the pattern goes from the copy.
      delete schema.pattern;
      schema.enum = calendarDates;
    } else if (schema.type === "string" && schema.format === "date-time" && !("enum" in schema)) {
      // The generator rewrites a date-time's fraction (".0Z"); the provider's texts keep their seven digits.
      delete schema.format;
      schema.enum = timestamps;
    }
    Object.values(schema).forEach(visit);
  };
  for (const response of copy.responses) for (const content of response.contents ?? []) visit(content.schema);
  return copy;
}

function days(first: number, last: number): number[] {
  return Array.from({ length: last - first + 1 }, (_, i) => first + i);
}
