// Scripted faults through the control API: the next N calls of an operation answer a status the
// spec declares for it (the failure envelope, the headers that status declares), or answer late;
// listed and cleared per world; refused with the reason for an operation or status the read API
// does not have. The package's own typed client meets them with no Prefer header.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import controlDocument from "../../generated/control-openapi.json" with { type: "json" };
import { mockLimits } from "../../generated/control-facts.js";
import { DEMO_KEY, startMock, type RunningMock } from "../../mock/index.js";
import { createDocumentValidator } from "../../scripts/lib/spec-validator.js";
import { createClient, HrApiError } from "../../src/client/index.js";
import { createOpenApiValidator } from "../support/openapi-validator.js";
import { call as rawCall, controlAnswerCheck, createSandbox, type Answer, type SandboxKeys } from "./support.js";

const readSpec = createOpenApiValidator();
const check = controlAnswerCheck(controlDocument, createDocumentValidator(structuredClone(controlDocument), "control").validate);

let mock: RunningMock;
let sandbox: SandboxKeys;
beforeAll(async () => {
  mock = await startMock({ port: 0, today: "2026-11-02", rateLimit: 1000 });
});
afterAll(() => mock?.close());

/** Each test its own sandbox, so faults never carry over. */
async function fresh(): Promise<SandboxKeys> {
  sandbox = await createSandbox(mock.url, "faults");
  return sandbox;
}

async function control(method: string, path: string, body?: unknown, key = sandbox.key(DEMO_KEY.org1WebhooksAdmin)): Promise<Answer> {
  const answer = await rawCall(mock.url, key, method, path, body);
  expect(check(method, path, answer)).toEqual([]);
  return answer;
}

const read = (path: string, key = sandbox.key(DEMO_KEY.org1Full)) => rawCall(mock.url, key, "GET", path);

describe("a fault answers the status for the next N calls, then the operation answers again", () => {
  const cases: [string, { fault: object; operationId: string; path: () => string; want: { statuses: number[]; headers: string[] } }][] = [
    ["503 twice for the leave request list", { fault: { operation: "listLeaveRequests", status: 503, times: 2 }, operationId: "listLeaveRequests", path: () => "/v1/leaverequest/list", want: { statuses: [503, 503, 200], headers: [] } }],
    ["404 once for a department", { fault: { operation: "getDepartment", status: 404, times: 1 }, operationId: "getDepartment", path: () => `/v1/department/${mock.ids[0].departmentId}`, want: { statuses: [404, 200, 200], headers: ["ratelimit-limit", "ratelimit-remaining"] } }],
    ["429 with Retry-After for the employee list", { fault: { operation: "listEmployees", status: 429, times: 1 }, operationId: "listEmployees", path: () => "/v1/employee/list", want: { statuses: [429, 200, 200], headers: ["retry-after", "ratelimit-limit", "ratelimit-remaining"] } }],
    ["401 with WWW-Authenticate for leave types", { fault: { operation: "listLeaveTypes", status: 401, times: 1 }, operationId: "listLeaveTypes", path: () => "/v1/leavetype/list", want: { statuses: [401, 200, 200], headers: ["www-authenticate"] } }],
    ["500 until cleared for a balance", { fault: { operation: "getLeaveBalance", status: 500 }, operationId: "getLeaveBalance", path: () => `/v1/leavebalance/get-leave-balance?EmployeeId=${mock.ids[0].balance.employeeId}&LeaveTypeId=${mock.ids[0].balance.leaveTypeId}`, want: { statuses: [500, 500, 500], headers: [] } }],
  ];
  test.each(cases)("%s", async (_name, { fault, operationId, path, want }) => {
    await fresh();
    // Two answers before the fault, so the cache holds it (from a key's second miss): a fault applies to cached answers too.
    for (const _ of [1, 2]) expect((await read(path())).status).toBe(200);
    expect((await control("POST", "/_mock/faults", fault)).status).toBe(201);
    const statuses: number[] = [];
    for (const _ of want.statuses) {
      const answer = await read(path());
      statuses.push(answer.status);
      expect(readSpec.check(operationId, answer.status, answer.body, answer.headers), "the answer is one the spec declares").toEqual([]);
      if (answer.status !== 200) {
        expect(answer.body).toMatchObject({ isSuccessful: false, code: String(answer.status), data: null });
        expect(answer.body.message).toMatch(new RegExp(`^Scripted fault: ${operationId} answers ${answer.status}`));
        for (const header of want.headers) expect(answer.headers.get(header), `${header} on the ${answer.status}`).not.toBeNull();
      }
    }
    expect(statuses).toEqual(want.statuses);
  });
});

test("a delay holds the answer at least that long, and it is the usual answer", async () => {
  await fresh();
  await control("POST", "/_mock/faults", { operation: "listLeaveTypes", delayMs: 300, times: 1 });
  const started = performance.now();
  const answer = await read("/v1/leavetype/list");
  expect(performance.now() - started, "held for the delay").toBeGreaterThanOrEqual(290);
  expect(answer.status).toBe(200);
  expect((await control("GET", "/_mock/faults")).body.data, "used up").toEqual([]);
});

test("a status with a delay answers the status, late", async () => {
  await fresh();
  await control("POST", "/_mock/faults", { operation: "listDepartments", status: 500, delayMs: 300, times: 1 });
  const started = performance.now();
  const answer = await read("/v1/department/list");
  expect(performance.now() - started, "held for the delay").toBeGreaterThanOrEqual(290);
  expect(answer.status).toBe(500);
  expect(readSpec.check("listDepartments", answer.status, answer.body, answer.headers)).toEqual([]);
});

