import { inspect } from "node:util";
import { describe, expect, test } from "vitest";
import { authMiddleware, createHrClient, HrApiError } from "../../src/client/index.js";
import { leaveBalance } from "./support/fixtures.js";
import { API_KEY, BASE_URL, failure, scriptedFetch, success } from "./support/scripted-fetch.js";

const balanceQuery = { EmployeeId: "5d1c2a4e-7f3b-4e8a-b1c9-3a2d4e5f6a7b", LeaveTypeId: "2f3e4d5c-6b7a-4891-a2b3-c4d5e6f7a8b9" };

describe("the Bearer header", () => {
  test("every method sends Authorization: Bearer <apiKey>", async () => {
    const { fetch, requests } = scriptedFetch([success(leaveBalance)]);
    await createHrClient({ baseUrl: BASE_URL, apiKey: API_KEY, fetch }).getLeaveBalance(balanceQuery);
    expect(requests[0].headers.get("authorization"), "Authorization header of the request").toBe(`Bearer ${API_KEY}`);
  });

  test("the raw client sends it too", async () => {
    const { fetch, requests } = scriptedFetch([success(leaveBalance)]);
    await createHrClient({ baseUrl: BASE_URL, apiKey: API_KEY, fetch }).raw.GET("/v1/leavebalance/get-leave-balance", { params: { query: balanceQuery } });
    expect(requests[0].headers.get("authorization"), "Authorization header of the raw request").toBe(`Bearer ${API_KEY}`);
  });

  test("it replaces an Authorization given in the headers option", async () => {
    const { fetch, requests } = scriptedFetch([success(leaveBalance)]);
    await createHrClient({ baseUrl: BASE_URL, apiKey: API_KEY, fetch, headers: { Authorization: "Basic x" } }).getLeaveBalance(balanceQuery);
    expect(requests[0].headers.get("authorization"), "the apiKey wins over a stray header").toBe(`Bearer ${API_KEY}`);
  });

  test("headers and userAgent options reach every request", async () => {
    const { fetch, requests } = scriptedFetch([success(leaveBalance)]);
    await createHrClient({ baseUrl: BASE_URL, apiKey: API_KEY, fetch, headers: { "X-Team": "rota" }, userAgent: "rota-app/2.0" }).getLeaveBalance(balanceQuery);
    expect(requests[0].headers.get("x-team"), "the extra header").toBe("rota");
    expect(requests[0].headers.get("user-agent"), "the User-Agent").toBe("rota-app/2.0");
  });

  test("the key appears in no error the client throws", async () => {
    const { fetch } = scriptedFetch([failure(401, "401", "Unauthorized: the API key is not known.")]);
    const error = await createHrClient({ baseUrl: BASE_URL, apiKey: API_KEY, fetch }).getLeaveBalance(balanceQuery).catch((e: unknown) => e);
    expect(error, "a failed call throws HrApiError").toBeInstanceOf(HrApiError);
    expect(inspect(error, { depth: 5 }) + JSON.stringify(error), "the printed error").not.toContain(API_KEY);
  });

  test("the middleware object does not show the key when printed", () => {
    expect(inspect(authMiddleware(API_KEY), { depth: 5, showHidden: true }), "util.inspect of the middleware").not.toContain(API_KEY);
  });

  test.each([
    ["an empty key", { apiKey: "" }, /apiKey must be a non-empty string/],
    ["a key with a line break", { apiKey: "abc\r\nX-Evil: 1" }, /apiKey must not contain spaces or control characters/],
    ["no baseUrl", { baseUrl: "" }, /baseUrl must be the service's address/],
  ])("creating a client with %s fails with a clear message", (_name, given, want) => {
    expect(() => createHrClient({ baseUrl: BASE_URL, apiKey: API_KEY, ...given }), "createHrClient").toThrow(want);
  });

  test("a bad key's error message does not echo the key", () => {
    expect(() => createHrClient({ baseUrl: BASE_URL, apiKey: "secret value" }), "createHrClient").toThrow(expect.objectContaining({ message: expect.not.stringContaining("secret") }));
  });
});
