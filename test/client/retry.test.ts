import { describe, expect, test } from "vitest";
import { backoffDelay, createHrClient, createRetryingFetch, HrApiError, type RetryOptions } from "../../src/client/index.js";
import { leaveRequest, leaveRequestPage } from "./support/fixtures.js";
import { API_KEY, BASE_URL, failure, networkError, recordingSleep, scriptedFetch, success, type Step } from "./support/scripted-fetch.js";

const page = leaveRequestPage([leaveRequest(1)], 1, 25, 1);

/** A client over `script` whose sleeps are recorded, not waited. */
function retryingClient(script: Step[], retry: RetryOptions = {}) {
  const scripted = scriptedFetch(script);
  const { sleep, delays } = recordingSleep();
  const client = createHrClient({ baseUrl: BASE_URL, apiKey: API_KEY, fetch: scripted.fetch, retry: { sleep, random: () => 0.5, ...retry } });
  return { client, delays, ...scripted };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}

describe("429", () => {
  test("is retried after the Retry-After seconds", async () => {
    const { client, delays, requests } = retryingClient([failure(429, "429", "Too many requests", { "Retry-After": "3" }), success(page)]);
    expect(await client.listLeaveRequests(), "the result after the retry").toEqual(page);
    expect({ requests: requests.length, delays }, "one retry after 3 s").toEqual({ requests: 2, delays: [3000] });
  });

  test("a Retry-After above maxDelayMs is not cut short: no retry, the error carries retryAfter", async () => {
    const { client, delays, requests } = retryingClient([failure(429, "429", "slow down", { "Retry-After": "120" }), success(page)], { maxDelayMs: 5000 });
    const error = (await rejection(client.listLeaveRequests())) as HrApiError;
    expect({ kind: error.kind, retryAfter: error.retryAfter, requests: requests.length, delays }, "given up at once, before the server's time").toEqual({
      kind: "rate_limited",
      retryAfter: 120,
      requests: 1,
      delays: [],
    });
  });

  test("a Retry-After equal to maxDelayMs is waited", async () => {
    const { client, delays } = retryingClient([failure(429, "429", "slow down", { "Retry-After": "5" }), success(page)], { maxDelayMs: 5000 });
    expect(await client.listLeaveRequests(), "the result after the retry").toEqual(page);
    expect(delays, "the server's wait").toEqual([5000]);
  });

  test("a Retry-After HTTP-date is honoured", async () => {
    const now = Date.parse("2026-10-15T12:00:00Z");
    const { client, delays } = retryingClient([failure(429, "429", "slow down", { "Retry-After": "Thu, 15 Oct 2026 12:00:04 GMT" }), success(page)], { now: () => now });
    await client.listLeaveRequests();
    expect(delays, "the wait until the date").toEqual([4000]);
  });

  test("without Retry-After it backs off like a 5xx", async () => {
    const { client, delays } = retryingClient([failure(429, "429", "slow down"), success(page)], { baseDelayMs: 200, random: () => 0 });
    await client.listLeaveRequests();
    expect(delays, "the backoff wait").toEqual([100]);
  });

  test("a 200 answer whose envelope says 429, with Retry-After, is retried the same way", async () => {
    const { client, delays, requests } = retryingClient([failure(200, "429", "Too many requests", { "Retry-After": "2" }), success(page)]);
    expect(await client.listLeaveRequests(), "the result after the retry").toEqual(page);
    expect({ requests: requests.length, delays }, "one retry after 2 s").toEqual({ requests: 2, delays: [2000] });
  });

  test("a 200 answer whose envelope says 429, without Retry-After, is retried with backoff", async () => {
    const { client, delays, requests } = retryingClient([failure(200, "429", "Too many requests"), success(page)], { baseDelayMs: 200, random: () => 0 });
    expect(await client.listLeaveRequests(), "the result after the retry").toEqual(page);
    expect({ requests: requests.length, delays }, "one retry after the backoff").toEqual({ requests: 2, delays: [100] });
  });

  test("every retry carries the Bearer header", async () => {
    const { client, requests } = retryingClient([failure(429, "429", "x", { "Retry-After": "1" }), failure(503, "503", "x"), success(page)]);
    await client.listLeaveRequests();
    expect(requests.map((r) => r.headers.get("authorization")), "Authorization of each attempt").toEqual(Array(3).fill(`Bearer ${API_KEY}`));
  });
});

