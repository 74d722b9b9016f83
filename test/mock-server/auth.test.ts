// Keys and organisations: every operation × every kind of key (the spec's x-permission decides
// 200 or 403), malformed Authorization headers (401), and isolation: another organisation's id is
// answered exactly like an unknown id.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { operationIndex } from "../../generated/client.js";
import { authenticate } from "../../mock/worlds/authenticate.js";
import { createKeyRegistry } from "../../mock/worlds/api-keys.js";
import { DEMO_KEY, DEMO_KEYS, EMPLOYEE_MANAGEMENT_VIEW, LEAVE_VIEW, MANAGE_WEBHOOKS } from "../../mock/keys/demo-keys.js";
import { startMock, type RunningMock } from "../../mock/index.js";
import { createOpenApiValidator } from "../support/openapi-validator.js";
import { bearer, clientFor, fetchAnswer, isFailureEnvelope, validCalls, validPaths } from "./support.js";

const spec = createOpenApiValidator();
let mock: RunningMock;

beforeAll(async () => {
  mock = await startMock({ port: 0, today: "2026-06-15" });
});
afterAll(() => mock?.close());

describe("demo keys", () => {
  test("the permissions they hold are the spec's x-permission values, plus Manage Webhooks", () => {
    const specPermissions = new Set(operationIndex.map((op) => op.permission as string));
    expect(new Set([LEAVE_VIEW, EMPLOYEE_MANAGEMENT_VIEW])).toEqual(specPermissions);
    for (const key of DEMO_KEYS) for (const p of key.permissions) expect(specPermissions.has(p) || p === MANAGE_WEBHOOKS, `${key.key}: ${p}`).toBe(true);
  });

  test("startMock reports every demo key with its organisation and permissions", () => {
    const reported = mock.keys.filter((k) => k.demo).map((k) => ({ key: k.key, organisation: k.organisation, permissions: k.permissions }));
    expect(reported).toEqual(DEMO_KEYS.map((k) => ({ key: k.key, organisation: k.organisation, permissions: k.permissions })));
    for (const k of mock.keys) expect(k.organizationId).toBe(mock.ids[k.organisation - 1].organizationId);
  });

  test("they are the same strings for another seed, resolved to that seed's organisations", async () => {
    const other = await startMock({ port: 0, seed: 99 });
    try {
      expect(other.keys.map((k) => k.key)).toEqual(mock.keys.map((k) => k.key));
      expect(other.keys[0].organizationId).toBe(other.ids[0].organizationId);
      const answer = await fetchAnswer(other, "/v1/leavetype/list", { headers: bearer(DEMO_KEY.org2Full) });
      expect(answer.status).toBe(200);
    } finally {
      await other.close();
    }
  });
});

describe("the auth matrix: every operation × every demo key", () => {
  const cases = operationIndex.flatMap((op) =>
    DEMO_KEYS.filter((k) => k.organisation === 1).map((k) => [
      `${op.operationId} with ${k.key}`,
      { operationId: op.operationId, key: k.key, want: k.permissions.includes(op.permission) ? 200 : 403 },
    ] as const),
  );
  test.each(cases)("%s", async (_name, { operationId, key, want }) => {
    const answer = await validCalls(mock.ids[0])[operationId](clientFor(mock, key));
    expect(answer.status, answer.text.slice(0, 200)).toBe(want);
    expect(spec.check(operationId, answer.status, answer.body, answer.headers)).toEqual([]);
  });

  test.each(operationIndex.map((op) => [op.operationId]))("%s with organisation 2's full key on its own data is 200", async (operationId) => {
    const answer = await validCalls(mock.ids[1])[operationId](clientFor(mock, DEMO_KEY.org2Full));
    expect(answer.status, answer.text.slice(0, 200)).toBe(200);
  });
});

describe("401: missing, malformed and unknown keys", () => {
  const cases: [string, { headers: Record<string, string>; says: string }][] = [
    ["no Authorization header", { headers: {}, says: "missing" }],
    ["an empty header", { headers: { authorization: "" }, says: "missing" }],
    ["Basic credentials", { headers: { authorization: "Basic ZGVtbzpkZW1v" }, says: "Bearer" }],
    ["the key without a scheme", { headers: { authorization: DEMO_KEY.org1Full }, says: "Bearer" }],
    ["Bearer with nothing after it", { headers: { authorization: "Bearer" }, says: "empty" }],
    ["Bearer and spaces", { headers: { authorization: "Bearer    " }, says: "empty" }],
    ["two words after Bearer", { headers: { authorization: `Bearer ${DEMO_KEY.org1Full} extra` }, says: "one API key" }],
    ["an unknown key", { headers: { authorization: "Bearer demo_org3_full" }, says: "not known" }],
    ["a demo key in the wrong case", { headers: { authorization: `Bearer ${DEMO_KEY.org1Full.toUpperCase()}` }, says: "not known" }],
  ];
  test.each(cases)("%s", async (_name, { headers, says }) => {
    const answer = await fetchAnswer(mock, validPaths(mock.ids[0]).listLeaveRequests, { headers });
    expect(answer.status).toBe(401);
    expect(isFailureEnvelope(answer.body, 401), answer.text).toBe(true);
    expect(answer.body.message).toContain(says);
    expect(answer.text, "a message never repeats the key").not.toContain("demo_org");
    expect(spec.check("listLeaveRequests", answer.status, answer.body, answer.headers)).toEqual([]);
  });

  test("the scheme is case-insensitive", async () => {
    const answer = await fetchAnswer(mock, validPaths(mock.ids[0]).listLeaveTypes, { headers: { authorization: `bearer ${DEMO_KEY.org1Full}` } });
    expect(answer.status).toBe(200);
  });

  test("authenticate() resolves a key to its organisation", () => {
    const registry = createKeyRegistry(DEMO_KEYS, ["org-a", "org-b"], undefined as never);
    const result = authenticate(`Bearer ${DEMO_KEY.org2Full}`, registry);
    expect(result.ok && result.apiKey.organizationId).toBe("org-b");
  });
});

