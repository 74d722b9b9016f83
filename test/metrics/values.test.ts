// GET /_mock/metrics, read as Prometheus would: what each kind of request adds to the counts (by
// operationId and status, and the answer-time histogram), the gauges (sandboxes, journal, webhook
// attempts), and that a scrape needs no key, is never rate-limited, journaled or counted. One mock
// in this process, logging in JSON: its lines are one object each and never carry a key.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_KEY, DEMO_KEYS, startMock, type RunningMock } from "../../mock/index.js";
import { ANSWER_TIME_BUCKETS } from "../../mock/edges/node/metric-counts.js";
import { samples, series } from "../support/prometheus-text.js";
import { register, TestReceiver } from "../webhooks-engine/support.js";

const REQUESTS = "hr_mock_requests_total";
const DURATION = "hr_mock_request_duration_seconds";

let mock: RunningMock;
let receiver: TestReceiver;
const lines: string[] = [];

beforeAll(async () => {
  // A rate limit of 2 per key, so that one case meets it; delivery lines asked (webhooks.log), printed as JSON.
  mock = await startMock({ port: 0, scale: 0.1, rateLimit: 2, logFormat: "json", log: (line) => lines.push(line), onError: (line) => lines.push(line), webhooks: { log: () => {} }, authThrottle: "off" });
  receiver = await new TestReceiver().start();
});

afterAll(async () => {
  await mock?.close();
  await receiver?.close();
});

async function scrape(headers: Record<string, string> = {}): Promise<{ status: number; type: string | null; values: Map<string, number> }> {
  const response = await fetch(`${mock.url}/_mock/metrics`, { headers });
  const text = await response.text();
  return { status: response.status, type: response.headers.get("content-type"), values: response.status === 200 ? samples(text) : new Map() };
}

const send = (method: string, path: string, key?: string) => fetch(`${mock.url}${path}`, { method, headers: key ? { Authorization: `Bearer ${key}` } : {} }).then(async (r) => (await r.arrayBuffer(), r.status));

type Case = [string, { given: { method: string; path: string; key?: string; times?: number }; want: [string, number][] }];

const cases: Case[] = [
  ["a page of leave requests", { given: { method: "GET", path: "/v1/leaverequest/list?PageSize=1", key: DEMO_KEY.org1Full }, want: [[series(REQUESTS, { operation: "listLeaveRequests", status: 200 }), 1], [series(`${DURATION}_count`, { operation: "listLeaveRequests" }), 1]] }],
  ["the same page again, answered from the response cache", { given: { method: "GET", path: "/v1/leaverequest/list?PageSize=1", key: DEMO_KEY.org1Full }, want: [[series(REQUESTS, { operation: "listLeaveRequests", status: 200 }), 1]] }],
  ["no key", { given: { method: "GET", path: "/v1/leavetype/list" }, want: [[series(REQUESTS, { operation: "listLeaveTypes", status: 401 }), 1]] }],
  ["a path no operation has", { given: { method: "GET", path: "/v1/nothing/here", key: DEMO_KEY.org1Full }, want: [[series(REQUESTS, { operation: "unmatched", status: 404 }), 1]] }],
  ["a control operation", { given: { method: "GET", path: "/_mock/coverage", key: DEMO_KEY.org1WebhooksAdmin }, want: [[series(REQUESTS, { operation: "getCoverage", status: 200 }), 1]] }],
  ["three requests of a key allowed two", { given: { method: "GET", path: "/v1/department/list", key: DEMO_KEY.org2Full, times: 3 }, want: [[series(REQUESTS, { operation: "listDepartments", status: 200 }), 2], [series(REQUESTS, { operation: "listDepartments", status: 429 }), 1]] }],
  ["POST to the metrics path", { given: { method: "POST", path: "/_mock/metrics" }, want: [[series(REQUESTS, { operation: "unmatched", status: 405 }), 1]] }],
];

describe("what each request adds", () => {
  it.each(cases)("%s", async (_name, { given, want }) => {
    const before = (await scrape()).values;
    for (let i = 0; i < (given.times ?? 1); i++) await send(given.method, given.path, given.key);
    const after = (await scrape()).values;
    for (const [key, delta] of want) expect((after.get(key) ?? 0) - (before.get(key) ?? 0), `${key} after ${given.method} ${given.path}`).toBe(delta);
  });
});

