// `Prefer: dynamic=true` (Prism's own generator) answers values a reader would believe. Asked 40
// times for each of the seven read operations (280 answers), every answer validates against the spec
// and keeps to the rules below, each checked at every JSON pointer it applies to: dates are real
// calendar dates within five years of the dataset's today (a today far from the machine's clock, so
// the clock cannot pass for it), pages keep to the paging limits, counts of days to two years, names
// read like names, no text is placeholder Latin, and no field is one the spec does not name.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_KEY, startMock, type RunningMock } from "../../mock/index.js";
import { parameters } from "../../generated/facts.js";
import { loadOpenApi } from "../../scripts/lib/spec-document.js";
import { walk } from "../../scripts/lib/spec-validator.js";
import { createOpenApiValidator } from "../support/openapi-validator.js";
import { validPaths } from "./support.js";

const ASKS_PER_OPERATION = 40;
const TODAY = "2035-03-10";
const YEARS_FROM_TODAY = 5;
const openapi = loadOpenApi();
const spec = createOpenApiValidator(openapi);

/** Every property name the read API's schemas declare. */
const declared = new Set<string>();
for (const [, node] of walk(openapi)) if (node.properties && typeof node.properties === "object") for (const name of Object.keys(node.properties)) declared.add(name);

/** Every [pointer, key, value] in a JSON value, depth first. */
function entries(value: unknown, pointer = "", out: Array<[string, string, unknown]> = []): Array<[string, string, unknown]> {
  if (value && typeof value === "object")
    for (const [key, child] of Object.entries(value)) {
      out.push([`${pointer}/${key}`, key, child]);
      entries(child, `${pointer}/${key}`, out);
    }
  return out;
}

const DAY_COUNTS = new Set(["days", "totalDays", "daysTaken", "daysRemaining", "leavePending", "leaveRejected", "maxLeaveDays", "maxCarryForwardLimit"]);
// Words of the generator's placeholder Latin ("Lorem ipsum dolor sit amet ...") that English text does not use.
const LOREM = /\b(lorem|ipsum|consectetur|adipisicing|eiusmod|tempor|incididunt|labore|aliqua|cillum|officia|deserunt|laborum|nostrud|exercitation|ullamco|aliquip|commodo|consequat|reprehenderit|voluptate|velit|fugiat|pariatur|excepteur|occaecat|cupidatat|proident|culpa|mollit|irure)\b/i;
const NAME = /^\p{L}[\p{L} '’-]*$/u;
const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})T/;

/** A rule a dynamic answer keeps: what it says when broken at a pointer, or undefined. */
type Rule = (pointer: string, key: string, value: unknown) => string | undefined;

const today = new Date(`${TODAY}T00:00:00Z`);
const rules: [string, Rule][] = [
  ["no field the spec does not name", (_p, key, value) => (/^\d+$/.test(key) || declared.has(key) ? undefined : `${key} = ${JSON.stringify(value)?.slice(0, 40)}`)],
  ["dates are real and within five years of the dataset's today", (_p, _k, value) => {
    const match = typeof value === "string" ? CALENDAR_DATE.exec(value) : null;
    if (!match) return undefined;
    const [year, month, day] = match.slice(1).map(Number);
    const date = new Date(Date.UTC(year, month - 1, day));
    if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return `${value} is not a calendar date`;
    return Math.abs(year - today.getUTCFullYear()) > YEARS_FROM_TODAY ? `${value} is more than ${YEARS_FROM_TODAY} years from ${TODAY}` : undefined;
  }],
  ["pages keep to the paging limits", (pointer, key, value) => {
    if (pointer !== `/data/${key}`) return undefined;
    if (key === "pageSize" && !((value as number) >= parameters.PageSize.minimum && (value as number) <= parameters.PageSize.maximum)) return `pageSize ${value}`;
    if (key === "pageNumber" && !((value as number) >= parameters.PageNumber.minimum && (value as number) <= parameters.PageNumber.maximum)) return `pageNumber ${value}`;
    if (key === "data" && Array.isArray(value) && value.length > parameters.PageSize.maximum) return `${value.length} items on one page`;
    return undefined;
  }],
  ["counts of days are at most two years", (_p, key, value) => (DAY_COUNTS.has(key) && !(typeof value === "number" && value >= 0 && value <= 2 * 366) ? `${key} ${value}` : undefined)],
  ["names read like names", (pointer, key, value) => {
    if (!(key === "name" || key.endsWith("Name")) || pointer.includes("/documents/")) return undefined;
    return typeof value === "string" && NAME.test(value) && value.length <= 60 ? undefined : `${key} ${JSON.stringify(value)}`;
  }],
  ["text is not placeholder Latin", (_p, _k, value) => (typeof value === "string" && LOREM.test(value) ? JSON.stringify(value.slice(0, 60)) : undefined)],
];

