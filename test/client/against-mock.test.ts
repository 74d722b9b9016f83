// The same client calls against the running mock (mock/index.ts), on ephemeral ports.
import { readFileSync } from "node:fs";
import { format } from "node:util";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { DEMO_KEY, startMock, type RunningMock } from "../../mock/index.js";
import { collectAll, createHrClient, HrApiError, type HrApiErrorKind, type HrClient, type RetryOptions } from "../../src/client/index.js";
import { recordingSleep } from "./support/scripted-fetch.js";

let mock: RunningMock;
let failuresAs200: RunningMock;
let alwaysFailing: RunningMock;
let alwaysFailingAs200: RunningMock;

beforeAll(async () => {
  [mock, failuresAs200, alwaysFailing, alwaysFailingAs200] = await Promise.all([
    startMock({ port: 0 }),
    startMock({ port: 0, failureStatus: 200, rateLimit: 2 }),
    startMock({ port: 0, failRate: 1 }),
    startMock({ port: 0, failRate: 1, failureStatus: 200 }),
  ]);
});

afterAll(async () => {
  await Promise.all([mock, failuresAs200, alwaysFailing, alwaysFailingAs200].map((m) => m?.close()));
});

function clientOf(server: RunningMock, apiKey: string = DEMO_KEY.org1Full, retry: RetryOptions | false = false): HrClient {
  return createHrClient({ baseUrl: server.url, apiKey, retry });
}

async function errorOf(promise: Promise<unknown>): Promise<HrApiError> {
  const error = await promise.then(
    (value) => new Error(`expected HrApiError, the call resolved with ${JSON.stringify(value).slice(0, 200)}`),
    (e: unknown) => e,
  );
  expect(error, "the thrown value").toBeInstanceOf(HrApiError);
  return error as HrApiError;
}

describe("each operation against the mock", () => {
  test("listLeaveRequests filters approved leave of a department", async () => {
    const { departmentId } = mock.ids[0];
    const page = await clientOf(mock).listLeaveRequests({ DepartmentId: departmentId, LeaveStatus: "Approved", PageSize: 10 });
    expect(page.data.length, "approved requests on the first page").toBeGreaterThan(0);
    expect(new Set(page.data.map((r) => r.leaveStatus)), "statuses on the page").toEqual(new Set(["Approved"]));
    expect({ pageNumber: page.pageNumber, pageSize: page.pageSize }, "paging fields").toEqual({ pageNumber: 1, pageSize: 10 });
  });

  test("getLeaveRequest returns the details of the id asked for", async () => {
    const { leaveRequestId } = mock.ids[0];
    const details = await clientOf(mock).getLeaveRequest(leaveRequestId);
    expect({ id: details.id, hasRelievers: Array.isArray(details.relievers) }, "the details").toEqual({ id: leaveRequestId, hasRelievers: true });
  });

  test("getLeaveBalance returns the five numbers", async () => {
    const balance = await clientOf(mock).getLeaveBalance({ EmployeeId: mock.ids[0].balance.employeeId, LeaveTypeId: mock.ids[0].balance.leaveTypeId });
    expect(Object.keys(balance).sort(), "balance fields").toEqual(["daysRemaining", "daysTaken", "leavePending", "leaveRejected", "totalDays"]);
  });

  test("listLeaveTypes and listEmployees answer pages", async () => {
    const client = clientOf(mock);
    const [types, employees] = await Promise.all([client.listLeaveTypes({ IsActive: true }), client.listEmployees({ Status: "Active", PageSize: 5 })]);
    expect(types.data.every((t) => t.isActive), "only active leave types").toBe(true);
    expect(employees.data.length, "employees on a page of 5").toBe(5);
  });

  test("listDepartments with repeated Companies returns those companies' departments", async () => {
    const client = clientOf(mock);
    const { companyId } = mock.ids[0];
    const page = await client.listDepartments({ Companies: [companyId, "00000000-0000-4000-8000-000000000000"], PageSize: 3 });
    expect(page.data.length, "departments of the company").toBeGreaterThan(0);
    const details = await Promise.all(page.data.map((d) => client.getDepartment(d.id)));
    expect(new Set(details.map((d) => d.companyId)), "companyId of each department returned").toEqual(new Set([companyId]));
  });

  test("iterate yields every leave request once, as many as totalRecords", async () => {
    const client = clientOf(mock);
    const { totalRecords } = await client.listLeaveRequests({ PageSize: 1 });
    const all = await collectAll(client.iterate("listLeaveRequests"));
    expect(totalRecords, "the dataset spans more than one page of 100").toBeGreaterThan(100);
    expect({ items: all.length, distinct: new Set(all.map((r) => r.id)).size }, "items yielded").toEqual({ items: totalRecords, distinct: totalRecords });
  });
});

