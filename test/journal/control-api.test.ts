// The journal through the control API: GET /_mock/requests with each filter and its limit, the
// control API's own calls left out unless asked, the bound and the dropped count, bodies cut and
// secrets masked, DELETE /_mock/requests; GET /_mock/coverage's numbers on a known sequence of
// requests and deliveries; POST /_mock/requests/verify word for word as verify() in process; every answer the shape the control document gives, under its key rules.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import controlDocument from "../../generated/control-openapi.json" with { type: "json" };
import { mockLimits } from "../../generated/control-facts.js";
import { webhookEventTypes } from "../../generated/events.js";
import { DEMO_KEY, startMock, type RunningMock } from "../../mock/index.js";
import { loadSpec } from "../../mock/kernel/spec.js";
import { arrivalTime } from "../../mock/pipeline/record.js";
import { createDocumentValidator } from "../../scripts/lib/spec-validator.js";
import { call, controlAnswerCheck, createSandbox, type Answer, type SandboxKeys } from "../sandboxes/support.js";
import { TestReceiver } from "../webhooks-engine/support.js";

const check = controlAnswerCheck(controlDocument, createDocumentValidator(structuredClone(controlDocument), "control").validate);

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ port: 0, today: "2026-11-02", rateLimit: "off", authThrottle: "off" });
});
afterAll(() => mock.close());

/** A control call checked against the control document's schema for its status. */
async function control(sandbox: SandboxKeys, method: string, path: string, body?: unknown, key = sandbox.key(DEMO_KEY.org1WebhooksAdmin)): Promise<Answer> {
  const answer = await call(mock.url, key, method, path, body);
  expect(check(method, path, answer), `${method} ${path} answers as the control document says`).toEqual([]);
  return answer;
}

/**
 * The clock the journal stamps arrivals with (arrivalTime; the mock runs in this thread). Date.now()
 * is not that clock: the two part while a worker lives (1.5 ms within 40 s of one Node process here),
 * more than the millisecond this test steps over, so a request answered before a Date.now() could be
 * stamped after it.
 */
const journalClock = () => arrivalTime(performance.now());

/** A time after every request so far, which every later request is at or after: the journal's clock has moved on to it. */
function afterThisMillisecond(): number {
  const next = Math.floor(journalClock()) + 1;
  while (journalClock() < next) {
    // At most a millisecond: the since filter is read in whole milliseconds.
  }
  return next;
}

const read = (sandbox: SandboxKeys, path: string) => call(mock.url, sandbox.key(DEMO_KEY.org1Full), "GET", path);
const paths = (answer: Answer) => answer.body.data.requests.map((r: { method: string; path: string; status: number }) => `${r.method} ${r.path} ${r.status}`);

