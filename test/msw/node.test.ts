// hr-service-mock/msw under vitest with msw/node, as a frontend team's unit test uses it: the typed
// client against createHandlers(...) with no server, keys and permissions, organisations, paging,
// the options the server has (failure status, rate limit, keys, base URL), bad input answered with
// the envelope, and option mistakes named when the handlers are created.
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { sampleIds } from "../../mock/data/dataset.js";
import { sharedStartDataset } from "../../mock/data/start-datasets.js";
import { createHandlers, DEMO_KEY, KeysFileError, MockOptionError, type MockHandlersOptions } from "../../mock/msw/index.js";
import { createHrClient, HrApiError, type HrApiErrorKind } from "../../src/client/index.js";
import { routes } from "../../generated/routes.js";

const SEED = 7;
const TODAY = "2026-05-04";
const BASE = "http://127.0.0.1:4010";
const [org1, org2] = sampleIds(sharedStartDataset({ seed: SEED, today: TODAY }));

const server = setupServer(...createHandlers({ seed: SEED, today: TODAY }));
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const client = (apiKey: string = DEMO_KEY.org1Full, baseUrl = BASE) => createHrClient({ baseUrl, apiKey, retry: false });

/** What a call threw, as the client's HrApiError. */
async function failureOf(call: Promise<unknown>): Promise<{ kind: HrApiErrorKind; status: number; message: string; retryAfter?: number }> {
  try {
    await call;
  } catch (error) {
    if (!(error instanceof HrApiError)) throw error;
    return { kind: error.kind, status: error.status, message: error.message, retryAfter: error.retryAfter };
  }
  throw new Error("the call succeeded where a failure was expected");
}

describe("the typed client against the MSW handlers (default base URL, the spec's server)", () => {
  it("reads pages whose totals add up", async () => {
    const first = await client().listLeaveRequests({ PageSize: 10, LeaveStatus: "Approved" });
    const all = [];
    for await (const leave of client().iterate("listLeaveRequests", { LeaveStatus: "Approved", PageSize: 100 })) all.push(leave);
    expect({ page: first.data.length, statuses: [...new Set(all.map((l) => l.leaveStatus))], total: all.length }, "approved leave requests").toEqual({ page: 10, statuses: ["Approved"], total: first.totalRecords });
  });

  it("reads details and balances of the key's organisation", async () => {
    const detail = await client().getLeaveRequest(org1.leaveRequestId);
    const department = await client().getDepartment(org1.departmentId);
    const balance = await client().getLeaveBalance({ EmployeeId: org1.balance.employeeId, LeaveTypeId: org1.balance.leaveTypeId });
    expect({ detail: detail.id, department: department.id, balanceDefined: typeof balance.daysRemaining }, "records read").toEqual({ detail: org1.leaveRequestId, department: org1.departmentId, balanceDefined: "number" });
  });

  it("gives the same data for the same seed and today, from a second set of handlers", async () => {
    const before = await client().listEmployees({ PageSize: 5 });
    server.resetHandlers(...createHandlers({ seed: SEED, today: TODAY }));
    expect(await client().listEmployees({ PageSize: 5 }), "page 1 of employees from new handlers").toEqual(before);
  });

  const refusals: Array<[string, { given: () => Promise<unknown>; want: { kind: HrApiErrorKind; status: number; message: RegExp } }]> = [
    ["no permission for the operation", { given: () => client(DEMO_KEY.org1LeaveView).listDepartments(), want: { kind: "permission", status: 403, message: /Employee Management: View/ } }],
    ["the other organisation's department", { given: () => client(DEMO_KEY.org2Full).getDepartment(org1.departmentId), want: { kind: "not_found", status: 404, message: /not found/i } }],
    ["the other organisation's leave request", { given: () => client(DEMO_KEY.org1Full).getLeaveRequest(org2.leaveRequestId), want: { kind: "not_found", status: 404, message: /not found/i } }],
    ["an unknown key", { given: () => client("not_a_key").listLeaveTypes(), want: { kind: "auth", status: 401, message: /key/i } }],
    ["PageSize above the maximum", { given: () => client().listEmployees({ PageSize: 101 }), want: { kind: "validation", status: 400, message: /PageSize/ } }],
    ["StartDate without EndDate", { given: () => client().listLeaveRequests({ StartDate: "2026-01-01" }), want: { kind: "validation", status: 400, message: /EndDate/ } }],
  ];
  it.each(refusals)("refuses %s with the envelope, as the server does", async (name, { given, want }) => {
    const seen = await failureOf(given());
    expect({ kind: seen.kind, status: seen.status }, `${name}: the HrApiError`).toEqual({ kind: want.kind, status: want.status });
    expect(seen.message, `${name}: the envelope's message`).toMatch(want.message);
  });

  it("answers a page beyond the end with empty data and true totals", async () => {
    const page = await client().listLeaveTypes({ PageNumber: 999 });
    const { totalRecords } = await client().listLeaveTypes();
    expect({ data: page.data, totalRecords: page.totalRecords }, "page 999 of leave types").toEqual({ data: [], totalRecords });
  });
});

