// The copy of an operation that Prism's generator sees for `Prefer: dynamic=true`: objects closed to
// their own properties, calendar dates and timestamps near the dataset's today, short lists; the
// operation Prism routes and validates with is left as it was.
import { describe, expect, it } from "vitest";
import { CALENDAR_DAYS_EACH_SIDE, forGeneration, LIST_ITEMS_MAX, TIMESTAMP_DAYS_BACK } from "../../mock/pipeline/dynamic-schema.js";
import { dayOf } from "../../mock/data/dates.js";
import type { PrismOperation } from "../../mock/kernel/spec.js";

const TODAY = dayOf("2031-03-10");
const DATE_TEXT = { type: "string", maxLength: 19, pattern: "^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])T00:00:00$" };

/** An operation whose one response has the given schema, as Prism's reader gives it. */
function operationWith(schema: object): PrismOperation {
  return { id: "op", method: "get", path: "/x", request: {}, responses: [{ id: "r", code: "200", headers: [], contents: [{ id: "c", mediaType: "application/json", schema, examples: [], encodings: [] }] }] } as unknown as PrismOperation;
}
const schemaOf = (operation: PrismOperation) => operation.responses[0].contents![0].schema as any;

describe("forGeneration", () => {
  const cases: [string, { given: object; want: (schema: any) => void }][] = [
    ["an object with properties is closed to them", { given: { type: "object", properties: { a: { type: "string" } } }, want: (s) => expect(s.additionalProperties).toBe(false) }],
    ["an object that says what else it allows keeps it", { given: { type: "object", properties: { a: { type: "string" } }, additionalProperties: { type: "integer" } }, want: (s) => expect(s.additionalProperties).toEqual({ type: "integer" }) }],
    ["each allOf part is closed", { given: { allOf: [{ type: "object", properties: { a: {} } }, { type: "object", properties: { b: {} } }] }, want: (s) => expect(s.allOf.map((p: any) => p.additionalProperties)).toEqual([false, false]) }],
    ["a calendar date's pattern gives way to the dates a year either side of today", {
      given: { type: "object", properties: { startDate: DATE_TEXT } },
      want: (s) => {
        expect(s.properties.startDate.pattern, "the pattern is gone from the copy").toBeUndefined();
        expect(s.properties.startDate.enum).toHaveLength(2 * CALENDAR_DAYS_EACH_SIDE + 1);
        expect([s.properties.startDate.enum[0], s.properties.startDate.enum.at(-1)]).toEqual(["2030-03-10T00:00:00", "2032-03-09T00:00:00"]);
      },
    }],
    ["a date-time is one of the two years before today, written as the provider writes them", {
      given: { type: "string", format: "date-time", maxLength: 33 },
      want: (s) => {
        expect(s.enum).toHaveLength(TIMESTAMP_DAYS_BACK);
        expect(s.enum[0]).toMatch(/^2029-03-10T\d{2}:\d{2}:\d{2}\.\d{7}Z$/);
        expect(s.enum.at(-1)).toMatch(/^2031-03-09T/);
      },
    }],
    ["a pattern that is not a calendar date stays", { given: { type: "string", pattern: "^EMP-\\d{4}$" }, want: (s) => expect([s.pattern, s.enum]).toEqual(["^EMP-\\d{4}$", undefined]) }],
    ["a long list is capped", { given: { type: "array", maxItems: 100, items: { type: "string" } }, want: (s) => expect(s.maxItems).toBe(LIST_ITEMS_MAX) }],
    ["a list with no maxItems is capped", { given: { type: "array", items: { type: "string" } }, want: (s) => expect(s.maxItems).toBe(LIST_ITEMS_MAX) }],
    ["a shorter list keeps its maxItems", { given: { type: "array", maxItems: 3, items: { type: "string" } }, want: (s) => expect(s.maxItems).toBe(3) }],
  ];
  it.each(cases)("%s", (_name, { given, want }) => {
    const operation = operationWith(given);
    const before = structuredClone(operation);
    want(schemaOf(forGeneration(operation, TODAY)));
    expect(operation, "the operation given is not changed").toEqual(before);
  });

  it("a schema used in two places (as Prism's reader shares them) is handled once, in both", () => {
    const shared = { type: "object", properties: { a: { type: "string" } } };
    const copy = schemaOf(forGeneration(operationWith({ type: "object", properties: { x: shared, y: shared } }), TODAY));
    expect([copy.properties.x.additionalProperties, copy.properties.y.additionalProperties]).toEqual([false, false]);
  });
});