describe("GET /_mock/requests", () => {
  let sandbox: SandboxKeys;
  let since: string;
  beforeAll(async () => {
    sandbox = await createSandbox(mock.url, "control-api.test.ts");
    await read(sandbox, "/v1/leavetype/list");
    await read(sandbox, "/v1/leaverequest/list?LeaveStatus=Aproved");
    since = new Date(afterThisMillisecond()).toISOString();
    await read(sandbox, "/v1/leaverequests");
    await control(sandbox, "GET", "/_mock/faults");
    await read(sandbox, "/v1/department/list");
  });

  const cases: [string, { query: string; want: string[] }][] = [
    ["no filter: newest first, without the control API's calls", { query: "", want: ["GET /v1/department/list 200", "GET /v1/leaverequests 404", "GET /v1/leaverequest/list 400", "GET /v1/leavetype/list 200"] }],
    ["operationId", { query: "?operationId=listLeaveTypes", want: ["GET /v1/leavetype/list 200"] }],
    ["status", { query: "?status=400", want: ["GET /v1/leaverequest/list 400"] }],
    ["unmatched", { query: "?unmatched=true", want: ["GET /v1/leaverequests 404"] }],
    ["unmatched=false", { query: "?unmatched=false&status=200", want: ["GET /v1/department/list 200", "GET /v1/leavetype/list 200"] }],
    ["control: its own calls too (this very call is answered after it is listed)", { query: "?control=true&operationId=listFaults", want: ["GET /_mock/faults 200"] }],
    ["limit", { query: "?limit=2", want: ["GET /v1/department/list 200", "GET /v1/leaverequests 404"] }],
  ];
  test.each(cases)("selects by %s", async (_name, { query, want }) => {
    expect(paths(await control(sandbox, "GET", `/_mock/requests${query}`))).toEqual(want);
  });

  test("selects by since", async () => {
    expect(paths(await control(sandbox, "GET", `/_mock/requests?since=${encodeURIComponent(since)}`))).toEqual(["GET /v1/department/list 200", "GET /v1/leaverequests 404"]);
  });

  test("names what a refused request broke, as its answer did", async () => {
    const [refused] = (await control(sandbox, "GET", "/_mock/requests?status=400")).body.data.requests;
    const answer = await read(sandbox, "/v1/leaverequest/list?LeaveStatus=Aproved");
    expect(refused.violations).toEqual([{ kind: "parameter", name: "LeaveStatus", message: answer.body.message }]);
  });

  const refusals: [string, { query: string; key?: string; status: number; message: RegExp }][] = [
    ["an operation the mock does not have", { query: "?operationId=listLeaveRequest", status: 400, message: /no operation "listLeaveRequest"; the operations are listLeaveRequests, .*\(operationId\)\.$/ }],
    ["a status that is no status", { query: "?status=42", status: 400, message: /status/ }],
    ["a since that is no time", { query: "?since=yesterday", status: 400, message: /since/ }],
    ["a key without Manage Webhooks", { query: "", key: DEMO_KEY.org1Full, status: 403, message: /lacks the permission Manage Webhooks/ }],
    ["an unknown key", { query: "", key: "nope", status: 401, message: /not known/ }],
  ];
  test.each(refusals)("refuses %s with the envelope", async (_name, { query, key, status, message }) => {
    const answer = await control(sandbox, "GET", `/_mock/requests${query}`, undefined, key ?? sandbox.key(DEMO_KEY.org1WebhooksAdmin));
    expect({ status: answer.status, isSuccessful: answer.body.isSuccessful }).toEqual({ status, isSuccessful: false });
    expect(answer.body.message).toMatch(message);
  });

  test("DELETE /_mock/requests clears the world's journal and says how much it held", async () => {
    const other = await createSandbox(mock.url, "control-api.test.ts, cleared");
    await read(other, "/v1/leavetype/list");
    await read(other, "/v1/leavetype/list");
    const cleared = await control(other, "DELETE", "/_mock/requests");
    // The two reads and the control calls so far (this one is recorded after it answers).
    expect(cleared.body.data.cleared).toBe(2);
    expect(paths(await control(other, "GET", "/_mock/requests"))).toEqual([]);
    expect(paths(await control(sandbox, "GET", "/_mock/requests?operationId=listLeaveTypes")), "another world's journal is untouched").toEqual(["GET /v1/leavetype/list 200"]);
  });
});

