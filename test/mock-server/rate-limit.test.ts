// The rate limit: the pure sliding-window log with a hand-driven clock, then a running mock with a
// small limit.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DEMO_KEY, startMock, type RunningMock } from "../../mock/index.js";
import { RATE_LIMIT_DEFAULT, RATE_LIMIT_WINDOW_MS } from "../../mock/kernel/limits.js";
import { createRateLimiter } from "../../mock/worlds/rate-limit.js";
import { createOpenApiValidator } from "../support/openapi-validator.js";
import { loadOpenApi } from "../../scripts/lib/spec-document.js";
import { bearer, fetchAnswer, isFailureEnvelope } from "./support.js";

describe("createRateLimiter (sliding-window log)", () => {
  test("the limit's requests are accepted, the next is refused with the wait until the oldest leaves", () => {
    const limiter = createRateLimiter(3, 60_000);
    const answers = [0, 1_000, 2_000].map((t) => limiter.take("k", t));
    expect(answers.map((a) => [a.allowed, a.remaining])).toEqual([[true, 2], [true, 1], [true, 0]]);
    expect(limiter.take("k", 2_500)).toEqual({ allowed: false, limit: 3, remaining: 0, retryAfterSeconds: 58 });
  });

  const cases: [string, { given: number[]; at: number; want: { allowed: boolean; retryAfterSeconds?: number } }][] = [
    ["accepted exactly when the oldest leaves the window", { given: [0, 10, 20], at: 60_000, want: { allowed: true } }],
    ["refused 1 ms before, with Retry-After 1 (never 0)", { given: [0, 10, 20], at: 59_999, want: { allowed: false, retryAfterSeconds: 1 } }],
    ["Retry-After rounds up to whole seconds", { given: [0, 10, 20], at: 30_500, want: { allowed: false, retryAfterSeconds: 30 } }],
    ["a rolling window, not a fixed minute", { given: [59_000, 59_500, 61_000], at: 62_000, want: { allowed: false, retryAfterSeconds: 57 } }],
  ];
  test.each(cases)("%s", (_name, { given, at, want }) => {
    const limiter = createRateLimiter(3, 60_000);
    for (const t of given) expect(limiter.take("k", t).allowed).toBe(true);
    const decision = limiter.take("k", at);
    expect({ allowed: decision.allowed, retryAfterSeconds: decision.retryAfterSeconds }).toEqual({ retryAfterSeconds: undefined, ...want });
  });

  test("refused requests do not count, so a client that keeps retrying gets in when the window moves", () => {
    const limiter = createRateLimiter(2, 1_000);
    limiter.take("k", 0);
    limiter.take("k", 0);
    for (let t = 1; t < 1_000; t += 100) expect(limiter.take("k", t).allowed).toBe(false);
    expect(limiter.take("k", 1_000).allowed).toBe(true);
  });

  test("keys are counted apart", () => {
    const limiter = createRateLimiter(1, 1_000);
    expect(limiter.take("a", 0).allowed).toBe(true);
    expect(limiter.take("b", 0).allowed).toBe(true);
    expect(limiter.take("a", 1).allowed).toBe(false);
  });

  test.each([[0], [-1], [1.5], [Number.NaN]])("a limit of %s is refused", (limit) => {
    expect(() => createRateLimiter(limit, 1_000)).toThrow(RangeError);
  });

  test("the default is the spec's x-rate-limit: 300 in a rolling 60 seconds", () => {
    const openapi = loadOpenApi();
    expect(RATE_LIMIT_DEFAULT, "the mock's default is the spec's x-rate-limit").toBe(openapi.components.responses.TooManyRequests["x-rate-limit"].requests);
    expect(RATE_LIMIT_WINDOW_MS, "the window in milliseconds").toBe(openapi.components.responses.TooManyRequests["x-rate-limit"].windowSeconds * 1000);
  });
});

describe("a mock with rateLimit 5", () => {
  const spec = createOpenApiValidator();
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock({ port: 0, rateLimit: 5 });
  });
  afterAll(() => mock?.close());

  test("the 6th request of a key is a 429 with Retry-After ≥ 1 and the RateLimit headers", async () => {
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await fetchAnswer(mock, "/v1/leavetype/list", { headers: bearer(DEMO_KEY.org1LeaveView) }));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 429]);
    expect(answers.map((a) => a.headers.get("ratelimit-remaining"))).toEqual(["4", "3", "2", "1", "0", "0"]);
    const refused = answers[5];
    expect(isFailureEnvelope(refused.body, 429), refused.text).toBe(true);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number.isInteger(Number(refused.headers.get("retry-after"))), "whole seconds").toBe(true);
    expect(refused.headers.get("ratelimit-limit")).toBe("5");
    expect(spec.check("listLeaveTypes", refused.status, refused.body, refused.headers)).toEqual([]);
  });

  test("another key of the same organisation has its own allowance", async () => {
    const answer = await fetchAnswer(mock, "/v1/leavetype/list", { headers: bearer(DEMO_KEY.org1Full) });
    expect(answer.status).toBe(200);
  });

  test("unknown keys are not counted: they stay 401, and fill nobody's window", async () => {
    for (let i = 0; i < 8; i++) {
      const answer = await fetchAnswer(mock, "/v1/leavetype/list", { headers: bearer("not-a-key") });
      expect(answer.status).toBe(401);
    }
    const answer = await fetchAnswer(mock, "/v1/leavetype/list", { headers: bearer(DEMO_KEY.org2Full) });
    expect(answer.status).toBe(200);
  });

  test("with rateLimit off there is no limit and no RateLimit headers", async () => {
    const unlimited = await startMock({ port: 0, rateLimit: "off" });
    try {
      for (let i = 0; i < 12; i++) {
        const answer = await fetchAnswer(unlimited, "/v1/leavetype/list", { headers: bearer(DEMO_KEY.org1Full) });
        expect(answer.status).toBe(200);
        expect(answer.headers.get("ratelimit-limit")).toBeNull();
      }
    } finally {
      await unlimited.close();
    }
  });
});
