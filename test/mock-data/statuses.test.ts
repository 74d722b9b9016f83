import { describe, expect, it } from "vitest";
import { LEAVE_STATUS_NAMES, leaveStatusId } from "../../mock/data/statuses.js";
import { loadOpenApi } from "../../scripts/lib/spec-document.js";

const schemas = loadOpenApi().components.schemas;

describe("leave statuses", () => {
  it("the name enum and the number enum list the statuses in the same order (x-enum-varnames)", () => {
    expect(schemas.LeaveStatusId["x-enum-varnames"], "LeaveStatusId varnames in LeaveStatusName's order").toEqual([...LEAVE_STATUS_NAMES]);
  });

  // Letter case is settled before a handler runs (the spec's x-case-insensitive); see request-checks.test.ts.
  it.each([
    ["Approved", 2],
    ["Submitted", 0],
    ["Expired", 5],
    [0, 0],
    [5, 5],
  ] as const)("the validated value %j is status %s", (value, want) => {
    expect(leaveStatusId(value)).toBe(want);
  });
});