describe("POST /_mock/requests/verify", () => {
  // One sandbox through startMock (its in-process verify() is the reference) and its requests over HTTP.
  let sandbox: Awaited<ReturnType<RunningMock["createSandbox"]>>;
  const verify = (body: unknown) => call(mock.url, sandbox.key.org1WebhooksAdmin, "POST", "/_mock/requests/verify", body);
  beforeAll(async () => {
    sandbox = await mock.createSandbox({ label: "control-api.test.ts, verify" });
    await call(mock.url, sandbox.key.org1Full, "GET", "/v1/leaverequest/list?LeaveStatus=Approved&PageNumber=1");
    await call(mock.url, sandbox.key.org1Full, "GET", "/v1/leaverequest/list?LeaveStatus=Aproved&PageNumber=2");
  });

  const cases: [string, { filter: unknown; times?: unknown; held: boolean; actual: number }][] = [
    ["held: the matching requests", { filter: { operationId: "listLeaveRequests", status: 200 }, times: 1, held: true, actual: 1 }],
    ["not held: verify()'s message and near misses", { filter: { operationId: "listLeaveRequests", query: { PageNumber: 2, LeaveStatus: "Approved" }, status: 200 }, held: false, actual: 0 }],
    ["not held: more than atMost", { filter: { operationId: "listLeaveRequests" }, times: { atMost: 1 }, held: false, actual: 2 }],
  ];
  test.each(cases)("%s, word for word as in process", async (_name, { filter, times, held, actual }) => {
    // In process first: the call over HTTP is recorded (a control call) once it has answered.
    const inProcess = await sandbox.verify(filter as never, { times: times as never }).then(
      (requests) => ({ held: true, actual: requests.length, message: null, requests }),
      (error: Error & { actual: number }) => ({ held: false, actual: error.actual, message: error.message, requests: [] }),
    );
    const answer = await verify({ filter, ...(times === undefined ? {} : { times }) });
    expect(check("POST", "/_mock/requests/verify", answer), "answers as the control document says").toEqual([]);
    expect({ held: answer.body.data.held, actual: answer.body.data.actual }).toEqual({ held, actual });
    expect({ held: answer.body.data.held, actual: answer.body.data.actual, message: answer.body.data.message, requests: answer.body.data.requests }).toEqual(inProcess);
  });

  test("waits within its time for a request still on its way", async () => {
    const waiting = verify({ filter: { operationId: "listLeaveTypes" }, times: 1, within: 60_000 });
    await call(mock.url, sandbox.key.org1Full, "GET", "/v1/leavetype/list");
    expect((await waiting).body.data).toMatchObject({ held: true, actual: 1 });
  });

  const refusals: [string, { body: unknown; message: RegExp }][] = [
    ["a criterion a filter does not have", { body: { filter: { operation: "listLeaveTypes" } }, message: /operation/ }],
    ["an operation the mock does not have", { body: { filter: { operationId: "listLeaveRequest" } }, message: /listLeaveRequest/ }],
    ["atLeast above atMost", { body: { filter: {}, times: { atLeast: 2, atMost: 1 } }, message: /times.atLeast \(2\) is more than times.atMost \(1\)/ }],
    ["a wait past verify's bound", { body: { filter: {}, within: 600_001 }, message: /within must be milliseconds from 0 to 600000/ }],
  ];
  test.each(refusals)("refuses %s with a 400 naming it", async (_name, { body, message }) => {
    const answer = await verify(body);
    expect({ status: answer.status, isSuccessful: answer.body.isSuccessful }).toEqual({ status: 400, isSuccessful: false });
    expect(answer.body.message).toMatch(message);
  });
});

describe("bounds", () => {
  test("a journal keeps its last N requests and says how many it dropped", async () => {
    const small = await startMock({ port: 0, journalSize: 3, rateLimit: "off" });
    try {
      for (let page = 1; page <= 5; page++) await call(small.url, DEMO_KEY.org1Full, "GET", `/v1/leavetype/list?PageNumber=${page}`);
      const answer = await call(small.url, DEMO_KEY.org1WebhooksAdmin, "GET", "/_mock/requests");
      expect({ capacity: answer.body.data.capacity, dropped: answer.body.data.dropped, pages: answer.body.data.requests.map((r: { query: { PageNumber: string } }) => r.query.PageNumber) }).toEqual({ capacity: 3, dropped: 2, pages: ["5", "4", "3"] });
      // The coverage counts outlast the ring: all five were counted.
      const coverage = await call(small.url, DEMO_KEY.org1WebhooksAdmin, "GET", "/_mock/coverage");
      expect(coverage.body.data.api.operations.find((o: { operationId: string }) => o.operationId === "listLeaveTypes").requests).toBe(5);
    } finally {
      await small.close();
    }
  });

  test(`a body is kept to its first ${mockLimits.journalBodyBytes} bytes, with its length, and a signing secret is masked`, async () => {
    const sandbox = await createSandbox(mock.url, "bodies");
    const admin = sandbox.key(DEMO_KEY.org1WebhooksAdmin);
    const description = "d".repeat(2 * mockLimits.journalBodyBytes);
    await call(mock.url, admin, "POST", "/_mock/webhooks/endpoints", { url: "http://127.0.0.1:9/hooks", secret: "whsec_c2VjcmV0LXRoYXQtbXVzdC1ub3Qtc2hvdw==", description });
    const [request] = (await control(sandbox, "GET", "/_mock/requests?operationId=addWebhookEndpoint")).body.data.requests;
    const sent = JSON.stringify({ url: "http://127.0.0.1:9/hooks", secret: "whsec_c2VjcmV0LXRoYXQtbXVzdC1ub3Qtc2hvdw==", description });
    expect(request.body.bytes).toBe(Buffer.byteLength(sent));
    expect(request.body.truncated).toBe(true);
    expect(Buffer.byteLength(request.body.text)).toBeLessThanOrEqual(mockLimits.journalBodyBytes);
    expect(request.body.text).not.toContain("c2VjcmV0");
    expect(request.body.text).toContain('"secret":"whsec_…"');
  });

  test("startMock and createHandlers refuse a journalSize out of bounds, naming it in the sentence the command line gives (one settings table)", async () => {
    await expect(startMock({ port: 0, journalSize: -1 })).rejects.toThrow(`journalSize must be a whole number from 0 to ${mockLimits.maxJournalPerWorld}, got -1`);
    const { createHandlers } = await import("../../mock/msw/index.js");
    expect(() => createHandlers({ journalSize: 1.5 })).toThrow(/journalSize must be a whole number/);
  });
});

