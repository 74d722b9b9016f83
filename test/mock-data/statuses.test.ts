import { describe, expect, it } from "vitest";
import { LEAVE_STATUS_NAMES, parseLeaveStatus } from "../../mock/data/statuses.js";
import { EMPLOYEE_STATUSES } from "../../mock/resources/employees.js";
import { loadOpenApi } from "../../scripts/lib/spec-document.js";

const schemas = loadOpenApi().components.schemas;

describe("leave statuses", () => {
  it("names by number are the spec's LeaveStatusName enum, numbered as LeaveStatusId", () => {
    expect([...LEAVE_STATUS_NAMES]).toEqual(schemas.LeaveStatusName.enum);
    expect(LEAVE_STATUS_NAMES.map((_, i) => i)).toEqual(schemas.LeaveStatusId.enum);
    expect(schemas.LeaveStatusId["x-enum-varnames"], "LeaveStatusId varnames in the same order").toEqual([...LEAVE_STATUS_NAMES]);
  });

  it.each([
    ["Approved", 2],
    ["approved", 2],
    ["APPROVED", 2],
    ["sUbMiTtEd", 0],
    [" Expired ", 5],
    ["0", 0],
    ["5", 5],
    ["6", undefined],
    ["-1", undefined],
    ["02", undefined],
    ["Approve", undefined],
    ["Cancelled", undefined],
    ["", undefined],
  ] as const)("LeaveStatus %j is %s", (text, want) => {
    expect(parseLeaveStatus(text)).toBe(want);
  });
});

describe("employee statuses", () => {
  it("are the spec's EmployeeStatus enum", () => {
    expect([...EMPLOYEE_STATUSES]).toEqual(schemas.EmployeeStatus.enum);
  });
});
