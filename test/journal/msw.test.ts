// The journal of the MSW handlers' in-process world: requests() and verify() on the array
// createHandlers returns (spread into setupServer as it is), the matcher on it, the control API's
// journal operations served under the base URL like the sandboxes and faults, and (as the MSW guide
// says) no entry for a request a server.use override answered: the mock never saw it.
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createHandlers, DEMO_KEY, VerificationError } from "../../mock/msw/index.js";
import { toHaveReceived } from "../../mock/vitest/index.js";

expect.extend({ toHaveReceived });

const BASE = "http://127.0.0.1:4010";
const handlers = createHandlers({ seed: 3, today: "2026-05-04" });
const server = setupServer(...handlers);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(() => server.close());

const get = (path: string, key: string = DEMO_KEY.org1Full) => fetch(BASE + path, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.json());

describe("createHandlers()'s journal", () => {
  test("is empty before the first request, and verify waits for one sent later", async () => {
    expect(await handlers.requests(), "nothing assembled, nothing received").toEqual([]);
    setTimeout(() => void get("/v1/leavetype/list?IsActive=true"), 20);
    const [request] = await handlers.verify({ operationId: "listLeaveTypes", query: { IsActive: true } }, { within: 30_000 });
    expect({ path: request.path, status: request.status, caller: request.caller }).toEqual({ path: "/v1/leavetype/list", status: 200, caller: "org 1, leave and employee management" });
  });

  test("records what the handlers answered, refusals with what they broke", async () => {
    await get("/v1/department/list?Companies=a,b");
    const [refused] = await handlers.requests({ operationId: "listDepartments", status: 400 });
    expect(refused.violations.map((v) => ({ kind: v.kind, name: v.name }))).toEqual([{ kind: "parameter", name: "Companies" }]);
  });

  test("the matcher takes the handlers, and fails with verify's message", async () => {
    await get("/v1/leaverequest/list?PageNumber=1");
    await expect(handlers).toHaveReceived({ operationId: "listLeaveRequests", query: { PageNumber: 1 } }, { times: 1 });
    const failure = await handlers.verify({ operationId: "listLeaveRequests", query: { PageNumber: 2 } }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(VerificationError);
    await expect(expect(handlers).toHaveReceived({ operationId: "listLeaveRequests", query: { PageNumber: 2 } })).rejects.toThrow((failure as Error).message);
  });

  test("holds no request a server.use override answered; once the override is reset, the mock's answers are journaled again", async () => {
    const asked = { operationId: "listDepartments", query: { SearchTerm: "override" } } as const;
    server.use(http.get(`${BASE}/v1/department/list`, () => HttpResponse.json({ isSuccessful: true, code: "00", message: "Success", data: { data: [], pageNumber: 1, pageSize: 25, totalRecords: 0, totalPages: 0 } })));
    try {
      expect((await get("/v1/department/list?SearchTerm=override")).data.totalRecords, "the override answered").toBe(0);
      expect(await handlers.requests(asked), "a request the override answered").toEqual([]);
    } finally {
      server.resetHandlers();
    }
    await get("/v1/department/list?SearchTerm=override");
    expect(await handlers.requests(asked), "the same request answered by the mock").toHaveLength(1);
  });

  test("the control API's journal operations are served under the base URL, each world its own", async () => {
    const created = await fetch(`${BASE}/_mock/sandboxes`, { method: "POST", headers: { authorization: `Bearer ${DEMO_KEY.org1WebhooksAdmin}` } }).then((r) => r.json());
    const key = (demo: string) => created.data.keys.find((k: { demoKey: string }) => k.demoKey === demo).key;
    await get("/v1/employee/list?Status=Active", key(DEMO_KEY.org1Full));
    const mine = await get("/_mock/requests", key(DEMO_KEY.org1WebhooksAdmin));
    expect(mine.data.requests.map((r: { path: string }) => r.path)).toEqual(["/v1/employee/list"]);
    expect(await handlers.requests({ operationId: "listEmployees" }), "the handlers' own world did not get the sandbox's request").toEqual([]);
    const coverage = await get("/_mock/coverage", key(DEMO_KEY.org1WebhooksAdmin));
    expect({ exercised: coverage.data.api.exercised, webhooks: coverage.data.webhooks }, "no webhook engine in the handlers: no webhook coverage").toEqual({ exercised: 1, webhooks: null });
  });
});