describe("the scrape", () => {
  it("answers the text format with no key, past the rate limit of the key it carries, and is neither journaled nor counted", async () => {
    const journal = (await mock.requests()).length;
    const first = await scrape({ Authorization: `Bearer ${DEMO_KEY.org2Full}` });
    const second = await scrape({ Authorization: `Bearer ${DEMO_KEY.org2Full}` });
    const third = await scrape();
    expect([first.status, second.status, third.status], "statuses of three scrapes, two with a key whose limit is spent").toEqual([200, 200, 200]);
    expect(first.type).toBe("text/plain; version=0.0.4; charset=utf-8");
    expect((await mock.requests()).length, "journal entries after the scrapes").toBe(journal);
    const counted = [...third.values].filter(([key]) => key.startsWith(REQUESTS)).reduce((sum, [, value]) => sum + value, 0);
    expect(counted, "requests counted, against what the earlier scrape counted").toBe([...first.values].filter(([key]) => key.startsWith(REQUESTS)).reduce((sum, [, value]) => sum + value, 0));
  });

  it("holds a histogram: cumulative buckets in the fixed bounds, +Inf equal to the count", async () => {
    await send("GET", "/v1/employee/list?PageSize=1", DEMO_KEY.org1Full);
    const { values } = await scrape();
    const bucket = (le: string | number) => values.get(series(`${DURATION}_bucket`, { operation: "listEmployees", le }))!;
    const counts = [...ANSWER_TIME_BUCKETS.map(bucket), bucket("+Inf")];
    expect(counts.every((count, i) => i === 0 || count >= counts[i - 1]), `buckets ${counts.join(", ")} never go down`).toBe(true);
    expect(bucket("+Inf")).toBe(values.get(series(`${DURATION}_count`, { operation: "listEmployees" })));
    expect(values.get(series(`${DURATION}_sum`, { operation: "listEmployees" }))).toBeGreaterThan(0);
  });

  it("counts sandboxes, journal entries and their bytes, and webhook attempts by the state they left", async () => {
    const before = (await scrape()).values;
    const sandbox = await mock.createSandbox({ label: "metrics" });
    await send("GET", "/v1/leavetype/list", sandbox.key.org1Full);
    await register(mock, receiver);
    const fired = await mock.trigger("webhook.test");
    await mock.webhooks.idle();
    const after = (await scrape()).values;
    const delta = (key: string) => (after.get(key) ?? 0) - (before.get(key) ?? 0);
    expect(delta("hr_mock_sandboxes"), "sandboxes").toBe(1);
    // The sandbox's request, and the control calls that created it and the endpoint, in the default world's journal.
    expect(delta("hr_mock_journal_entries"), "journal entries").toBeGreaterThanOrEqual(1);
    expect(after.get("hr_mock_journal_bytes"), "journal bytes").toBeGreaterThan(0);
    expect(delta(series("hr_mock_webhook_attempts_total", { state: "succeeded" })), `attempts of ${fired.event.id} that succeeded`).toBe(fired.deliveries.length);
    expect(after.get("hr_mock_webhook_deliveries_waiting"), "deliveries waiting once idle").toBe(0);
    expect(after.has("hr_mock_store_up"), "the store's gauge without --state redis://").toBe(false);
    await sandbox.delete();
  });
});

describe("--log-format json", () => {
  it("prints one JSON object a line, requests and deliveries with their fields, and never a key or a secret", () => {
    const objects = lines.map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new Error(`a line that is not JSON: ${line}`);
      }
    });
    for (const object of objects) expect(Object.keys(object).slice(0, 3), JSON.stringify(object)).toEqual(["time", "level", "event"]);
    const request = objects.find((o) => o.event === "request" && o.operation === "listDepartments" && o.status === 429);
    expect(request, "the 429 of listDepartments as a request event").toMatchObject({ level: "info", method: "GET", url: "/v1/department/list", caller: expect.any(String), ms: expect.any(Number) });
    expect(objects.find((o) => o.event === "delivery"), "a delivery event").toMatchObject({ type: "webhook.test", outcome: "succeeded", state: "succeeded", attempt: 1, status: 200 });
    const secrets = [...DEMO_KEYS.map((k) => k.key), "whsec_"];
    for (const line of lines) for (const secret of secrets) expect(line.includes(secret), `${line} shows ${secret}`).toBe(false);
  });
});
