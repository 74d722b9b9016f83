// A world's journal as a data structure: bounded at its capacity with the count it let go, newest
// first, off at 0; coverage counts that outlast the ring; and every criterion of the filter, each
// selecting what its name says and refusing a mistake with a sentence naming it.
import { beforeAll, describe, expect, test } from "vitest";
import { loadSpec, type LoadedSpec } from "../../mock/kernel/spec.js";
import { Journal, type JournalEntry } from "../../mock/worlds/journal/journal.js";
import { checkFilter, listRequests, type RequestFilter } from "../../mock/worlds/journal/requests.js";
import { MockOptionError } from "../../mock/kernel/option-error.js";

let spec: LoadedSpec;
beforeAll(async () => {
  spec = await loadSpec();
});

const T0 = Date.parse("2026-11-23T09:00:00Z");

function entry(url: string, given: Partial<JournalEntry> = {}): JournalEntry {
  return { at: T0, method: "GET", url, urlTruncated: false, operationId: "listLeaveRequests", caller: "org 1, leave only", status: 200, violations: undefined, nearest: undefined, durationMs: 0.5, body: undefined, ...given };
}

describe("the ring", () => {
  test("keeps the last `capacity` entries, newest first, and counts the ones it let go", () => {
    const journal = new Journal(3);
    for (let i = 1; i <= 5; i++) journal.record(entry(`/v1/leaverequest/list?PageNumber=${i}`));
    expect([...journal.newestFirst()].map((e) => e.url)).toEqual(["/v1/leaverequest/list?PageNumber=5", "/v1/leaverequest/list?PageNumber=4", "/v1/leaverequest/list?PageNumber=3"]);
    expect({ size: journal.size, dropped: journal.dropped, capacity: journal.capacity }).toEqual({ size: 3, dropped: 2, capacity: 3 });
  });

  // An entry is recorded once answered; `at` is when it arrived. A slow request overlapping quicker
  // ones is recorded after them but listed where it arrived, as the shared (Redis) journal lists it.
  const ARRIVALS: Array<[string, { capacity: number; arrivedAt: number[]; want: number[] }]> = [
    ["answered in the order they arrived", { capacity: 5, arrivedAt: [1, 2, 3], want: [3, 2, 1] }],
    ["a slow one recorded after two that came later", { capacity: 5, arrivedAt: [1, 4, 5, 2], want: [5, 4, 2, 1] }],
    ["the slowest of all, recorded last", { capacity: 5, arrivedAt: [3, 4, 5, 1], want: [5, 4, 3, 1] }],
    ["two arrived at once keep their order", { capacity: 5, arrivedAt: [1, 2, 2], want: [2, 2, 1] }],
    ["past the capacity, across the ring's end", { capacity: 3, arrivedAt: [1, 2, 3, 5, 6, 4], want: [6, 5, 4] }],
  ];
  test.each(ARRIVALS)("lists by arrival, newest first: %s", (_name, { capacity, arrivedAt, want }) => {
    const journal = new Journal(capacity);
    for (const [i, ms] of arrivedAt.entries()) journal.record(entry(`/v1/leaverequest/list?n=${i}`, { at: T0 + ms }));
    expect([...journal.newestFirst()].map((e) => e.at - T0), "arrival times (ms after T0), as listed").toEqual(want);
    expect(journal.size, "entries held").toBe(Math.min(capacity, arrivedAt.length));
  });

  test("counts for coverage every request, also those the ring let go", () => {
    const journal = new Journal(2);
    for (let i = 1; i <= 5; i++) journal.record(entry(`/v1/leaverequest/list?PageNumber=${i}&pagesize=5`, { status: i === 5 ? 400 : 200 }));
    journal.record(entry("/v1/leaverequests", { operationId: undefined, status: 404 }));
    journal.record(entry("/_mock/request", { operationId: undefined, status: 404 }));
    const tally = journal.tally.operations.get("listLeaveRequests");
    expect({ requests: tally?.requests, statuses: Object.fromEntries(tally!.statuses), parameters: Object.fromEntries(tally!.parameters) }).toEqual({
      requests: 5,
      statuses: { 200: 4, 400: 1 },
      parameters: { PageNumber: 5, pagesize: 5 },
    });
    expect(journal.tally.unmatched, "an unknown path under /_mock/ is the control API's, not the read API's").toBe(1);
  });

  test("counts no parameter name longer than 128 characters: coverage lists names, not payloads", () => {
    const journal = new Journal(2);
    journal.record(entry(`/v1/leaverequest/list?${"n".repeat(129)}=1&${"m".repeat(128)}=2`));
    expect([...journal.tally.operations.get("listLeaveRequests")!.parameters.keys()]).toEqual(["m".repeat(128)]);
  });

  test("clear forgets entries, the dropped count and the coverage counts, and says how many it held", () => {
    const journal = new Journal(2);
    for (let i = 0; i < 3; i++) journal.record(entry("/v1/leaverequest/list"));
    expect(journal.clear()).toBe(2);
    expect({ size: journal.size, dropped: journal.dropped, entries: [...journal.newestFirst()], counted: journal.tally.operations.size }).toEqual({ size: 0, dropped: 0, entries: [], counted: 0 });
  });

  test("a journal of size 0 is off: it records and counts nothing", () => {
    const journal = new Journal(0);
    journal.record(entry("/v1/leaverequest/list"));
    expect({ on: journal.on, size: journal.size, dropped: journal.dropped, counted: journal.tally.operations.size }).toEqual({ on: false, size: 0, dropped: 0, counted: 0 });
  });
});

