// "Rate limited" is one rule (src/client/rate-limited.ts), read by the typed client and the contract
// suite: the HTTP status when it is an error status, else the envelope's code, else Retry-After.
// The spec's numbers come from generated/facts.ts; the end-to-end rows go through the client.
import { describe, expect, test } from "vitest";
import { rateLimit } from "../../generated/facts.js";
import { createHrClient, HrApiError } from "../../src/client/index.js";
import { rateLimited, type FailedAnswer } from "../../src/client/rate-limited.js";
import { isRateLimited, type Exchange } from "../../src/contract/exchange.js";
import { leaveRequest, leaveRequestPage } from "./support/fixtures.js";
import { API_KEY, BASE_URL, failure, recordingSleep, scriptedFetch, success } from "./support/scripted-fetch.js";

const RATE = String(rateLimit.status);

const RULE: Array<[string, { given: FailedAnswer; want: boolean }]> = [
  ["the spec's rate-limit status, with Retry-After", { given: { status: rateLimit.status, code: rateLimit.code, retryAfter: "12" }, want: true }],
  ["the spec's rate-limit status alone (no envelope, no Retry-After)", { given: { status: rateLimit.status }, want: true }],
  ["the rate-limit status wins over a code naming another status", { given: { status: rateLimit.status, code: "400" }, want: true }],
  ["a 503 with Retry-After is maintenance, not the limit", { given: { status: 503, code: "503", retryAfter: "120" }, want: false }],
  ["an error status wins over the rate-limit code", { given: { status: 400, code: rateLimit.code, retryAfter: "5" }, want: false }],
  ["a 200 failure whose code is the rate-limit code", { given: { status: 200, code: rateLimit.code }, want: true }],
  ["a 200 failure whose code (padded) is the rate-limit code", { given: { status: 200, code: ` ${rateLimit.code} ` }, want: true }],
  ["a 200 failure whose code names another failure status, even with Retry-After", { given: { status: 200, code: "503", retryAfter: "30" }, want: false }],
  ["a 200 failure whose code is no status, with Retry-After (the provider's only sign)", { given: { status: 200, code: "E_LIMIT", retryAfter: "30" }, want: true }],
  ["a 200 failure without a code, with Retry-After", { given: { status: 200, retryAfter: "Wed, 21 Oct 2026 07:28:00 GMT" }, want: true }],
  ["a 200 failure whose code is no status, without Retry-After", { given: { status: 200, code: "E_LIMIT" }, want: false }],
  ["a 200 failure whose code is no status, Retry-After null (Headers.get of an absent header)", { given: { status: 200, code: "E_LIMIT", retryAfter: null }, want: false }],
];

/** The contract suite's view of the same answer: an Exchange with lower-case header names, as fetch gives them. */
function exchangeOf({ status, code, retryAfter }: FailedAnswer): Exchange {
  const body = { isSuccessful: false, code, message: "failure", data: null };
  const headers: Record<string, string> = retryAfter == null ? {} : { [rateLimit.headers.retryAfter.toLowerCase()]: retryAfter };
  return { target: "/v1/leavetype/list", path: "/v1/leavetype/list", query: [], auth: "key", status, headers, body, bodyText: JSON.stringify(body), at: 0 };
}

describe("rateLimited: one rule for the client and the contract suite", () => {
  test.each(RULE)("%s", (_name, { given, want }) => {
    expect(rateLimited(given), "the rule").toBe(want);
    expect(isRateLimited(exchangeOf(given)), "the contract suite on the same answer").toBe(want);
  });

  test("a success is never rate limited for the contract suite, whatever its headers", () => {
    const ok: Exchange = { ...exchangeOf({ status: 200, retryAfter: "3" }), body: { isSuccessful: true, code: "00", message: "Success", data: null } };
    expect(isRateLimited(ok)).toBe(false);
  });
});

describe("the client decides by the same rule", () => {
  const page = leaveRequestPage([leaveRequest(1)], 1, 25, 1);
  const client = (script: Parameters<typeof scriptedFetch>[0]) => {
    const { sleep, delays } = recordingSleep();
    const scripted = scriptedFetch(script);
    return { client: createHrClient({ baseUrl: BASE_URL, apiKey: API_KEY, fetch: scripted.fetch, retry: { sleep, random: () => 0.5, retries: 1 } }), delays, ...scripted };
  };

  test.each(RULE)("%s: the error's kind", async (_name, { given, want }) => {
    const headers: Record<string, string> = given.retryAfter == null ? {} : { [rateLimit.headers.retryAfter]: given.retryAfter };
    const { client: c } = client([failure(given.status, given.code ?? "", "failure", headers), failure(given.status, given.code ?? "", "failure", headers)]);
    const error = await c.listLeaveRequests().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error, "the call fails with an HrApiError").toBeInstanceOf(HrApiError);
    expect((error as HrApiError).kind === "rate_limited", `kind ${(error as HrApiError).kind}`).toBe(want);
  });

  test("a 200 failure envelope with a code that is no status and Retry-After is retried after the Retry-After seconds", async () => {
    const { client: c, delays, requests } = client([failure(200, "E_LIMIT", "Too many requests", { [rateLimit.headers.retryAfter]: "2" }), success(page)]);
    expect(await c.listLeaveRequests(), "the result after the retry").toEqual(page);
    expect({ requests: requests.length, delays }, "one retry after 2 s").toEqual({ requests: 2, delays: [2000] });
  });

  test(`a 200 failure envelope with code ${RATE} reports the rate-limit status to onRetry`, async () => {
    const seen: Array<number | undefined> = [];
    const scripted = scriptedFetch([failure(200, rateLimit.code, "slow down", { [rateLimit.headers.retryAfter]: "1" }), success(page)]);
    const { sleep } = recordingSleep();
    const c = createHrClient({ baseUrl: BASE_URL, apiKey: API_KEY, fetch: scripted.fetch, retry: { sleep, onRetry: (info) => seen.push(info.status) } });
    await c.listLeaveRequests();
    expect(seen, "the status onRetry saw").toEqual([rateLimit.status]);
  });
});
