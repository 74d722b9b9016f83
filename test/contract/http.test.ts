// The suite's HTTP layer: GET only, pacing by a token bucket, backing off on 429 as Retry-After says,
// the request budget, and an unreachable base URL. fetch and the clock are injected.
import { describe, expect, it } from "vitest";
import { BudgetExhausted, backoffAfter429, createHttpClient, takeToken } from "../../src/contract/http.js";
import { Unreachable, type Clock } from "../../src/contract/network.js";
import { closedPort } from "./support.js";

function fakeClock(): Clock & { sleeps: number[]; t: number } {
  const clock = {
    t: 1_000_000,
    sleeps: [] as number[],
    now: () => clock.t,
    sleep: async (ms: number) => {
      clock.sleeps.push(ms);
      clock.t += ms;
    },
  };
  return clock;
}

interface Seen {
  url: string;
  method: string;
  authorization: string | null;
}

/** A fetch that answers from a list of [status, headers, body] in turn, recording each request. */
function scriptedFetch(answers: [number, Record<string, string>, unknown][]) {
  const seen: Seen[] = [];
  let i = 0;
  const fetch = (async (url: string, init: RequestInit) => {
    const headers = new Headers(init.headers);
    seen.push({ url, method: init.method ?? "GET", authorization: headers.get("authorization") });
    const [status, h, body] = answers[Math.min(i++, answers.length - 1)];
    return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...h } });
  }) as unknown as typeof globalThis.fetch;
  return { fetch, seen };
}

const ok: [number, Record<string, string>, unknown] = [200, {}, { isSuccessful: true, code: "00", data: {} }];
const limited = (retryAfter?: string): [number, Record<string, string>, unknown] => [
  429,
  retryAfter === undefined ? {} : { "retry-after": retryAfter },
  { isSuccessful: false, code: "429", message: "slow down", data: null },
];

describe("token bucket", () => {
  it.each([
    ["a full bucket gives a token at once", { tokens: 8, updatedAt: 0 }, 0, 0],
    ["an empty bucket at 4/s waits 250 ms", { tokens: 0, updatedAt: 0 }, 0, 250],
    ["half a token refilled waits the other half", { tokens: 0, updatedAt: 0 }, 125, 125],
    ["refill never exceeds the burst", { tokens: 0, updatedAt: 0 }, 60_000, 0],
  ] as const)("%s", (_, state, now, wantWait) => {
    expect(takeToken(state, now, 4, 8).waitMs).toBe(wantWait);
  });

  it("sustains the rate after the burst: 20 tokens at 4/s with burst 8 take 3 s", () => {
    let state = { tokens: 8, updatedAt: 0 };
    let now = 0;
    for (let i = 0; i < 20; i++) {
      const taken = takeToken(state, now, 4, 8);
      state = taken.state;
      now += taken.waitMs;
    }
    expect(now, "12 tokens beyond the burst of 8, at 4 a second").toBe(3000);
  });
});

describe("Retry-After and backoff", () => {
  it.each([
    ["Retry-After is honoured", 7, 0, 7],
    ["without Retry-After: 2 s, then 4 s", undefined, 1, 4],
    ["a wait longer than allowed gives up", 600, 0, undefined],
  ] as const)("%s", (_, retryAfter, attempt, want) => {
    expect(backoffAfter429(retryAfter, attempt, 90)).toBe(want);
  });
});