describe("bad input through the handlers is the documented envelope, never a thrown error", () => {
  const cases: Array<[string, { given: { path: string; method?: string; authorization?: string }; want: { status: number; message: RegExp } }]> = [
    ["a malformed %-escape in an id", { given: { path: "/v1/department/%E0%A4%A" }, want: { status: 400, message: /Invalid parameter id/ } }],
    ["an unknown path under the base URL", { given: { path: "/v1/nothing" }, want: { status: 404, message: /no operation at \/v1\/nothing/ } }],
    ["a method the path lacks", { given: { path: "/v1/leavetype/list", method: "DELETE" }, want: { status: 405, message: /DELETE/ } }],
    ["a POST with a body", { given: { path: "/v1/leavetype/list", method: "POST" }, want: { status: 405, message: /POST/ } }],
    ["no Authorization header", { given: { path: "/v1/leavetype/list", authorization: "" }, want: { status: 401, message: /Authorization/ } }],
    ["an unknown parameter value", { given: { path: "/v1/leaverequest/list?LeaveStatus=Maybe" }, want: { status: 400, message: /LeaveStatus/ } }],
  ];
  it.each(cases)("%s", async (name, { given, want }) => {
    const headers: Record<string, string> = given.authorization === "" ? {} : { authorization: given.authorization ?? `Bearer ${DEMO_KEY.org1Full}` };
    const response = await fetch(`${BASE}${given.path}`, { method: given.method ?? "GET", headers, body: given.method === "POST" ? "{}" : undefined });
    const envelope = (await response.json()) as { isSuccessful: boolean; code: string; message: string; data: unknown };
    expect({ status: response.status, isSuccessful: envelope.isSuccessful, code: envelope.code, data: envelope.data }, `${name}: status and envelope`).toEqual({ status: want.status, isSuccessful: false, code: String(want.status), data: null });
    expect(envelope.message, `${name}: message`).toMatch(want.message);
    expect(response.headers.get("content-type"), `${name}: content type`).toBe("application/json; charset=utf-8");
  });
});

