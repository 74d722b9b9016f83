// The running mock through the generated client: every operation's success and failures, each
// answer validated against the bundled OpenAPI (status listed, body schema, declared headers).
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { operationIndex, type OperationId } from "../../generated/client.js";
import { DEMO_KEY, startMock, type RunningMock } from "../../mock/index.js";
import { createOpenApiValidator } from "../support/openapi-validator.js";
import { answerOf, clientFor, fetchAnswer, isFailureEnvelope, validCalls, type Answer, type Client } from "./support.js";

const spec = createOpenApiValidator();
let mock: RunningMock;
let full: Client;

beforeAll(async () => {
  mock = await startMock({ port: 0, today: "2026-06-15" });
  full = clientFor(mock, DEMO_KEY.org1Full);
});
afterAll(() => mock?.close());

function expectInsideSpec(operationId: OperationId, answer: Answer) {
  expect(spec.check(operationId, answer.status, answer.body, answer.headers), `${operationId} ${answer.status}: ${answer.text.slice(0, 300)}`).toEqual([]);
}

const UNKNOWN_ID = "00000000-0000-4000-8000-000000000000";

describe("every operation succeeds for a permitted key, inside the spec", () => {
  test.each(operationIndex.map((op) => [op.operationId]))("%s", async (operationId) => {
    const answer = await validCalls(mock.ids[0])[operationId](full);
    expect(answer.status, answer.text.slice(0, 300)).toBe(200);
    expect(answer.body.isSuccessful).toBe(true);
    expect(answer.body.code).toBe("00");
    expectInsideSpec(operationId, answer);
    expect(answer.headers.get("content-type")).toBe("application/json; charset=utf-8");
  });
});

describe("more successful calls, inside the spec", () => {
  const cases: [string, { operationId: OperationId; call: (c: Client) => Promise<Answer> }][] = [
    ["leave requests oldest first, page 2", { operationId: "listLeaveRequests", call: (c) => answerOf(c.listLeaveRequests({ OrderBy: 0, PageNumber: 2, PageSize: 10 })) }],
    ["leave requests by status name in lower case", { operationId: "listLeaveRequests", call: (c) => answerOf(c.listLeaveRequests({ LeaveStatus: "approved" as never })) }],
    ["leave requests by status number", { operationId: "listLeaveRequests", call: (c) => answerOf(c.listLeaveRequests({ LeaveStatus: 3 })) }],
    ["leave requests in a date range", { operationId: "listLeaveRequests", call: (c) => answerOf(c.listLeaveRequests({ StartDate: "2026-01-01", EndDate: "2026-12-31" })) }],
    ["leave requests by search term", { operationId: "listLeaveRequests", call: (c) => answerOf(c.listLeaveRequests({ SearchTerm: "a" })) }],
    ["a page past the end", { operationId: "listLeaveRequests", call: (c) => answerOf(c.listLeaveRequests({ PageNumber: 100000 })) }],
    ["inactive leave types of every eligibility", { operationId: "listLeaveTypes", call: (c) => answerOf(c.listLeaveTypes({ IsActive: false, EligibilityCriteria: 4 })) }],
    ["departments of one company, oldest first", { operationId: "listDepartments", call: (c) => answerOf(c.listDepartments({ Companies: [mock.ids[0].companyId], OrderBy: 0 })) }],
    ["an inactive department", { operationId: "getDepartment", call: (c) => answerOf(c.getDepartment(mock.ids[0].inactiveDepartmentId)) }],
    ["a balance never set up", { operationId: "getLeaveBalance", call: (c) => answerOf(c.getLeaveBalance({ EmployeeId: mock.ids[0].balanceNeverSetUp.employeeId, LeaveTypeId: mock.ids[0].balanceNeverSetUp.leaveTypeId })) }],
    ["terminated employees", { operationId: "listEmployees", call: (c) => answerOf(c.listEmployees({ Status: "Terminated" })) }],
  ];
  test.each(cases)("%s", async (_name, { operationId, call }) => {
    const answer = await call(full);
    expect(answer.status, answer.text.slice(0, 300)).toBe(200);
    expectInsideSpec(operationId, answer);
  });
});