describe("failures against the mock", () => {
  const cases: [string, { apiKey?: string; call: (c: HrClient) => Promise<unknown>; want: { kind: HrApiErrorKind; status: number } }][] = [
    ["an unknown key", { apiKey: "not_a_key", call: (c) => c.listLeaveTypes(), want: { kind: "auth", status: 401 } }],
    ["a key without the permission", { apiKey: DEMO_KEY.org1LeaveView, call: (c) => c.listDepartments(), want: { kind: "permission", status: 403 } }],
    ["a PageSize above the maximum", { call: (c) => c.listLeaveRequests({ PageSize: 500 }), want: { kind: "validation", status: 400 } }],
    ["an unknown leave request id", { call: (c) => c.getLeaveRequest("00000000-0000-4000-8000-000000000000"), want: { kind: "not_found", status: 404 } }],
    ["another organisation's department", { apiKey: DEMO_KEY.org2Full, call: (c) => c.getDepartment(mock.ids[0].departmentId), want: { kind: "not_found", status: 404 } }],
  ];

  test.each(cases)("%s", async (_name, { apiKey, call, want }) => {
    const error = await errorOf(call(clientOf(mock, apiKey)));
    expect({ kind: error.kind, status: error.status, code: error.code }, "the error").toEqual({ ...want, code: String(want.status) });
    expect(error.message.length, "the service's message is kept").toBeGreaterThan(10);
  });

  test("the raw client returns the failure envelope as error", async () => {
    const { error, response } = await clientOf(mock, "not_a_key").raw.GET("/v1/leavetype/list", {});
    expect({ status: response.status, isSuccessful: error?.isSuccessful, code: error?.code }, "raw result").toEqual({ status: 401, isSuccessful: false, code: "401" });
  });

  test("a mock answering failures with 200 gives the same kinds", async () => {
    const error = await errorOf(clientOf(failuresAs200, "not_a_key").listLeaveTypes());
    expect({ kind: error.kind, status: error.status, code: error.code }, "the error").toEqual({ kind: "auth", status: 200, code: "401" });
  });

  test("its rate limit, answered with 200, is retried after Retry-After and ends rate_limited", async () => {
    const { sleep, delays } = recordingSleep();
    const client = clientOf(failuresAs200, DEMO_KEY.org2Full, { retries: 2, sleep, maxDelayMs: 60_000 });
    await client.listLeaveTypes();
    await client.listLeaveTypes();
    const error = await errorOf(client.listLeaveTypes());
    expect(error.kind, "kind once retries ran out").toBe("rate_limited");
    expect(error.retryAfter, "Retry-After in seconds").toBeGreaterThan(0);
    expect(delays.length, "waits before the two retries").toBe(2);
    for (const delay of delays) expect(delay % 1000 === 0 && delay > 0 && delay <= 60_000, `wait ${delay} ms is Retry-After in whole seconds`).toBe(true);
  });

  test("injected 503s are retried, then thrown as a server error", async () => {
    const { sleep, delays } = recordingSleep();
    const error = await errorOf(clientOf(alwaysFailing, DEMO_KEY.org1Full, { retries: 2, sleep, random: () => 0 }).listLeaveTypes());
    expect({ kind: error.kind, status: error.status, delays }, "outcome").toEqual({ kind: "server", status: 503, delays: [100, 200] });
  });

  test("injected 503s answered with 200 are retried the same way, then thrown as a server error", async () => {
    const { sleep, delays } = recordingSleep();
    const error = await errorOf(clientOf(alwaysFailingAs200, DEMO_KEY.org1Full, { retries: 2, sleep, random: () => 0 }).listLeaveTypes());
    expect({ kind: error.kind, status: error.status, code: error.code, delays }, "outcome").toEqual({ kind: "server", status: 200, code: "503", delays: [100, 200] });
  });
});

describe("the README snippet", () => {
  test("runs against its own mock and prints the department's approved leave", async () => {
    const file = new URL("./readme-snippet.ts", import.meta.url);
    expect(readFileSync(file, "utf8"), "the snippet uses a demo key").toContain(DEMO_KEY.org1Full);
    // Run in this process, as importing it runs it; what it prints is what a reader would see.
    const printed = { log: [] as string[], error: [] as string[] };
    const log = vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => void printed.log.push(format(...args)));
    const error = vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void printed.error.push(format(...args)));
    try {
      await import("./readme-snippet.js");
    } finally {
      log.mockRestore();
      error.mockRestore();
    }
    expect(printed.error, "nothing on stderr (no HrApiError)").toEqual([]);
    expect(printed.log[0], "the summary line").toMatch(/^\S.*: \d+ approved \[/);
  });
});