describe("GET /_mock/coverage", () => {
  test("counts a known sequence: operations, statuses declared against seen, parameters declared against used, deliveries", async () => {
    const spec = await loadSpec();
    const sandbox = await createSandbox(mock.url, "coverage");
    const receiver = await new TestReceiver().start();
    receiver.answer = () => ({ kind: "status", status: 200 });
    try {
      const list = (await read(sandbox, "/v1/leaverequest/list?PageNumber=1&LeaveStatus=Approved")).body.data;
      await read(sandbox, "/v1/leaverequest/list?pagesize=500");
      await read(sandbox, `/v1/leaverequest/details/${list.items?.[0]?.id ?? list[0]?.id}`);
      await read(sandbox, "/v1/department/list?status=active");
      await read(sandbox, "/v1/leaverequests");
      const admin = sandbox.key(DEMO_KEY.org1WebhooksAdmin);
      await call(mock.url, admin, "POST", "/_mock/webhooks/endpoints", { url: receiver.url, events: ["leave.approved"] });
      await call(mock.url, admin, "POST", "/_mock/webhooks/events", { type: "leave.approved" });
      await receiver.until(() => receiver.requests.length === 1, "the delivery");
      for (let i = 0; i < 500; i++) {
        const log = await call(mock.url, admin, "GET", "/_mock/webhooks/deliveries");
        if (log.body.data[0]?.state === "succeeded") break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }

      const report = (await control(sandbox, "GET", "/_mock/coverage")).body.data;
      const declared = (id: string) => spec.byOperationId.get(id)!;
      const operation = (id: string) => report.api.operations.find((o: { operationId: string }) => o.operationId === id);
      expect({ tool: report.tool, scope: report.scope }).toEqual({ tool: "hr-mock", scope: sandbox.id });
      const reads = spec.operations.filter((op) => op.api === "read");
      expect({ percent: report.api.percent, exercised: report.api.exercised, total: report.api.total, requests: report.api.requests, unmatched: report.api.unmatched }).toEqual({
        percent: Math.round((3 / reads.length) * 1000) / 10,
        exercised: 3,
        total: reads.length,
        requests: 5,
        unmatched: 1,
      });
      expect(report.api.operations.map((o: { operationId: string }) => o.operationId), "every operation of the read API, in the document's order").toEqual(reads.map((op) => op.operationId));
      expect(operation("listLeaveRequests")).toEqual({
        operationId: "listLeaveRequests",
        method: "GET",
        path: "/v1/leaverequest/list",
        requests: 2,
        statuses: { declared: declared("listLeaveRequests").statuses, seen: { 200: 1, 400: 1 } },
        parameters: { declared: declared("listLeaveRequests").queryParams.map((p) => p.name), used: { PageNumber: 1, PageSize: 1, LeaveStatus: 1 }, unknown: [] },
      });
      expect(operation("getLeaveRequest").parameters.used, "a path parameter is used by every request").toEqual({ id: 1 });
      expect(operation("listDepartments").parameters.unknown, "a name the operation does not declare").toEqual(["status"]);
      expect(operation("listEmployees")).toMatchObject({ requests: 0, statuses: { seen: {} }, parameters: { used: {} } });

      expect({ exercised: report.webhooks.exercised, total: report.webhooks.total }).toEqual({ exercised: 1, total: webhookEventTypes.length });
      expect(report.webhooks.events.find((e: { type: string }) => e.type === "leave.approved")).toEqual({ type: "leave.approved", deliveries: 1, attempts: 1, answers: { 200: 1 }, succeeded: 1, failed: 0 });
    } finally {
      await receiver.close();
    }
  });
});
