import { describe, expect, test } from "vitest";
import type { Middleware } from "openapi-fetch";
import { createHrClient, envelopeMiddleware, HrApiError } from "../../src/client/index.js";
import { leaveBalance } from "./support/fixtures.js";
import { answerEvery, API_KEY, BASE_URL, failure, success } from "./support/scripted-fetch.js";

const query = { EmployeeId: "5d1c2a4e-7f3b-4e8a-b1c9-3a2d4e5f6a7b", LeaveTypeId: "2f3e4d5c-6b7a-4891-a2b3-c4d5e6f7a8b9" };

describe("middleware", () => {
  test("use adds middleware to the methods and to raw; eject removes it", async () => {
    const scripted = answerEvery(() => success(leaveBalance));
    const client = createHrClient({ baseUrl: BASE_URL, apiKey: API_KEY, fetch: scripted.fetch, retry: false });
    const tagging: Middleware = {
      onRequest({ request }) {
        request.headers.set("X-Trace", "t1");
        return request;
      },
    };
    client.use(tagging);
    await client.getLeaveBalance(query);
    await client.raw.GET("/v1/leavebalance/get-leave-balance", { params: { query } });
    client.eject(tagging);
    await client.getLeaveBalance(query);
    expect(scripted.requests.map((r) => r.headers.get("x-trace")), "X-Trace of the three requests").toEqual(["t1", "t1", null]);
  });

  test("the envelope middleware works on any openapi-fetch client", async () => {
    const scripted = answerEvery(() => failure(200, "403", "Forbidden: the key lacks Leave: View."));
    const { createFetchClientForSpec } = await import("../../generated/client.js");
    const client = createFetchClientForSpec({ baseUrl: BASE_URL, fetch: scripted.fetch });
    client.use(envelopeMiddleware());
    const error = await client.GET("/v1/leavetype/list", {}).catch((e: unknown) => e);
    expect(error, "the thrown value").toBeInstanceOf(HrApiError);
    expect({ kind: (error as HrApiError).kind, operationId: (error as HrApiError).operationId }, "the error").toEqual({ kind: "permission", operationId: "listLeaveTypes" });
  });

  test("a per-call signal reaches the fetch", async () => {
    const controller = new AbortController();
    const signals: AbortSignal[] = [];
    const client = createHrClient({
      baseUrl: BASE_URL,
      apiKey: API_KEY,
      retry: false,
      fetch: async (request) => {
        signals.push(request.signal);
        return success(leaveBalance);
      },
    });
    await client.getLeaveBalance(query, { signal: controller.signal });
    controller.abort();
    expect(signals[0].aborted, "the request's signal follows the caller's").toBe(true);
  });
});