describe("400: an invalid parameter is a failure envelope naming the parameter", () => {
  const cases: [string, { operationId: OperationId; call: (c: Client) => Promise<Answer>; names: string }][] = [
    ["PageSize above 100", { operationId: "listLeaveRequests", call: (c) => answerOf(c.listLeaveRequests({ PageSize: 500 })), names: "PageSize" }],
    ["PageNumber 0", { operationId: "listLeaveTypes", call: (c) => answerOf(c.listLeaveTypes({ PageNumber: 0 })), names: "PageNumber" }],
    ["a status that does not exist", { operationId: "listLeaveRequests", call: (c) => answerOf(c.listLeaveRequests({ LeaveStatus: "Lost" as never })), names: "LeaveStatus" }],
    ["a CompanyId that is not a uuid", { operationId: "listLeaveRequests", call: (c) => answerOf(c.listLeaveRequests({ CompanyId: "acme" })), names: "CompanyId" }],
    ["StartDate without EndDate", { operationId: "listLeaveRequests", call: (c) => answerOf(c.listLeaveRequests({ StartDate: "2026-01-01" })), names: "EndDate" }],
    ["a month 13", { operationId: "listLeaveRequests", call: (c) => answerOf(c.listLeaveRequests({ StartDate: "2026-13-01", EndDate: "2026-12-31" })), names: "StartDate" }],
    ["OrderBy 2", { operationId: "listDepartments", call: (c) => answerOf(c.listDepartments({ OrderBy: 2 as never })), names: "OrderBy" }],
    ["Companies with a bad id", { operationId: "listDepartments", call: (c) => answerOf(c.listDepartments({ Companies: ["x"] })), names: "Companies" }],
    ["EligibilityCriteria 9", { operationId: "listLeaveTypes", call: (c) => answerOf(c.listLeaveTypes({ EligibilityCriteria: 9 as never })), names: "EligibilityCriteria" }],
    ["IsActive yes", { operationId: "listLeaveTypes", call: (c) => answerOf(c.listLeaveTypes({ IsActive: "yes" as never })), names: "IsActive" }],
    ["a leave request id that is not a uuid", { operationId: "getLeaveRequest", call: (c) => answerOf(c.getLeaveRequest("nope")), names: "id" }],
    ["a department id that is not a uuid", { operationId: "getDepartment", call: (c) => answerOf(c.getDepartment("nope")), names: "id" }],
    ["a balance without LeaveTypeId", { operationId: "getLeaveBalance", call: (c) => answerOf(c.getLeaveBalance({ EmployeeId: mock.ids[0].employeeId } as never)), names: "LeaveTypeId" }],
    ["an employee status not in the enum", { operationId: "listEmployees", call: (c) => answerOf(c.listEmployees({ Status: "Retired" as never })), names: "Status" }],
  ];
  test.each(cases)("%s", async (_name, { operationId, call, names }) => {
    const answer = await call(full);
    expect(answer.status, answer.text).toBe(400);
    expect(isFailureEnvelope(answer.body, 400), answer.text).toBe(true);
    expect(answer.body.message, "the message names the parameter").toContain(names);
    expectInsideSpec(operationId, answer);
  });

  const raw: [string, { operationId: OperationId; path: string; names: string }][] = [
    ["a malformed percent-encoding (%ZZ)", { operationId: "listLeaveRequests", path: "/v1/leaverequest/list?SearchTerm=%ZZ", names: "Invalid parameter SearchTerm: malformed percent-encoding" }],
    ["escapes that are not UTF-8", { operationId: "listDepartments", path: "/v1/department/list?SearchTerm=%C3", names: "Invalid parameter SearchTerm: malformed percent-encoding" }],
    ["Companies separated by commas", { operationId: "listDepartments", path: "/v1/department/list?Companies=a,b", names: "repeat it (Companies=a&Companies=b)" }],
  ];
  test.each(raw)("%s, sent as is", async (_name, { operationId, path, names }) => {
    const answer = await fetchAnswer(mock, path, { headers: { authorization: `Bearer ${DEMO_KEY.org1Full}` } });
    expect(answer.status, answer.text).toBe(400);
    expect(isFailureEnvelope(answer.body, 400), answer.text).toBe(true);
    expect(answer.body.message).toContain(names);
    expectInsideSpec(operationId, answer);
  });

  test("the message says what the parameter accepts and what it got", async () => {
    const answer = await answerOf(full.listLeaveRequests({ PageSize: 500 }));
    expect(answer.body.message).toBe('Invalid parameter PageSize: must be an integer from 1 to 100, got "500".');
  });
});

describe("401 and 403 for every operation", () => {
  test.each(operationIndex.map((op) => [op.operationId]))("%s without a key is 401", async (operationId) => {
    const answer = await validCalls(mock.ids[0])[operationId](clientFor(mock));
    expect(answer.status).toBe(401);
    expect(isFailureEnvelope(answer.body, 401), answer.text).toBe(true);
    expect(answer.headers.get("www-authenticate")).toBe("Bearer");
    expectInsideSpec(operationId, answer);
  });
  test.each(operationIndex.map((op) => [op.operationId]))("%s with a key without permissions is 403", async (operationId) => {
    const answer = await validCalls(mock.ids[0])[operationId](clientFor(mock, DEMO_KEY.org1NoPermissions));
    expect(answer.status).toBe(403);
    expect(answer.body.message, "names the missing permission").toContain(spec.permissionOf(operationId));
    expectInsideSpec(operationId, answer);
  });
});

