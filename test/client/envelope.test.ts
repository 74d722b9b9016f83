import { describe, expect, test } from "vitest";
import { createHrClient, HrApiError, type HrApiErrorKind } from "../../src/client/index.js";
import { leaveBalance, leaveRequest, leaveRequestDetails, leaveRequestPage } from "./support/fixtures.js";
import { API_KEY, BASE_URL, failure, jsonResponse, scriptedFetch, success, type Step } from "./support/scripted-fetch.js";

const LEAVE_REQUEST_ID = "0b7e5c3e-8d2f-4c1a-9a57-2f1f0c6b9d11";

/** A client without retries whose one request is answered with `step`. */
function clientAnswering(step: Step) {
  const scripted = scriptedFetch([step]);
  return { client: createHrClient({ baseUrl: BASE_URL, apiKey: API_KEY, fetch: scripted.fetch, retry: false }), ...scripted };
}

async function errorOf(promise: Promise<unknown>): Promise<HrApiError> {
  const outcome = await promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!("error" in outcome)) throw new Error(`expected the call to throw HrApiError, it resolved with ${JSON.stringify(outcome.value)}`);
  expect(outcome.error, "the thrown value").toBeInstanceOf(HrApiError);
  return outcome.error as HrApiError;
}

describe("unwrapping the envelope", () => {
  test("a list method resolves to the page wrapper, items included", async () => {
    const page = leaveRequestPage([leaveRequest(1), leaveRequest(2)], 1, 25, 2);
    const { client } = clientAnswering(success(page));
    expect(await client.listLeaveRequests(), "listLeaveRequests() result").toEqual(page);
  });

  test("a details method resolves to the record", async () => {
    const { client, requests } = clientAnswering(success(leaveRequestDetails));
    expect(await client.getLeaveRequest(LEAVE_REQUEST_ID), "getLeaveRequest() result").toEqual(leaveRequestDetails);
    expect(requests[0].url.pathname, "the path with the id filled in").toBe(`/v1/leaverequest/details/${LEAVE_REQUEST_ID}`);
  });

  test("the raw client returns the envelope as data, unchanged", async () => {
    const { client } = clientAnswering(success(leaveBalance));
    const { data, error, response } = await client.raw.GET("/v1/leavebalance/get-leave-balance", { params: { query: { EmployeeId: "e", LeaveTypeId: "t" } } });
    expect({ data, error, status: response.status }, "raw result").toEqual({ data: { isSuccessful: true, code: "00", message: "Success", data: leaveBalance }, error: undefined, status: 200 });
  });

  test("the raw client returns a failure as error instead of throwing", async () => {
    const { client } = clientAnswering(failure(404, "404", "Not found: no leave request has the id given."));
    const { data, error, response } = await client.raw.GET("/v1/leaverequest/details/{id}", { params: { path: { id: LEAVE_REQUEST_ID } } });
    expect({ data, error, status: response.status }, "raw result").toEqual({
      data: undefined,
      error: { isSuccessful: false, code: "404", message: "Not found: no leave request has the id given.", data: null },
      status: 404,
    });
  });
});

describe("HrApiError kinds", () => {
  const byStatus: [string, { given: number; want: HrApiErrorKind }][] = [
    ["400 is validation", { given: 400, want: "validation" }],
    ["401 is auth", { given: 401, want: "auth" }],
    ["403 is permission", { given: 403, want: "permission" }],
    ["404 is not_found", { given: 404, want: "not_found" }],
    ["422 is validation", { given: 422, want: "validation" }],
    ["429 is rate_limited", { given: 429, want: "rate_limited" }],
    ["500 is server", { given: 500, want: "server" }],
    ["503 is server", { given: 503, want: "server" }],
    ["418 is unknown", { given: 418, want: "unknown" }],
  ];

  test.each(byStatus)("HTTP %s", async (_name, { given, want }) => {
    const message = `failure ${given} from the service`;
    const { client } = clientAnswering(failure(given, String(given), message));
    const error = await errorOf(client.getLeaveRequest(LEAVE_REQUEST_ID));
    expect({ kind: error.kind, status: error.status, code: error.code, message: error.message }, "the error's fields").toEqual({
      kind: want,
      status: given,
      code: String(given),
      message,
    });
  });

  test.each(byStatus)("HTTP 200 with isSuccessful false and code %s", async (_name, { given, want }) => {
    const { client } = clientAnswering(failure(200, String(given), "failure answered with 200"));
    const error = await errorOf(client.getLeaveRequest(LEAVE_REQUEST_ID));
    expect({ kind: error.kind, status: error.status, code: error.code }, "kind from the code, status as sent").toEqual({ kind: want, status: 200, code: String(given) });
  });

  test("the HTTP status wins over a code that names another status", async () => {
    const { client } = clientAnswering(failure(403, "401", "mixed signals"));
    expect((await errorOf(client.getLeaveRequest(LEAVE_REQUEST_ID))).kind, "kind").toBe("permission");
  });

  test("a 200 failure whose code is not a status is unknown", async () => {
    const { client } = clientAnswering(failure(200, "E_LEAVE_BALANCE", "Employee not in organisation"));
    const error = await errorOf(client.getLeaveBalance({ EmployeeId: "e", LeaveTypeId: "t" }));
    expect({ kind: error.kind, code: error.code, message: error.message }, "the error").toEqual({ kind: "unknown", code: "E_LEAVE_BALANCE", message: "Employee not in organisation" });
  });

  test("the error names the operation and the URL", async () => {
    const { client } = clientAnswering(failure(400, "400", "Invalid parameter PageSize: must be at most 100."));
    const error = await errorOf(client.listLeaveRequests({ PageSize: 500 }));
    expect({ operationId: error.operationId, url: error.url }, "where the failure happened").toEqual({
      operationId: "listLeaveRequests",
      url: `${BASE_URL}/v1/leaverequest/list?PageSize=500`,
    });
  });

  test("an error status with an envelope saying isSuccessful true is still an error", async () => {
    const { client } = clientAnswering(jsonResponse({ isSuccessful: true, code: "00", message: "Success", data: null }, 500));
    const error = await errorOf(client.getLeaveRequest(LEAVE_REQUEST_ID));
    expect({ kind: error.kind, status: error.status }, "the error").toEqual({ kind: "server", status: 500 });
  });
});

