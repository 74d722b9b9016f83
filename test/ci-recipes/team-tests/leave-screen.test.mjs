// A team's own test, standing in for theirs when test/ci-recipes/recipes.test.ts runs a recipe: the
// typed client of hr-service-contract against the mock at HR_MOCK_URL, as `npm test` (node --test).
import assert from "node:assert/strict";
import { test } from "node:test";
import { createClient } from "hr-service-contract/client";

const hr = createClient({ baseUrl: process.env.HR_MOCK_URL, apiKey: "demo_org1_full" });

test("the leave screen lists approved leave requests, page by page", async () => {
  const page = await hr.listLeaveRequests({ LeaveStatus: "Approved", PageSize: 5 });
  assert.ok(page.data.length > 0, "the mock's dataset has approved leave requests");
  assert.deepEqual(new Set(page.data.map((leave) => leave.leaveStatus)), new Set(["Approved"]));
});

test("the department filter reads the departments first", async () => {
  const [department] = (await hr.listDepartments({ PageSize: 1 })).data;
  const page = await hr.listLeaveRequests({ DepartmentId: department.id });
  assert.equal(typeof page.totalRecords, "number");
});