describe("the filter", () => {
  const at = (iso: string) => Date.parse(iso);
  const recorded: JournalEntry[] = [
    entry("/v1/leaverequest/list?PageNumber=2&LeaveStatus=Approved", { at: at("2026-11-23T09:00:01Z") }),
    entry("/v1/leaverequest/list?pagenumber=1", { at: at("2026-11-23T09:00:02Z"), caller: "org 1, leave and employee management" }),
    entry("/v1/leaverequest/list?LeaveStatus=Aproved", { at: at("2026-11-23T09:00:03Z"), status: 400, violations: [{ kind: "parameter", name: "LeaveStatus", message: "Invalid parameter LeaveStatus: ..." }] }),
    entry("/v1/department/list?Companies=a&Companies=b", { at: at("2026-11-23T09:00:04Z"), operationId: "listDepartments" }),
    entry("/v1/leaverequests", { at: at("2026-11-23T09:00:05Z"), operationId: undefined, status: 404, nearest: ["listLeaveRequests"] }),
    entry("/v1/department/list", { at: at("2026-11-23T09:00:06Z"), method: "HEAD", operationId: "listDepartments" }),
    entry("/_mock/faults", { at: at("2026-11-23T09:00:07Z"), operationId: "listFaults", caller: "org 1, webhooks admin" }),
    entry("/_mock/nothing", { at: at("2026-11-23T09:00:08Z"), operationId: undefined, status: 404 }),
  ];
  const journal = new Journal(100);
  for (const e of recorded) journal.record(e);
  const select = (filter: RequestFilter | undefined) => listRequests(journal, checkFilter(filter, spec.byOperationId), spec.byOperationId).requests.map((r) => `${r.method} ${r.path}${Object.keys(r.query).length ? `?${new URLSearchParams(Object.entries(r.query).flatMap(([n, v]) => (Array.isArray(v) ? v : [v]).map((x) => [n, x])))}` : ""}`);

  const cases: [string, { given: RequestFilter | undefined; want: string[] }][] = [
    ["no filter: every request of the read API, newest first, none of the control API's", { given: undefined, want: ["HEAD /v1/department/list", "GET /v1/leaverequests", "GET /v1/department/list?Companies=a&Companies=b", "GET /v1/leaverequest/list?LeaveStatus=Aproved", "GET /v1/leaverequest/list?pagenumber=1", "GET /v1/leaverequest/list?PageNumber=2&LeaveStatus=Approved"] }],
    ["operationId", { given: { operationId: "listDepartments" }, want: ["HEAD /v1/department/list", "GET /v1/department/list?Companies=a&Companies=b"] }],
    ["method", { given: { method: "head" }, want: ["HEAD /v1/department/list"] }],
    ["path (as sent, without the query)", { given: { path: "/v1/leaverequests" }, want: ["GET /v1/leaverequests"] }],
    ["query, names in any letter case, values as text", { given: { query: { PageNumber: 1 } }, want: ["GET /v1/leaverequest/list?pagenumber=1"] }],
    ["query with two names", { given: { query: { PageNumber: "2", LeaveStatus: "Approved" } }, want: ["GET /v1/leaverequest/list?PageNumber=2&LeaveStatus=Approved"] }],
    ["query with a repeated name's values as a list", { given: { query: { Companies: ["a", "b"] } }, want: ["GET /v1/department/list?Companies=a&Companies=b"] }],
    ["query with one value where two were sent matches nothing", { given: { query: { Companies: "a" } }, want: [] }],
    ["status", { given: { status: 400 }, want: ["GET /v1/leaverequest/list?LeaveStatus=Aproved"] }],
    ["caller (the key's label)", { given: { caller: "org 1, leave and employee management" }, want: ["GET /v1/leaverequest/list?pagenumber=1"] }],
    ["unmatched: true", { given: { unmatched: true }, want: ["GET /v1/leaverequests"] }],
    ["unmatched with control: the control API's unknown paths too", { given: { unmatched: true, control: true }, want: ["GET /_mock/nothing", "GET /v1/leaverequests"] }],
    ["since, as an ISO time", { given: { since: "2026-11-23T09:00:05Z" }, want: ["HEAD /v1/department/list", "GET /v1/leaverequests"] }],
    ["since, as a Date", { given: { since: new Date("2026-11-23T09:00:06Z") }, want: ["HEAD /v1/department/list"] }],
    ["control: the control API's calls too", { given: { control: true, since: "2026-11-23T09:00:06Z" }, want: ["GET /_mock/nothing", "GET /_mock/faults", "HEAD /v1/department/list"] }],
    ["an operationId of the control API includes its calls", { given: { operationId: "listFaults" }, want: ["GET /_mock/faults"] }],
    ["criteria together", { given: { operationId: "listLeaveRequests", status: 200, caller: "org 1, leave only" }, want: ["GET /v1/leaverequest/list?PageNumber=2&LeaveStatus=Approved"] }],
  ];
  test.each(cases)("selects by %s", (_name, { given, want }) => {
    expect(select(given)).toEqual(want);
  });

  test("shows an entry as callers see it: time, query as sent, findings, nearest operations", () => {
    const [unmatched] = listRequests(journal, checkFilter({ unmatched: true }, spec.byOperationId), spec.byOperationId).requests;
    expect(unmatched).toEqual({
      at: "2026-11-23T09:00:05.000Z",
      method: "GET",
      path: "/v1/leaverequests",
      query: {},
      urlTruncated: false,
      operationId: null,
      caller: "org 1, leave only",
      status: 404,
      violations: [],
      nearest: [{ operationId: "listLeaveRequests", method: "GET", path: "/v1/leaverequest/list" }],
      durationMs: 0.5,
      body: null,
    });
  });

  const mistakes: [string, { given: unknown; want: RegExp }][] = [
    ["a criterion that does not exist", { given: { operationID: "x" }, want: /operationID is not a criterion of a request filter; the criteria are operationId, method/ }],
    ["an operation the mock does not have", { given: { operationId: "listLeaveRequest" }, want: /no operation "listLeaveRequest"; the operations are listLeaveRequests,/ }],
    ["a status that is no HTTP status", { given: { status: 42 }, want: /filter.status must be an HTTP status from 100 to 599, got 42/ }],
    ["unmatched that is not a boolean", { given: { unmatched: "yes" }, want: /filter.unmatched must be true or false/ }],
    ["a since that is no time", { given: { since: "yesterday" }, want: /filter.since must be a Date, an ISO 8601 time or milliseconds/ }],
    ["a query value that is an object", { given: { query: { PageNumber: { n: 1 } } }, want: /filter.query.PageNumber must be a text, number or boolean/ }],
    ["a filter that is not an object", { given: "listLeaveRequests", want: /a request filter is an object/ }],
  ];
  test.each(mistakes)("refuses %s with a MockOptionError naming it", (_name, { given, want }) => {
    expect(() => checkFilter(given as RequestFilter, spec.byOperationId)).toThrow(MockOptionError);
    expect(() => checkFilter(given as RequestFilter, spec.byOperationId)).toThrow(want);
  });
});
