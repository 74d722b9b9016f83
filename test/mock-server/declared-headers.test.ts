// Every header the mock sends on an answer is declared on that operation's response for that status
// in the spec, and every header the spec declares there arrives: both ways, with the rate limiter on.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_KEY, startMock, type RunningMock } from "../../mock/index.js";
import { deref, loadOpenApi } from "../../scripts/lib/spec-document.js";
import { validPaths } from "./support.js";

const openapi = loadOpenApi();

/** HTTP's own headers and CORS (which the contract leaves out, see scripts/lint/rulesets.ts): not part of an operation's answer. */
const TRANSPORT = /^(content-type|content-length|date|connection|keep-alive|transfer-encoding|vary|access-control-.*)$/;

/** The headers the spec declares on an operation's response for a status (or its range), lower-case. */
function declared(path: string, status: number): string[] {
  const responses = openapi.paths[path].get.responses;
  const response = deref(openapi, responses[String(status)] ?? responses[`${String(status)[0]}XX`]);
  expect(response, `${path}: no response for ${status} in the spec`).toBeDefined();
  return Object.keys(response.headers ?? {}).map((name) => name.toLowerCase()).sort();
}

const sent = (response: Response): string[] => [...response.headers.keys()].filter((name) => !TRANSPORT.test(name)).sort();

/** The spec path an operation's concrete path belongs to. */
const SPEC_PATH: Record<string, string> = {
  listLeaveRequests: "/v1/leaverequest/list",
  getLeaveRequest: "/v1/leaverequest/details/{id}",
  getLeaveBalance: "/v1/leavebalance/get-leave-balance",
  listLeaveTypes: "/v1/leavetype/list",
  listDepartments: "/v1/department/list",
  getDepartment: "/v1/department/{id}",
  listEmployees: "/v1/employee/list",
};

const UNKNOWN_ID = "00000000-0000-4000-8000-000000000000";
const LIMIT = 1000;

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ port: 0, rateLimit: LIMIT, today: "2026-11-02" });
});
afterAll(() => mock?.close());

type Situation = [string, { want: number; request: (path: string, operation: string) => { path: string; init: RequestInit } }];
const key = (k: string): RequestInit => ({ headers: { Authorization: `Bearer ${k}` } });
const SITUATIONS: Situation[] = [
  ["a valid call", { want: 200, request: (path) => ({ path, init: key(DEMO_KEY.org1Full) }) }],
  // A list's PageSize 0, the balance's EmployeeId x, a record's id that is not a uuid.
  ["an invalid parameter", { want: 400, request: (path, operation) => ({ path: SPEC_PATH[operation].includes("{id}") ? SPEC_PATH[operation].replace("{id}", "not-a-uuid") : `${path}${path.includes("?") ? "&" : "?"}PageSize=0&EmployeeId=x`, init: key(DEMO_KEY.org1Full) }) }],
  ["no key", { want: 401, request: (path) => ({ path, init: {} }) }],
  ["a key without the permission", { want: 403, request: (path) => ({ path, init: key(DEMO_KEY.org1NoPermissions) }) }],
  ["POST instead of GET", { want: 405, request: (path) => ({ path, init: { ...key(DEMO_KEY.org1Full), method: "POST" } }) }],
];

describe("the headers of real answers are the declared ones (rate limiter on)", () => {
  const cases = Object.keys(SPEC_PATH).flatMap((operation) => SITUATIONS.map(([name, s]) => [operation, name, s] as const));
  it.each(cases)("%s, %s", async (operation, _name, { want, request }) => {
    const paths = validPaths(mock.ids[0]) as Record<string, string>;
    const { path, init } = request(paths[operation], operation);
    const response = await fetch(mock.url + path, init);
    await response.text();
    expect(response.status, `${path}: status`).toBe(want);
    expect(sent(response), `${operation} ${want}: headers sent vs declared in the spec`).toEqual(declared(SPEC_PATH[operation], want));
  });

  it.each([["getLeaveRequest"], ["getDepartment"]])("%s, an unknown id (404)", async (operation) => {
    const path = SPEC_PATH[operation].replace("{id}", UNKNOWN_ID);
    const response = await fetch(mock.url + path, key(DEMO_KEY.org1Full));
    await response.text();
    expect(response.status).toBe(404);
    expect(sent(response), `${operation} 404: headers sent vs declared`).toEqual(declared(SPEC_PATH[operation], 404));
  });
});

describe("a rate-limited answer (429) carries exactly the declared headers", () => {
  it("after the limit of a small mock", async () => {
    const small = await startMock({ port: 0, rateLimit: 2, today: "2026-11-02" });
    try {
      const path = "/v1/leavetype/list";
      for (let i = 0; i < 2; i++) await (await fetch(small.url + path, key(DEMO_KEY.org1Full))).text();
      const response = await fetch(small.url + path, key(DEMO_KEY.org1Full));
      await response.text();
      expect(response.status).toBe(429);
      expect(sent(response), "429: headers sent vs declared").toEqual(declared(path, 429));
    } finally {
      await small.close();
    }
  });
});