/** The rules an answer breaks, as "rule at pointer: what". */
function broken(body: unknown): string[] {
  const problems: string[] = [];
  for (const [pointer, key, value] of entries(body)) for (const [name, rule] of rules) {
    const problem = rule(pointer, key, value);
    if (problem) problems.push(`${name} at ${pointer}: ${problem}`);
  }
  return problems;
}

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ port: 0, rateLimit: "off", today: TODAY });
});
afterAll(() => mock?.close());

describe(`Prefer: dynamic=true, ${ASKS_PER_OPERATION} times per operation`, () => {
  it.each(spec.operationIds())("%s answers believable values that validate", async (operationId) => {
    const path = (validPaths(mock.ids[0]) as Record<string, string>)[operationId];
    const problems = new Set<string>();
    for (let i = 0; i < ASKS_PER_OPERATION; i++) {
      const response = await fetch(mock.url + path, { headers: { Authorization: `Bearer ${DEMO_KEY.org1Full}`, Prefer: "dynamic=true" } });
      const body = await response.json();
      expect(response.status, `${path}: status of a dynamic answer`).toBe(200);
      for (const problem of spec.check(operationId, 200, body)) problems.add(`invalid: ${problem}`);
      for (const problem of broken(body)) problems.add(problem);
    }
    expect([...problems].slice(0, 10), `${operationId}: dynamic answers`).toEqual([]);
  });
});

describe("the rules reject what Prism's generator answers without the spec's hints", () => {
  const cases: [string, { given: unknown; want: string[] }][] = [
    ["a page size beyond the limit", { given: { data: { pageSize: 246164375 } }, want: ["pages keep to the paging limits at /data/pageSize: pageSize 246164375"] }],
    ["a date far away, and one that is not a date", { given: { data: { startDate: "5560-11-30T00:00:00", endDate: "2035-02-30T00:00:00" } }, want: ["dates are real and within five years of the dataset's today at /data/startDate: 5560-11-30T00:00:00 is more than 5 years from 2035-03-10", "dates are real and within five years of the dataset's today at /data/endDate: 2035-02-30T00:00:00 is not a calendar date"] }],
    ["a count of days beyond two years", { given: { data: { days: 930045167 } }, want: ["counts of days are at most two years at /data/days: days 930045167"] }],
    ["a name in Latin with digits", { given: { data: { employeeName: "aute 7" } }, want: ['names read like names at /data/employeeName: employeeName "aute 7"'] }],
    ["placeholder text", { given: { message: "cillum ex est" }, want: ['text is not placeholder Latin at /message: "cillum ex est"'] }],
    ["an invented field", { given: { data: { Ut_1: 73458371 } }, want: ["no field the spec does not name at /data/Ut_1: Ut_1 = 73458371"] }],
    ["a believable answer", { given: { message: "Success", data: { employeeName: "Amara O'Neil-Okafor", startDate: "2034-12-21T00:00:00", requestedOn: "2034-11-02T09:14:27.5120000Z", pageSize: 25, days: 4 } }, want: [] }],
  ];
  it.each(cases)("%s", (_name, { given, want }) => {
    expect(broken(given)).toEqual(want);
  });
});
