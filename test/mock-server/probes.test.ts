// The probes a platform's tools ask each replica: GET /_mock/health (the process answers) and GET
// /_mock/ready (it may take traffic), without a key, never rate-limited, never journaled, answered
// through the one request pipeline as the control document describes them (and, with --latency or
// --failure-status 200, neither delayed nor sent as HTTP 200). With Redis, an outage leaves a
// replica ready: test/state-redis/outage.test.ts; stopping makes it unready: drain.test.ts.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DEMO_KEY, startMock, type RunningMock } from "../../mock/index.js";
import { notReadyMessage, readinessOf, type ReadinessFacts } from "../../mock/operations/control/probes.js";
import controlDocument from "../../generated/control-openapi.json" with { type: "json" };
import { createOpenApiValidator } from "../support/openapi-validator.js";
import { rateLimit } from "../../generated/facts.js";

let mock: RunningMock;
/** A mock whose API answers are held 10 minutes and whose failures are sent as HTTP 200. */
let slow: RunningMock;

beforeAll(async () => {
  [mock, slow] = await Promise.all([
    startMock({ port: 0, seed: 3, scale: 0.2, today: "2026-11-23", rateLimit: 2, authThrottle: "off" }),
    startMock({ port: 0, seed: 3, scale: 0.2, today: "2026-11-23", latencyMs: 600_000, failureStatus: 200 }),
  ]);
});
afterAll(async () => {
  await Promise.all([mock?.close(), slow?.close()]);
});

async function get(via: RunningMock, path: string, init: RequestInit = {}): Promise<{ status: number; headers: Headers; body: any }> {
  const response = await fetch(via.url + path, init);
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === "" ? undefined : JSON.parse(text) };
}

describe("answered without a key, as the control document describes them", () => {
  const cases: [string, { path: string; init?: RequestInit; want: { status: number; data?: object; message?: RegExp } }][] = [
    ["health", { path: "/_mock/health", want: { status: 200, data: { alive: true, uptimeSeconds: expect.any(Number) } } }],
    ["ready, state in memory", { path: "/_mock/ready", want: { status: 200, data: { ready: true, dataset: "built", stopping: false, store: { kind: "memory", reached: true, reachable: true } } } }],
    ["ready, with a key it does not need", { path: "/_mock/ready", init: { headers: { authorization: `Bearer ${DEMO_KEY.org1Full}` } }, want: { status: 200 } }],
    ["ready, with a key that does not exist", { path: "/_mock/ready", init: { headers: { authorization: "Bearer nobody" } }, want: { status: 200 } }],
    ["health by HEAD", { path: "/_mock/health", init: { method: "HEAD" }, want: { status: 200 } }],
    ["ready by POST: the spec's 405", { path: "/_mock/ready", init: { method: "POST" }, want: { status: 405, message: /^Method not allowed: POST .* it answers GET, HEAD\.$/ } }],
  ];
  const control = createOpenApiValidator(controlDocument);
  const operationOf: Record<string, string> = { "/_mock/health": "getHealth", "/_mock/ready": "getReadiness" };
  test.each(cases)("%s", async (_name, { path, init, want }) => {
    const answer = await get(mock, path, init);
    expect(answer.status, JSON.stringify(answer.body)).toBe(want.status);
    if (want.data) expect(answer.body.data).toEqual(want.data);
    if (want.message) expect(answer.body.message).toMatch(want.message);
    if (answer.status === 200 && init?.method !== "HEAD") {
      expect(answer.headers.get("cache-control"), "never kept by a cache").toBe("no-store");
      expect(control.check(operationOf[path], answer.status, answer.body, answer.headers), "the answer as the control document describes it").toEqual([]);
    }
  });
});

test("never rate-limited, never journaled: a key's budget and the journal are the API's alone", async () => {
  const before = await mock.requests();
  // The mock's rate limit is 2 requests per key: probes sent with that key count for nothing.
  for (let i = 0; i < 5; i++) expect((await get(mock, i % 2 ? "/_mock/ready" : "/_mock/health", { headers: { authorization: `Bearer ${DEMO_KEY.org1Full}` } })).status).toBe(200);
  const api = await get(mock, "/v1/department/list?PageSize=1", { headers: { authorization: `Bearer ${DEMO_KEY.org1Full}` } });
  expect(api.status, "the key's first API request after the probes").toBe(200);
  expect(api.headers.get(rateLimit.headers.rateLimitRemaining), "one of the key's 2 requests used").toBe("1");
  const after = await mock.requests();
  expect(after.map((r) => r.path).slice(before.length), "the journal since the probes").toEqual(["/v1/department/list"]);
});

test("--latency is the API's: a probe of a mock holding its API's answers (and failing with HTTP 200) is answered at once", async () => {
  // The API's answers of this mock are held 10 minutes: a probe held too would time this test out.
  const [health, ready] = await Promise.all([get(slow, "/_mock/health"), get(slow, "/_mock/ready")]);
  expect([health.status, ready.status]).toEqual([200, 200]);
});

describe("readiness, from the replica's facts", () => {
  const memory = { kind: "memory" as const, reached: true, reachable: true };
  const redis = (reached: boolean, reachable: boolean) => ({ kind: "redis" as const, address: "redis://:***@redis:6379", reached, reachable });
  const cases: [string, { given: ReadinessFacts; want: { ready: boolean; message?: string } }][] = [
    ["built, in memory", { given: { datasetBuilt: true, stopping: false, store: memory }, want: { ready: true } }],
    ["built, the store reached and answering", { given: { datasetBuilt: true, stopping: false, store: redis(true, true) }, want: { ready: true } }],
    ["the store lost after it was reached: still ready", { given: { datasetBuilt: true, stopping: false, store: redis(true, false) }, want: { ready: true } }],
    ["the store never reached", { given: { datasetBuilt: true, stopping: false, store: redis(false, false) }, want: { ready: false, message: "Not ready: the state store redis://:***@redis:6379 has not been reached since this replica started." } }],
    ["the dataset not built", { given: { datasetBuilt: false, stopping: false, store: memory }, want: { ready: false, message: "Not ready: its dataset is not built yet." } }],
    ["stopping", { given: { datasetBuilt: true, stopping: true, store: redis(true, true) }, want: { ready: false, message: "Not ready: this replica is stopping; it serves what reaches it during its drain, then closes." } }],
    ["everything missing, each named", { given: { datasetBuilt: false, stopping: true, store: redis(false, false) }, want: { ready: false, message: expect.stringMatching(/^Not ready: this replica is stopping.*; its dataset is not built yet; the state store .* has not been reached/) } }],
  ];
  test.each(cases)("%s", (_name, { given, want }) => {
    const readiness = readinessOf(given);
    expect({ ready: readiness.ready, message: notReadyMessage(readiness) }).toEqual({ message: undefined, ...want });
  });
});