describe("bodies that are not the envelope", () => {
  const cases: [string, { given: () => Response; want: { kind: HrApiErrorKind; message: RegExp } }][] = [
    [
      "HTML from a proxy with 502",
      { given: () => new Response("<html><body>Bad gateway</body></html>", { status: 502, headers: { "Content-Type": "text/html" } }), want: { kind: "server", message: /getLeaveRequest: HTTP 502 \(text\/html\) with a body that is not JSON: "<html><body>Bad gateway/ } },
    ],
    [
      "plain text with 200",
      { given: () => new Response("OK", { status: 200, headers: { "Content-Type": "text/plain" } }), want: { kind: "unknown", message: /HTTP 200 \(text\/plain\) with a body that is not JSON: "OK"/ } },
    ],
    ["JSON without isSuccessful", { given: () => jsonResponse({ id: "x" }), want: { kind: "unknown", message: /JSON that is not the service's envelope \(no boolean isSuccessful\)/ } }],
    ["a JSON array", { given: () => jsonResponse([1, 2]), want: { kind: "unknown", message: /JSON that is not the service's envelope/ } }],
    ["an empty 200", { given: () => new Response("", { status: 200 }), want: { kind: "unknown", message: /HTTP 200\b.* with an empty body/ } }],
    ["an empty 401", { given: () => new Response(null, { status: 401 }), want: { kind: "auth", message: /HTTP 401 with an empty body/ } }],
  ];

  test.each(cases)("%s is an HrApiError with a clear message", async (_name, { given, want }) => {
    const { client } = clientAnswering(given());
    const error = await errorOf(client.getLeaveRequest(LEAVE_REQUEST_ID));
    expect(error.kind, "kind").toBe(want.kind);
    expect(error.message, "message").toMatch(want.message);
    expect(error.code, "no envelope, so no code").toBeUndefined();
  });
});

describe("retryAfter", () => {
  const now = Date.parse("2026-10-15T12:00:00Z");
  const cases: [string, { given: string | undefined; want: number | undefined }][] = [
    ["whole seconds", { given: "12", want: 12 }],
    ["zero", { given: "0", want: 0 }],
    ["an HTTP-date 30 s ahead", { given: "Thu, 15 Oct 2026 12:00:30 GMT", want: 30 }],
    ["an HTTP-date in the past", { given: "Thu, 15 Oct 2026 11:59:00 GMT", want: 0 }],
    ["no header", { given: undefined, want: undefined }],
    ["garbage", { given: "soon", want: undefined }],
    ["a fraction", { given: "1.5", want: undefined }],
  ];

  test.each(cases)("%s", async (_name, { given, want }) => {
    const { parseRetryAfter } = await import("../../src/client/index.js");
    expect(parseRetryAfter(given, now), `parseRetryAfter(${JSON.stringify(given)})`).toBe(want);
  });

  test("the error carries Retry-After in seconds", async () => {
    const { client } = clientAnswering(failure(429, "429", "Too many requests; retry after 12 seconds.", { "Retry-After": "12" }));
    const error = await errorOf(client.listDepartments());
    expect({ kind: error.kind, retryAfter: error.retryAfter }, "the error").toEqual({ kind: "rate_limited", retryAfter: 12 });
  });

  test("a 200 failure with Retry-After carries it too", async () => {
    const { client } = clientAnswering(failure(200, "429", "Too many requests", { "Retry-After": "7" }));
    const error = await errorOf(client.listDepartments());
    expect({ kind: error.kind, retryAfter: error.retryAfter }, "the error").toEqual({ kind: "rate_limited", retryAfter: 7 });
  });
});