describe("404: unknown ids and unknown paths", () => {
  const cases: [string, { operationId: OperationId; call: (c: Client) => Promise<Answer> }][] = [
    ["an unknown leave request", { operationId: "getLeaveRequest", call: (c) => answerOf(c.getLeaveRequest(UNKNOWN_ID)) }],
    ["an unknown department", { operationId: "getDepartment", call: (c) => answerOf(c.getDepartment(UNKNOWN_ID)) }],
    ["an unknown employee's balance", { operationId: "getLeaveBalance", call: (c) => answerOf(c.getLeaveBalance({ EmployeeId: UNKNOWN_ID, LeaveTypeId: mock.ids[0].balance.leaveTypeId })) }],
    ["an unknown leave type's balance", { operationId: "getLeaveBalance", call: (c) => answerOf(c.getLeaveBalance({ EmployeeId: mock.ids[0].employeeId, LeaveTypeId: UNKNOWN_ID })) }],
  ];
  test.each(cases)("%s", async (_name, { operationId, call }) => {
    const answer = await call(full);
    expect(answer.status).toBe(404);
    expect(isFailureEnvelope(answer.body, 404), answer.text).toBe(true);
    expectInsideSpec(operationId, answer);
  });

  test("a path that is no operation is a 404 envelope", async () => {
    const answer = await fetchAnswer(mock, "/v1/leaverequest/lists", { headers: { authorization: `Bearer ${DEMO_KEY.org1Full}` } });
    expect(answer.status).toBe(404);
    expect(isFailureEnvelope(answer.body, 404), answer.text).toBe(true);
  });

  test("a path that differs only in letter case or a trailing slash is a 404 that names the right path", async () => {
    const answer = await fetchAnswer(mock, "/V1/LeaveRequest/list/?PageSize=1", { headers: { authorization: `Bearer ${DEMO_KEY.org1Full}` } });
    expect(answer.status).toBe(404);
    expect(isFailureEnvelope(answer.body, 404), answer.text).toBe(true);
    expect(answer.body.message).toBe(
      "Not found: no operation at /V1/LeaveRequest/list/; did you mean /v1/leaverequest/list? Paths are case-sensitive and have no trailing slash.",
    );
  });

  test("another method on an operation's path is the spec's 405 naming the allowed methods, with Allow", async () => {
    const answer = await fetchAnswer(mock, "/v1/leaverequest/list", { method: "DELETE", headers: { authorization: `Bearer ${DEMO_KEY.org1Full}` } });
    expect(answer.status, "the spec declares 405 (components/responses/MethodNotAllowed)").toBe(405);
    expect(answer.headers.get("allow"), "a GET route answers HEAD too").toBe("GET, HEAD");
    expect(answer.body.message).toContain("GET");
    expectInsideSpec("listLeaveRequests", answer);
  });
});

test("details agree with the list item for the same leave request", async () => {
  const list = await answerOf(full.listLeaveRequests({ PageSize: 3 }));
  for (const item of list.body.data.data) {
    const details = await answerOf(full.getLeaveRequest(item.id));
    expect(details.status).toBe(200);
    for (const [field, value] of Object.entries(item)) expect(details.body.data[field], `${item.id} ${field}`).toEqual(value);
  }
});

describe("the spec check itself refuses answers outside the spec", () => {
  const cases: [string, { status: number; body: unknown; headers?: Headers }][] = [
    ["a status the operation does not list", { status: 418, body: { isSuccessful: false, code: "418", message: "x", data: null } }],
    ["a success body without data", { status: 200, body: { isSuccessful: true, code: "00", message: "Success" } }],
    ["a failure with code 00", { status: 404, body: { isSuccessful: false, code: "00", message: "x", data: null } }],
    ["Prism's problem+json", { status: 400, body: { type: "https://stoplight.io/prism/errors#UNPROCESSABLE_ENTITY", title: "Invalid request", status: 422 } }],
    ["a 429 without Retry-After", { status: 429, body: { isSuccessful: false, code: "429", message: "x", data: null }, headers: new Headers({ "content-type": "application/json" }) }],
  ];
  test.each(cases)("%s", (_name, { status, body, headers }) => {
    expect(spec.check("listLeaveRequests", status, body, headers).length).toBeGreaterThan(0);
  });
});