describe("options, as the server's", () => {
  it("failureStatus 200 answers a refusal with HTTP 200 and the same envelope", async () => {
    server.resetHandlers(...createHandlers({ seed: SEED, today: TODAY, failureStatus: 200 }));
    const response = await fetch(`${BASE}/v1/department/list`, { headers: { authorization: `Bearer ${DEMO_KEY.org1LeaveView}` } });
    expect({ status: response.status, envelope: await response.json() }, "a 403 under failureStatus 200").toMatchObject({ status: 200, envelope: { isSuccessful: false, code: "403" } });
  });

  it("rateLimit counts per key: past it, a 429 with Retry-After", async () => {
    server.resetHandlers(...createHandlers({ seed: SEED, today: TODAY, rateLimit: 2 }));
    await client().listLeaveTypes();
    await client().listLeaveTypes();
    const seen = await failureOf(client().listLeaveTypes());
    expect({ kind: seen.kind, status: seen.status, hasRetryAfter: (seen.retryAfter ?? 0) > 0 }, "the third call in a minute").toEqual({ kind: "rate_limited", status: 429, hasRetryAfter: true });
    expect((await client(DEMO_KEY.org1LeaveView).listLeaveTypes()).data.length, "another key is counted apart").toBeGreaterThan(0);
  });

  it("keys adds keys beside the demo keys, with their organisation and permissions", async () => {
    server.resetHandlers(...createHandlers({ seed: SEED, today: TODAY, keys: [{ key: "team_key", organisation: 2, permissions: ["Leave: View"], label: "team" }] }));
    const types = await client("team_key").listLeaveTypes({ PageSize: 1 });
    const other = await failureOf(client("team_key").getLeaveRequest(org1.leaveRequestId));
    expect({ read: types.data.length, otherOrganisation: other.status, demoKeyStill: (await client().listLeaveTypes({ PageSize: 1 })).data.length }, "the added key").toEqual({ read: 1, otherOrganisation: 404, demoKeyStill: 1 });
  });

  it("baseUrl with a path answers under it and leaves other URLs alone", async () => {
    server.resetHandlers(...createHandlers({ seed: SEED, today: TODAY, baseUrl: "https://api.example.test/hr/" }));
    const types = await client(DEMO_KEY.org1Full, "https://api.example.test/hr").listLeaveTypes({ PageSize: 2 });
    expect(types.data.length, "leave types under https://api.example.test/hr").toBe(2);
    const printed = vi.spyOn(console, "error").mockImplementation(() => {});
    const unmatched = await fetch(`${BASE}/v1/leavetype/list`).then(
      () => "answered",
      () => "refused by onUnhandledRequest",
    );
    expect(unmatched, "the default base URL is no longer handled").toBe("refused by onUnhandledRequest");
    expect(String(printed.mock.calls[0]?.[0]), "MSW's report of the unhandled request").toMatch(/without a matching request handler/);
    printed.mockRestore();
  });

  const mistakes: Array<[string, { given: MockHandlersOptions; want: { error: typeof MockOptionError | typeof KeysFileError; message: RegExp } }]> = [
    ["a seed that is not an integer", { given: { seed: 1.5 }, want: { error: MockOptionError, message: /seed must be a whole number from -9007199254740991 to 9007199254740991, got 1.5/ } }],
    ["a today that is no date", { given: { today: "2026-02-30" } as MockHandlersOptions, want: { error: MockOptionError, message: /today must be a date YYYY-MM-DD from 1900-01-01 to 9000-12-31/ } }],
    ["an unknown failure status", { given: { failureStatus: 500 as unknown as 200 }, want: { error: MockOptionError, message: /failureStatus/ } }],
    ["a negative latency", { given: { latencyMs: -1 }, want: { error: MockOptionError, message: /latencyMs/ } }],
    ["a base URL that is not http", { given: { baseUrl: "ftp://example.test" }, want: { error: MockOptionError, message: /baseUrl/ } }],
    ["a relative base URL outside a browser", { given: { baseUrl: "/hr" }, want: { error: MockOptionError, message: /baseUrl/ } }],
    ["a key with an unknown permission", { given: { keys: [{ key: "k", organisation: 1, permissions: ["Admin"], label: "x" }] }, want: { error: KeysFileError, message: /unknown permission "Admin"/ } }],
  ];
  it.each(mistakes)("names %s when the handlers are created", (name, { given, want }) => {
    expect(() => createHandlers(given), name).toThrow(want.error);
    expect(() => createHandlers(given), name).toThrow(want.message);
  });
});

describe("the handlers, in MSW's own shape", () => {
  const handlers = createHandlers({ seed: SEED, today: TODAY });
  const shown = handlers.map((h) => `${h.info.method} ${String(h.info.path)}`);
  const operations = routes.filter((r) => r.api === "read" || r.tags.some((t) => t === "Sandboxes" || t === "Faults" || t === "Journal"));

  it("name one handler per operation, with its method and its path in MSW's form", () => {
    const forOperations = operations.map((r) => `${r.method} ${BASE}${r.path.replace(/\{(\w+)\}/g, ":$1")}`);
    const perOperation = handlers.filter((h) => typeof h.info.method === "string").map((h) => `${h.info.method} ${String(h.info.path)}`);
    expect(perOperation.sort(), "a handler per operation of the read API, the sandboxes, the faults and the journal").toEqual(forOperations.sort());
  });

  it("put a literal path before a templated one it could be taken for (list before {id})", () => {
    const list = shown.indexOf(`GET ${BASE}/v1/department/list`);
    const detail = shown.indexOf(`GET ${BASE}/v1/department/:id`);
    expect({ list, detail }, "MSW takes the first handler that matches").toSatisfy(({ list, detail }: { list: number; detail: number }) => list >= 0 && detail > list);
  });

  it("answer what no operation matches with the mock's own 404, naming the path it probably meant", async () => {
    server.resetHandlers(...handlers);
    const response = await fetch(`${BASE}/v1/LeaveType/list`, { headers: { authorization: `Bearer ${DEMO_KEY.org1Full}` } });
    expect({ status: response.status, message: ((await response.json()) as { message: string }).message }).toEqual({ status: 404, message: expect.stringContaining("did you mean /v1/leavetype/list?") });
  });
});
