// `Prefer: dynamic=true` (Prism's own mocker) answers values a reader would believe: asked a few
// hundred times over every operation, each answer validates against the spec (with its bounds), pages
// stay within the paging limits, counts of days within two years. The bounds come from the spec
// alone: no option of json-schema-faker (Prism's library) is changed, so dates are still drawn from
// its default years (the spec states no year range).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_KEY, startMock, type RunningMock } from "../../mock/index.js";
import { parameters } from "../../generated/facts.js";
import { createOpenApiValidator } from "../support/openapi-validator.js";
import { validPaths } from "./support.js";

const ASKS_PER_OPERATION = 10;
const spec = createOpenApiValidator();

/** Every [key, value] pair in a JSON value, depth first. */
function pairs(value: unknown, out: Array<[string, unknown]> = []): Array<[string, unknown]> {
  if (Array.isArray(value)) for (const item of value) pairs(item, out);
  else if (value && typeof value === "object")
    for (const [key, child] of Object.entries(value)) {
      out.push([key, child]);
      pairs(child, out);
    }
  return out;
}

const DAY_COUNTS = new Set(["days", "totalDays", "daysTaken", "daysRemaining", "leavePending", "leaveRejected", "maxLeaveDays"]);

/** What a plausible answer must not contain, as one line per problem. */
function implausible(body: any): string[] {
  const problems: string[] = [];
  const page = body?.data;
  if (page && typeof page === "object" && "pageSize" in page) {
    if (page.pageSize < parameters.PageSize.minimum || page.pageSize > parameters.PageSize.maximum) problems.push(`pageSize ${page.pageSize} outside the paging limits`);
    if (Array.isArray(page.data) && page.data.length > parameters.PageSize.maximum) problems.push(`${page.data.length} items on one page`);
  }
  for (const [key, value] of pairs(body)) {
    if (DAY_COUNTS.has(key) && (typeof value !== "number" || value < 0 || value > 2 * 366)) problems.push(`${key} ${value}: not a count of days of at most two years`);
  }
  return problems;
}

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ port: 0, rateLimit: "off" });
});
afterAll(() => mock?.close());

describe(`Prefer: dynamic=true, ${ASKS_PER_OPERATION} times per operation`, () => {
  it.each(spec.operationIds())("%s answers plausible values that validate", async (operationId) => {
    const path = (validPaths(mock.ids[0]) as Record<string, string>)[operationId];
    const problems = new Set<string>();
    for (let i = 0; i < ASKS_PER_OPERATION; i++) {
      const response = await fetch(mock.url + path, { headers: { Authorization: `Bearer ${DEMO_KEY.org1Full}`, Prefer: "dynamic=true" } });
      const body = await response.json();
      expect(response.status, `${path}: status of a dynamic answer`).toBe(200);
      for (const problem of spec.check(operationId, 200, body)) problems.add(`invalid: ${problem}`);
      for (const problem of implausible(body)) problems.add(problem);
    }
    expect([...problems].slice(0, 10), `${operationId}: dynamic answers`).toEqual([]);
  }, 60_000);

  it("the plausibility check itself rejects what Prism used to answer", () => {
    expect(implausible({ data: { pageSize: 246164375, data: [{ startDate: "5560-11-31T00:00:00", days: 930045167 }] } })).toHaveLength(2);
  });
});
