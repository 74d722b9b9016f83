// A path no operation has: its 404 names the operations the caller most likely meant, in the
// contract's terms (same segments but one, a known prefix, the method), and the journal records
// them with the request. Letter case and slashes keep their own wording.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startMock, type RunningMock } from "../../mock/index.js";
import { loadSpec, type LoadedSpec } from "../../mock/kernel/spec.js";
import { nearMiss } from "../../mock/pipeline/near-miss.js";

let spec: LoadedSpec;
let mock: RunningMock;
beforeAll(async () => {
  spec = await loadSpec();
  mock = await startMock({ port: 0, rateLimit: "off" });
});
afterAll(() => mock.close());

describe("the nearest operations of a path", () => {
  const cases: [string, { method: string; path: string; want: string[]; loose?: string }][] = [
    ["a resource in the plural", { method: "GET", path: "/v1/leaverequests", want: ["GET /v1/leaverequest/list"] }],
    ["a resource with a hyphen and capitals", { method: "GET", path: "/v1/Leave-Requests", want: ["GET /v1/leaverequest/list"] }],
    ["a resource without its action", { method: "GET", path: "/v1/department", want: ["GET /v1/department/list"] }],
    ["an id where the list is", { method: "GET", path: "/v1/employee/123", want: ["GET /v1/employee/list"] }],
    ["a path missing its id", { method: "GET", path: "/v1/leaverequest/details", want: ["GET /v1/leaverequest/details/{id}"] }],
    ["a misspelt action (same segments but one)", { method: "GET", path: "/v1/leavetype/lists", want: ["GET /v1/leavetype/list"] }],
    // No string distance picks one resource over another: every list is as near (at most three named).
    ["a misspelt resource (same segments but one)", { method: "GET", path: "/v1/levetype/list", want: ["GET /v1/leaverequest/list", "GET /v1/leavetype/list", "GET /v1/department/list"] }],
    ["a segment too many", { method: "GET", path: "/v1/leavebalance/get-leave-balance/extra", want: ["GET /v1/leavebalance/get-leave-balance"] }],
    ["the control API's journal in the singular: the request's method first", { method: "DELETE", path: "/_mock/request", want: ["DELETE /_mock/requests"] }],
    ["another version of the API: nothing", { method: "GET", path: "/v2/leaverequest/list", want: [] }],
    ["a path like nothing", { method: "GET", path: "/health", want: [] }],
    ["letter case and a trailing slash: the path itself", { method: "GET", path: "/V1/LeaveRequest/List/", want: ["GET /v1/leaverequest/list"], loose: "/v1/leaverequest/list" }],
  ];
  test.each(cases)("%s", (_name, { method, path, want, loose }) => {
    const found = nearMiss(spec.operations, method, path);
    expect({ nearest: found.nearest.map((op) => `${op.method} ${op.path}`), loose: found.loose }).toEqual({ nearest: want, loose });
  });

  test("a very long path costs one pass over the operations, whatever its length", () => {
    const path = `/v1/leaverequest/${"x/".repeat(50_000)}`;
    const started = performance.now();
    const found = nearMiss(spec.operations, "GET", path);
    expect(found.nearest.length, "something under the resource is named").toBeGreaterThan(0);
    expect(found.nearest.every((op) => op.path.startsWith("/v1/leaverequest/")), "only operations of the resource").toBe(true);
    // Not a timing assertion on the machine: the segments compared are capped (MAX_SEGMENTS), so the work is bounded.
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});

describe("the 404 over HTTP", () => {
  const cases: [string, { path: string; want: string }][] = [
    ["names the operation meant", { path: "/v1/leaverequests", want: "Not found: no operation at /v1/leaverequests; did you mean GET /v1/leaverequest/list?" }],
    ["keeps the wording for letter case and slashes", { path: "/V1/LeaveRequest/list/", want: "Not found: no operation at /V1/LeaveRequest/list/; did you mean /v1/leaverequest/list? Paths are case-sensitive and have no trailing slash." }],
    ["points at the reference when nothing is near", { path: "/v2/leaverequest/list", want: "Not found: no operation at /v2/leaverequest/list; the API reference is at /docs." }],
  ];
  test.each(cases)("%s", async (_name, { path, want }) => {
    const response = await fetch(mock.url + path, { headers: { authorization: "Bearer demo_org1_full" } });
    expect({ status: response.status, message: (await response.json()).message }).toEqual({ status: 404, message: want });
  });

  test("the journal records the unmatched request with its nearest operations and the caller's label", async () => {
    // The two requests carry a mark of their own: a request of the tests before may be recorded
    // after they are sent (on a loaded machine), so a time alone does not tell them apart.
    const mark = `near-miss-${process.pid}-${Date.now()}`;
    await fetch(`${mock.url}/v1/leaverequests?PageNumber=2&mark=${mark}`, { headers: { authorization: "Bearer demo_org1_full" } }).then((r) => r.arrayBuffer());
    await fetch(`${mock.url}/v1/leaverequest/list?mark=${mark}`, { method: "DELETE", headers: { authorization: "Bearer demo_org1_full" } }).then((r) => r.arrayBuffer());
    const unmatched = (await mock.requests({ unmatched: true }))
      .filter((r) => r.query.mark === mark)
      .map((r) => ({ method: r.method, path: r.path, status: r.status, operationId: r.operationId, caller: r.caller, nearest: r.nearest.map((n) => n.operationId) }));
    expect(unmatched).toEqual([
      { method: "DELETE", path: "/v1/leaverequest/list", status: 405, operationId: null, caller: "org 1, leave and employee management", nearest: ["listLeaveRequests"] },
      { method: "GET", path: "/v1/leaverequests", status: 404, operationId: null, caller: "org 1, leave and employee management", nearest: ["listLeaveRequests"] },
    ]);
  });
});