test("faults are listed in the order they apply, and cleared", async () => {
  await fresh();
  const first = (await control("POST", "/_mock/faults", { operation: "listLeaveTypes", status: 500, times: 2 })).body.data;
  await control("POST", "/_mock/faults", { operation: "listLeaveTypes", status: 404 });
  await read("/v1/leavetype/list");
  const listed = (await control("GET", "/_mock/faults")).body.data;
  expect(listed.map((f: { status: number; remaining: number | null }) => [f.status, f.remaining])).toEqual([[500, 1], [404, null]]);
  expect(listed[0].id).toBe(first.id);
  expect((await read("/v1/leavetype/list")).status, "the first fault first").toBe(500);
  expect((await read("/v1/leavetype/list")).status, "then the next").toBe(404);
  const cleared = await control("DELETE", "/_mock/faults");
  expect(cleared.body.data.map((f: { status: number }) => f.status)).toEqual([404]);
  expect((await read("/v1/leavetype/list")).status).toBe(200);
});

test("the demo keys' default world takes faults too, and no sandbox sees them", async () => {
  await fresh();
  await control("POST", "/_mock/faults", { operation: "listDepartments", status: 503, times: 1 }, DEMO_KEY.org1WebhooksAdmin);
  expect((await read("/v1/department/list")).status, "the sandbox answers").toBe(200);
  expect((await read("/v1/department/list", DEMO_KEY.org2Full)).status, "the default world's organisation 2 key meets it").toBe(503);
  expect((await read("/v1/department/list", DEMO_KEY.org1Full)).status, "used up").toBe(200);
});

describe("the package's typed client, with no Prefer header", () => {
  test("retries a scripted 503 and gets the data; without retries it throws HrApiError with the status", async () => {
    await fresh();
    const retries: number[] = [];
    const client = createClient({ baseUrl: mock.url, apiKey: sandbox.key(DEMO_KEY.org1Full), retry: { sleep: async () => {}, onRetry: ({ status }) => retries.push(status ?? 0) } });
    await control("POST", "/_mock/faults", { operation: "listLeaveTypes", status: 503, times: 2 });
    const types = await client.listLeaveTypes({});
    expect(types.data.length, "the page of leave types").toBeGreaterThan(0);
    expect(retries).toEqual([503, 503]);

    const plain = createClient({ baseUrl: mock.url, apiKey: sandbox.key(DEMO_KEY.org1Full), retry: false });
    await control("POST", "/_mock/faults", { operation: "getDepartment", status: 404, times: 1 });
    const error = await plain.getDepartment(mock.ids[0].departmentId).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HrApiError);
    expect((error as HrApiError).status).toBe(404);
    expect((error as HrApiError).message).toMatch(/Scripted fault/);
    expect((await plain.getDepartment(mock.ids[0].departmentId)).id).toBe(mock.ids[0].departmentId);
  });

  test("a scripted 429 is retried after its Retry-After", async () => {
    await fresh();
    const waits: number[] = [];
    const client = createClient({ baseUrl: mock.url, apiKey: sandbox.key(DEMO_KEY.org1Full), retry: { sleep: async (ms) => void waits.push(ms) } });
    await control("POST", "/_mock/faults", { operation: "listDepartments", status: 429, times: 1 });
    await client.listDepartments({});
    expect(waits).toEqual([1000]);
  });
});

describe("bad fault bodies are refused with the reason", () => {
  const cases: [string, { given: unknown; want: { status: number; message: RegExp } }][] = [
    ["an operation the read API does not have", { given: { operation: "listPayslips", status: 500 }, want: { status: 400, message: /"listPayslips" is not an operation of the read API; the operations are listLeaveRequests, .*listEmployees \(operation\)/ } }],
    ["a control API operation", { given: { operation: "addFault", status: 500 }, want: { status: 400, message: /is not an operation of the read API/ } }],
    ["a status the operation does not declare", { given: { operation: "listLeaveTypes", status: 418 }, want: { status: 400, message: /listLeaveTypes does not declare status 418; its failure statuses are 400, 401, 403, 404, 405, 429, 5XX \(status\)/ } }],
    ["a success status", { given: { operation: "listLeaveTypes", status: 200 }, want: { status: 400, message: /status/ } }],
    ["neither a status nor a delay", { given: { operation: "listLeaveTypes", times: 2 }, want: { status: 400, message: /status|delayMs/ } }],
    ["a delay over a minute", { given: { operation: "listLeaveTypes", delayMs: 60_001 }, want: { status: 400, message: /delayMs/ } }],
    ["zero times", { given: { operation: "listLeaveTypes", status: 500, times: 0 }, want: { status: 400, message: /times/ } }],
    ["a property the body does not have", { given: { operation: "listLeaveTypes", status: 500, sandbox: "x" }, want: { status: 400, message: /sandbox/ } }],
    ["no operation", { given: { status: 500 }, want: { status: 400, message: /operation/ } }],
  ];
  test.each(cases)("%s", async (_name, { given, want }) => {
    await fresh();
    const answer = await control("POST", "/_mock/faults", given);
    expect(answer.status, answer.body?.message).toBe(want.status);
    expect(answer.body.message).toMatch(want.message);
    expect((await control("GET", "/_mock/faults")).body.data, "nothing was scripted").toEqual([]);
  });

  test(`past ${mockLimits.maxFaultsPerWorld} faults in a world a new one is a 409`, async () => {
    await fresh();
    for (let i = 0; i < mockLimits.maxFaultsPerWorld; i++) expect((await control("POST", "/_mock/faults", { operation: "listLeaveTypes", delayMs: 1 })).status).toBe(201);
    const refused = await control("POST", "/_mock/faults", { operation: "listLeaveTypes", delayMs: 1 });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/holds 50 faults, its limit \(maxFaultsPerWorld\)/);
  });
});