describe("5xx and network errors", () => {
  test.each([
    ["500", { given: failure(500, "500", "boom") }],
    ["502 with an HTML body", { given: new Response("<html>bad gateway</html>", { status: 502 }) }],
    ["503", { given: failure(503, "503", "Service unavailable") }],
    ["a network error", { given: networkError() }],
  ])("%s is retried", async (_name, { given }) => {
    const { client, requests } = retryingClient([given, success(page)]);
    expect(await client.listLeaveRequests(), "the result after the retry").toEqual(page);
    expect(requests.length, "requests sent").toBe(2);
  });

  test.each([
    ["503", { given: failure(200, "503", "Service unavailable: retry with backoff.") }],
    ["500", { given: failure(200, "500", "Internal error") }],
  ])("a 200 answer whose envelope says %s is retried like the status it names", async (_name, { given }) => {
    const { client, requests } = retryingClient([given, success(page)]);
    expect(await client.listLeaveRequests(), "the result after the retry").toEqual(page);
    expect(requests.length, "requests sent").toBe(2);
  });

  test("a 503 with Retry-After waits the server's time, not the backoff", async () => {
    const { client, delays } = retryingClient([failure(503, "503", "maintenance", { "Retry-After": "4" }), success(page)], { baseDelayMs: 200 });
    await client.listLeaveRequests();
    expect(delays, "the wait").toEqual([4000]);
  });

  test.each([
    ["random 0 gives the lower bound, half of each ceiling", { random: 0, want: [100, 200, 400] }],
    ["random 0.5 gives three quarters", { random: 0.5, want: [150, 300, 600] }],
    ["random near 1 gives the ceiling", { random: 0.999999, want: [200, 400, 800] }],
  ])("the waits double from baseDelayMs with jitter: %s", async (_name, { random, want }) => {
    const { client, delays } = retryingClient([failure(503, "503", "x"), failure(503, "503", "x"), failure(503, "503", "x"), success(page)], {
      baseDelayMs: 200,
      random: () => random,
    });
    await client.listLeaveRequests();
    expect(delays, "the three waits").toEqual(want);
  });

  test("no wait exceeds maxDelayMs", () => {
    const waits = [0, 1, 2, 3, 4, 5, 10, 40].map((n) => backoffDelay(n, 200, 1000, () => 0.999999));
    expect(waits, "waits for retries 0..40 with the largest jitter").toEqual([200, 400, 800, 1000, 1000, 1000, 1000, 1000]);
  });

  test("jitter spreads the waits of clients retrying together", () => {
    const randoms = [0.1, 0.4, 0.7, 0.95];
    const waits = randoms.map((r) => backoffDelay(2, 200, 10_000, () => r));
    expect(new Set(waits).size, `waits ${waits.join(", ")} for one retry number`).toBe(randoms.length);
    for (const wait of waits) expect(wait >= 400 && wait <= 800, `wait ${wait} within [400, 800]`).toBe(true);
  });
});

describe("what is never retried", () => {
  test.each([[400], [401], [403], [404], [409], [422]])("HTTP %i", async (status) => {
    const { client, requests } = retryingClient([failure(status, String(status), `failure ${status}`), success(page)]);
    const error = await rejection(client.listLeaveRequests());
    expect(error, "the failure").toBeInstanceOf(HrApiError);
    expect((error as HrApiError).status, "status of the error").toBe(status);
    expect(requests.length, "requests sent").toBe(1);
  });

  test.each([["400"], ["401"], ["403"], ["404"]])("a 200 answer whose envelope says %s", async (code) => {
    const { client, requests } = retryingClient([failure(200, code, `failure ${code}`), success(page)], { retryOn: () => true });
    const error = (await rejection(client.listLeaveRequests())) as HrApiError;
    expect({ code: error.code, status: error.status, requests: requests.length }, "one attempt, the failure thrown").toEqual({ code, status: 200, requests: 1 });
  });

  test("a 200 success whose text mentions isSuccessful false in a string value", async () => {
    const tricky = leaveRequestPage([{ ...leaveRequest(1), comments: '"isSuccessful":false' }], 1, 25, 1);
    const { client, requests } = retryingClient([success(tricky)]);
    expect(await client.listLeaveRequests(), "the page, unchanged").toEqual(tricky);
    expect(requests.length, "requests sent").toBe(1);
  });

  test("a 404 even when retryOn says yes", async () => {
    const { client, requests } = retryingClient([failure(404, "404", "gone"), success(page)], { retryOn: () => true });
    await rejection(client.listLeaveRequests());
    expect(requests.length, "requests sent").toBe(1);
  });

  test("a 503 when retryOn narrows retries to 429", async () => {
    const { client, requests } = retryingClient([failure(503, "503", "down"), success(page)], { retryOn: (o) => o.status === 429 });
    expect(((await rejection(client.listLeaveRequests())) as HrApiError).status, "status of the error").toBe(503);
    expect(requests.length, "requests sent").toBe(1);
  });

  test("anything, with retry: false", async () => {
    const scripted = scriptedFetch([failure(503, "503", "down"), success(page)]);
    const client = createHrClient({ baseUrl: BASE_URL, apiKey: API_KEY, fetch: scripted.fetch, retry: false });
    expect(((await rejection(client.listLeaveRequests())) as HrApiError).kind, "kind of the error").toBe("server");
    expect(scripted.requests.length, "requests sent").toBe(1);
  });

  test("a POST (the client sends none, but the fetch wrapper is public)", async () => {
    const scripted = scriptedFetch([failure(503, "503", "down"), success(page)]);
    const { sleep, delays } = recordingSleep();
    const response = await createRetryingFetch(scripted.fetch, { sleep })(new Request(`${BASE_URL}/v1/x`, { method: "POST", body: "{}" }));
    expect({ status: response.status, requests: scripted.requests.length, delays }, "one attempt").toEqual({ status: 503, requests: 1, delays: [] });
  });

  test("a call aborted while waiting", async () => {
    const controller = new AbortController();
    const scripted = scriptedFetch([failure(503, "503", "down"), success(page)]);
    const client = createHrClient({ baseUrl: BASE_URL, apiKey: API_KEY, fetch: scripted.fetch, retry: { sleep: async () => controller.abort() } });
    const error = await rejection(client.listLeaveRequests({}, { signal: controller.signal }));
    expect((error as Error).name, "the abort reason is thrown").toBe("AbortError");
    expect(scripted.requests.length, "requests sent").toBe(1);
  });
});