describe("the client", () => {
  it("sends GET with the Bearer key, or no key, or an unknown one, and never a write", async () => {
    const { fetch, seen } = scriptedFetch([ok]);
    const client = createHttpClient({ baseUrl: "http://service.test/api/", apiKey: "k1", fetch, clock: fakeClock() });
    await client.get("/v1/leavetype/list", [["PageSize", "3"], ["Companies", "a"], ["Companies", "b"]]);
    await client.get("/v1/leavetype/list", [], "none");
    await client.get("/v1/leavetype/list", [], "unknown-key");
    expect(seen.map((s) => s.method)).toEqual(["GET", "GET", "GET"]);
    expect(seen[0].url).toBe("http://service.test/api/v1/leavetype/list?PageSize=3&Companies=a&Companies=b");
    expect(seen.map((s) => s.authorization)).toEqual(["Bearer k1", null, expect.not.stringContaining("k1")]);
  });

  it("waits as Retry-After says after a 429, then retries and records both answers", async () => {
    const clock = fakeClock();
    const { fetch, seen } = scriptedFetch([limited("5"), ok]);
    const client = createHttpClient({ baseUrl: "http://service.test", apiKey: "k", fetch, clock });
    const answer = await client.get("/v1/department/list");
    expect(answer.status).toBe(200);
    expect(seen).toHaveLength(2);
    expect(clock.sleeps, "a 5 s wait for Retry-After: 5").toContain(5000);
    expect(client.exchanges.map((e) => e.status)).toEqual([429, 200]);
  });

  it("waits until a Retry-After given as an HTTP date", async () => {
    const clock = fakeClock();
    // The fake clock starts at 1 000 000 ms; an HTTP date has whole seconds, so 1 030 000 ms is 30 s ahead.
    const { fetch } = scriptedFetch([limited(new Date(1_030_000).toUTCString()), ok]);
    const client = createHttpClient({ baseUrl: "http://service.test", apiKey: "k", fetch, clock });
    await client.get("/v1/department/list");
    expect(clock.sleeps, "the wait until the date").toContain(30_000);
  });

  const as200 = (retryAfter?: string): [number, Record<string, string>, unknown] => [200, limited(retryAfter)[1], limited(retryAfter)[2]];
  it.each([
    ["a 200 failure envelope with Retry-After is a rate-limit failure: waited for and retried", { given: [as200("2"), ok], want: { statuses: [200, 200], waits: [2000, 250] } }],
    ["a 200 failure envelope whose code is 429, without Retry-After, is a rate-limit failure (the client's rule): backed off and retried", { given: [as200(), ok], want: { statuses: [200, 200], waits: [2000, 250] } }],
    ["a 200 failure envelope whose code names another status, without Retry-After, is an ordinary failure: returned at once", { given: [[200, {}, { isSuccessful: false, code: "400", message: "bad", data: null }], ok], want: { statuses: [200], waits: [] } }],
    ["a 200 failure envelope whose code names another status is not a rate-limit failure, even with Retry-After", { given: [[200, { "retry-after": "2" }, { isSuccessful: false, code: "503", message: "down", data: null }], ok], want: { statuses: [200], waits: [] } }],
    ["a 400 with Retry-After is not a rate-limit failure", { given: [[400, { "retry-after": "2" }, { isSuccessful: false, code: "400", message: "bad", data: null }], ok], want: { statuses: [400], waits: [] } }],
  ] as [string, { given: [number, Record<string, string>, unknown][]; want: { statuses: number[]; waits: number[] } }][])("%s", async (_, { given, want }) => {
    const clock = fakeClock();
    const { fetch } = scriptedFetch(given);
    const client = createHttpClient({ baseUrl: "http://service.test", apiKey: "k", fetch, clock });
    await client.get("/v1/department/list");
    // After a back-off the pacing starts afresh: the retry waits one token (250 ms at 4 a second).
    expect({ statuses: client.exchanges.map((e) => e.status), waits: clock.sleeps }, "answers recorded and waits").toEqual(want);
  });

  it("gives up after three retries and returns the last 429", async () => {
    const { fetch, seen } = scriptedFetch([limited("1")]);
    const client = createHttpClient({ baseUrl: "http://service.test", apiKey: "k", fetch, clock: fakeClock() });
    const answer = await client.get("/v1/department/list");
    expect(answer.status).toBe(429);
    expect(seen, "one try and three retries").toHaveLength(4);
  });

  it("paces a run: 12 requests at 4/s with burst 8 wait 1 s in all", async () => {
    const clock = fakeClock();
    const { fetch } = scriptedFetch([ok]);
    const client = createHttpClient({ baseUrl: "http://service.test", apiKey: "k", fetch, clock, requestsPerSecond: 4, burst: 8 });
    for (let i = 0; i < 12; i++) await client.get("/v1/leavetype/list");
    expect(clock.sleeps.reduce((a, b) => a + b, 0)).toBe(1000);
  });

  it("stops at the request budget, retries included", async () => {
    const { fetch, seen } = scriptedFetch([limited("1"), ok]);
    const client = createHttpClient({ baseUrl: "http://service.test", apiKey: "k", fetch, clock: fakeClock(), maxRequests: 3 });
    await client.get("/a");
    await client.get("/b");
    await expect(client.get("/c")).rejects.toBeInstanceOf(BudgetExhausted);
    expect(seen, "the 429 and its retry count as two").toHaveLength(3);
    expect(client.requestCount).toBe(3);
  });

  it("says the base URL cannot be reached when nothing ever answered", async () => {
    const port = await closedPort();
    const client = createHttpClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: "k", clock: fakeClock(), timeoutMs: 5000 });
    const error = await client.get("/v1/leavetype/list").catch((e) => e);
    expect(error).toBeInstanceOf(Unreachable);
    expect(error.message).toBe(`cannot reach http://127.0.0.1:${port}: ECONNREFUSED`);
  });

  it("records a network failure after the first answer as an exchange without status", async () => {
    let calls = 0;
    const fetch = (async () => {
      if (calls++ === 0) return new Response("{}", { status: 200 });
      throw Object.assign(new TypeError("fetch failed"), { cause: { code: "ECONNRESET" } });
    }) as unknown as typeof globalThis.fetch;
    const client = createHttpClient({ baseUrl: "http://service.test", apiKey: "k", fetch, clock: fakeClock() });
    await client.get("/a");
    const failed = await client.get("/b");
    expect(failed.status).toBeUndefined();
    expect(failed.error).toBe("ECONNRESET");
    expect(calls, "the failed request is tried three times").toBe(4);
  });
});
