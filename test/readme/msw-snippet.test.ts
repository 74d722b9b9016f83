import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { createHandlers } from "hr-service-mock/msw";
import { createClient } from "hr-service-contract/client";

// The mock's data, keys and rules in-process: no server to start. A pinned today gives the same data on every run.
const server = setupServer(...createHandlers({ seed: 1, today: "2026-01-15" }));
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const hr = (apiKey: string) => createClient({ baseUrl: "http://127.0.0.1:4010", apiKey, retry: false });

test("approved leave, a page at a time", async () => {
  const page = await hr("demo_org1_full").listLeaveRequests({ LeaveStatus: "Approved", PageSize: 5 });
  expect(page.data.map((leave) => leave.leaveStatus)).toEqual(Array(5).fill("Approved"));
  expect(page.totalRecords).toBeGreaterThan(5);
});

test("a key without Employee Management: View gets a 403", async () => {
  await expect(hr("demo_org1_leave_view").listDepartments()).rejects.toMatchObject({ kind: "permission", status: 403 });
});

test("a slow or failing API, as `hr-mock serve --latency --failure-status` gives it", async () => {
  server.use(...createHandlers({ seed: 1, today: "2026-01-15", latencyMs: 50, failureStatus: 200 }));
  await expect(hr("not_a_key").listLeaveTypes()).rejects.toMatchObject({ kind: "auth", code: "401" });
});

test("one operation answered your way in one test: server.use replaces its handler, the rest stay the mock", async () => {
  const page = { data: [], pageNumber: 1, pageSize: 25, totalPages: 0, totalRecords: 0 };
  server.use(http.get("http://127.0.0.1:4010/v1/leavetype/list", () => HttpResponse.json({ isSuccessful: true, code: "00", message: "Success", data: page })));
  expect((await hr("demo_org1_full").listLeaveTypes()).totalRecords).toBe(0);
  expect((await hr("demo_org1_full").listDepartments()).totalRecords).toBeGreaterThan(0);
});