describe("when retries run out", () => {
  test("the last response's error is thrown after retries + 1 requests", async () => {
    const script = [1, 2, 3, 4].map((n) => failure(503, "503", `down, attempt ${n}`));
    const { client, requests, delays } = retryingClient(script, { retries: 3 });
    const error = await rejection(client.listLeaveRequests());
    expect({ message: (error as HrApiError).message, requests: requests.length, waits: delays.length }, "the outcome").toEqual({
      message: "down, attempt 4",
      requests: 4,
      waits: 3,
    });
  });

  test("the last network error ends as a network HrApiError carrying it as its cause", async () => {
    const errors = [networkError(), networkError(), new TypeError("fetch failed: the last one")];
    const { client, requests } = retryingClient(errors, { retries: 2 });
    const error = (await rejection(client.listLeaveRequests())) as HrApiError;
    expect(error, "one error type for callers").toBeInstanceOf(HrApiError);
    expect({ kind: error.kind, status: error.status, operationId: error.operationId }, "the error").toEqual({ kind: "network", status: 0, operationId: "listLeaveRequests" });
    expect(error.cause, "the fetch error underneath").toBe(errors[2]);
    expect(error.message, "the message names the cause").toContain("fetch failed: the last one");
    expect(requests.length, "requests sent").toBe(3);
  });

  test("the caller's own abort stays an AbortError", async () => {
    const abort = new DOMException("The operation was aborted.", "AbortError");
    const { client } = retryingClient([abort], { retries: 2 });
    const error = await rejection(client.listLeaveRequests());
    expect((error as Error).name, "an abort is not a network failure").toBe("AbortError");
  });

  test("a 429 that persists ends as a rate_limited HrApiError with retryAfter", async () => {
    const script = [1, 2].map(() => failure(429, "429", "Too many requests", { "Retry-After": "9" }));
    const { client } = retryingClient(script, { retries: 1 });
    const error = (await rejection(client.listLeaveRequests())) as HrApiError;
    expect({ kind: error.kind, retryAfter: error.retryAfter }, "the error").toEqual({ kind: "rate_limited", retryAfter: 9 });
  });
});

describe("options", () => {
  test("the defaults are 3 retries from 200 ms, capped at 10 s", async () => {
    const script = [1, 2, 3, 4].map(() => failure(503, "503", "down"));
    const { client, delays, requests } = retryingClient(script, { random: () => 0.999999 });
    await rejection(client.listLeaveRequests());
    expect({ requests: requests.length, delays }, "attempts and waits").toEqual({ requests: 4, delays: [200, 400, 800] });
  });

  test.each([
    ["negative retries", { retries: -1 }, /retry.retries must be a whole number of at least 0, got -1/],
    ["fractional retries", { retries: 1.5 }, /retry.retries must be a whole number/],
    ["negative baseDelayMs", { baseDelayMs: -5 }, /retry.baseDelayMs must be a number of at least 0/],
    ["maxDelayMs below baseDelayMs", { baseDelayMs: 500, maxDelayMs: 100 }, /retry.maxDelayMs must be a number of at least baseDelayMs \(500\), got 100/],
  ])("%s is refused with a clear message", (_name, given, want) => {
    expect(() => createHrClient({ baseUrl: BASE_URL, apiKey: API_KEY, retry: given }), "createHrClient").toThrow(want);
  });

  test("onRetry is told each wait", async () => {
    const seen: unknown[] = [];
    const { client } = retryingClient([failure(429, "429", "x", { "Retry-After": "1" }), success(page)], { onRetry: (info) => seen.push(info) });
    await client.listLeaveRequests();
    expect(seen, "what onRetry received").toEqual([{ attempt: 1, delayMs: 1000, status: 429, error: undefined }]);
  });
});