describe("organisation isolation: organisation 2's ids with organisation 1's key", () => {
  const UNKNOWN = "00000000-0000-4000-8000-000000000000";
  // Each case builds the path for an id; the same call with an unknown id is the reference.
  const cases: [string, { operationId: "getLeaveRequest" | "getDepartment" | "getLeaveBalance"; path: (id: string) => string; foreignId: () => string }][] = [
    ["a leave request", { operationId: "getLeaveRequest", path: (id) => `/v1/leaverequest/details/${id}`, foreignId: () => mock.ids[1].leaveRequestId }],
    ["a department", { operationId: "getDepartment", path: (id) => `/v1/department/${id}`, foreignId: () => mock.ids[1].departmentId }],
    [
      "a balance of another organisation's employee",
      { operationId: "getLeaveBalance", path: (id) => `/v1/leavebalance/get-leave-balance?EmployeeId=${id}&LeaveTypeId=${mock.ids[0].balance.leaveTypeId}`, foreignId: () => mock.ids[1].balance.employeeId },
    ],
    [
      "a balance of another organisation's leave type",
      { operationId: "getLeaveBalance", path: (id) => `/v1/leavebalance/get-leave-balance?EmployeeId=${mock.ids[0].balance.employeeId}&LeaveTypeId=${id}`, foreignId: () => mock.ids[1].balance.leaveTypeId },
    ],
  ];
  test.each(cases)("%s is a 404 with no data, exactly like an unknown id", async (_name, { operationId, path, foreignId }) => {
    const id = foreignId();
    const foreign = await fetchAnswer(mock, path(id), { headers: bearer(DEMO_KEY.org1Full) });
    const unknown = await fetchAnswer(mock, path(UNKNOWN), { headers: bearer(DEMO_KEY.org1Full) });
    expect(foreign.status).toBe(404);
    expect(foreign.body.data).toBeNull();
    expect(foreign.text.replaceAll(id, "<id>"), "the same answer as for an unknown id").toBe(unknown.text.replaceAll(UNKNOWN, "<id>"));
    expect(spec.check(operationId, foreign.status, foreign.body, foreign.headers)).toEqual([]);
    // The id is real: organisation 2's key reaches the record.
    const reference = validPaths(mock.ids[1])[operationId];
    expect(reference, "organisation 2's own call uses the id").toContain(id);
    const own = await fetchAnswer(mock, reference, { headers: bearer(DEMO_KEY.org2Full) });
    expect(own.status, "the id is real in organisation 2").toBe(200);
  });

  const filters: [string, (ids: RunningMock["ids"][number]) => string][] = [
    ["CompanyId on leave requests", (ids) => `/v1/leaverequest/list?CompanyId=${ids.companyId}`],
    ["DepartmentId on leave requests", (ids) => `/v1/leaverequest/list?DepartmentId=${ids.departmentId}`],
    ["LeaveTypeId on leave requests", (ids) => `/v1/leaverequest/list?LeaveTypeId=${ids.leaveTypeIdByEligibility[0]}`],
    ["CompanyId on leave types", (ids) => `/v1/leavetype/list?CompanyId=${ids.companyId}`],
    ["Companies on departments", (ids) => `/v1/department/list?Companies=${ids.companyId}`],
  ];
  test.each(filters)("a filter by %s shows nothing of organisation 2, as for an unknown id", async (_name, path) => {
    const foreignPath = path(mock.ids[1]);
    const unknownPath = path({ ...mock.ids[1], companyId: UNKNOWN, departmentId: UNKNOWN, leaveTypeIdByEligibility: [UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN] });
    const foreign = await fetchAnswer(mock, foreignPath, { headers: bearer(DEMO_KEY.org1Full) });
    const unknown = await fetchAnswer(mock, unknownPath, { headers: bearer(DEMO_KEY.org1Full) });
    expect(foreign.status).toBe(unknown.status);
    expect(foreign.body.data?.totalRecords ?? 0, "no records of organisation 2").toBe(0);
    expect(foreign.text.replaceAll(/[0-9a-f-]{36}/g, "<id>")).toBe(unknown.text.replaceAll(/[0-9a-f-]{36}/g, "<id>"));
  });

  test("lists never mix organisations", async () => {
    const one = await fetchAnswer(mock, "/v1/leaverequest/list?PageSize=100", { headers: bearer(DEMO_KEY.org1Full) });
    const two = await fetchAnswer(mock, "/v1/leaverequest/list?PageSize=100", { headers: bearer(DEMO_KEY.org2Full) });
    const idsOne = new Set(one.body.data.data.map((r: { id: string }) => r.id));
    expect(two.body.data.data.some((r: { id: string }) => idsOne.has(r.id))).toBe(false);
  });
});
