// verify(filter, { times, within }) on a sandbox: the count a test expects against what arrived, a
// request that arrives later (no sleep in the test: verify waits for it), the wait that runs out
// (an injected clock), and a failure's message, which states expected against actual and the near
// misses in the contract's terms.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startMock, VerificationError, type MockSandbox, type RunningMock, type VerifyOptions, type RequestFilter } from "../../mock/index.js";
import { MockOptionError } from "../../mock/kernel/option-error.js";
import { loadSpec } from "../../mock/kernel/spec.js";
import { Journal, type JournalEntry } from "../../mock/worlds/journal/journal.js";
import { verifyJournal, type VerifyClock } from "../../mock/worlds/journal/verify.js";

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ port: 0, today: "2026-05-04", rateLimit: "off", authThrottle: "off" });
});
afterAll(() => mock.close());

async function fresh(): Promise<MockSandbox> {
  return mock.createSandbox({ label: "verify.test.ts" });
}

const get = (sandbox: MockSandbox, path: string, key = sandbox.key.org1Full) => fetch(mock.url + path, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.arrayBuffer());

describe("times", () => {
  const cases: [string, { sent: number; options: VerifyOptions | undefined; holds: boolean; says?: string }][] = [
    ["at least once by default, with one", { sent: 1, options: undefined, holds: true }],
    ["at least once by default, with none", { sent: 0, options: undefined, holds: false, says: "to be received at least once; it was received 0 times" }],
    ["exactly 2, with 2", { sent: 2, options: { times: 2 }, holds: true }],
    ["exactly once, with 2", { sent: 2, options: { times: 1 }, holds: false, says: "to be received exactly once; it was received 2 times" }],
    ["never, with none", { sent: 0, options: { times: 0 }, holds: true }],
    ["never, with one", { sent: 1, options: { times: 0 }, holds: false, says: "never to be received; it was received once" }],
    ["at least 2, with 3", { sent: 3, options: { times: { atLeast: 2 } }, holds: true }],
    ["at most once, with 2", { sent: 2, options: { times: { atMost: 1 } }, holds: false, says: "to be received at most once; it was received 2 times" }],
    ["between 1 and 3, with 3", { sent: 3, options: { times: { atLeast: 1, atMost: 3 } }, holds: true }],
    ["between 2 and 3, with 1", { sent: 1, options: { times: { atLeast: 2, atMost: 3 } }, holds: false, says: "to be received between 2 and 3 times; it was received once" }],
  ];
  test.each(cases)("%s", async (_name, { sent, options, holds, says }) => {
    const sandbox = await fresh();
    for (let i = 0; i < sent; i++) await get(sandbox, "/v1/leavetype/list");
    const verified = sandbox.verify({ operationId: "listLeaveTypes" }, options);
    if (holds) {
      const found = await verified;
      expect(found, "verify resolves with the matching requests").toHaveLength(sent);
      expect(found.every((r) => r.operationId === "listLeaveTypes" && r.status === 200)).toBe(true);
    } else {
      const error = await verified.then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(VerificationError);
      expect((error as VerificationError).message).toContain(says);
      expect((error as VerificationError).actual).toBe(sent);
    }
    await sandbox.delete();
  });

  const mistakes: [string, { filter: RequestFilter; options: VerifyOptions; want: RegExp }][] = [
    ["a negative count", { filter: {}, options: { times: -1 }, want: /times must be a whole number of at least 0, got -1/ }],
    ["atLeast above atMost", { filter: {}, options: { times: { atLeast: 3, atMost: 1 } }, want: /times.atLeast \(3\) is more than times.atMost \(1\)/ }],
    ["an unknown bound", { filter: {}, options: { times: { exactly: 1 } as never }, want: /times.exactly is not a bound/ }],
    ["a within past ten minutes", { filter: {}, options: { within: 600_001 }, want: /within must be milliseconds from 0 to 600000/ }],
    ["a misspelt operation", { filter: { operationId: "listLeaveType" }, options: {}, want: /no operation "listLeaveType"/ }],
  ];
  test.each(mistakes)("refuses %s with a MockOptionError", async (_name, { filter, options, want }) => {
    const error = await mock.verify(filter, options).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(MockOptionError);
    expect(String((error as Error).message)).toMatch(want);
  });
});

describe("within", () => {
  /** The application under test: it refreshes the leave list a moment after it is told to, as a debounced screen does. */
  function refreshSoon(sandbox: MockSandbox): void {
    setTimeout(() => void get(sandbox, "/v1/leaverequest/list?PageNumber=2&LeaveStatus=Approved"), 30);
  }

  test("waits for a request the application sends later, and resolves when it arrives", async () => {
    const sandbox = await fresh();
    refreshSoon(sandbox);
    expect(await sandbox.requests(), "nothing yet when verify starts waiting").toEqual([]);
    const [request] = await sandbox.verify({ operationId: "listLeaveRequests", query: { PageNumber: 2, LeaveStatus: "Approved" } }, { times: 1, within: 10_000 });
    expect({ path: request.path, query: request.query, status: request.status, caller: request.caller }).toEqual({
      path: "/v1/leaverequest/list",
      query: { PageNumber: "2", LeaveStatus: "Approved" },
      status: 200,
      caller: "org 1, leave and employee management",
    });
    await sandbox.delete();
  });

  describe("against the journal itself, with an injected clock", () => {
    const entry = (url: string): JournalEntry => ({ at: Date.now(), method: "GET", url, urlTruncated: false, operationId: "listLeaveTypes", caller: "org 1, leave only", status: 200, violations: undefined, nearest: undefined, durationMs: 1, body: undefined });
    /** A clock whose timers fire only when the test says so. */
    function manualClock(): VerifyClock & { fire(): void; pending: number } {
      const timers = new Map<number, () => void>();
      let next = 0;
      return {
        setTimeout: (callback) => (timers.set(++next, callback), next),
        clearTimeout: (handle) => void timers.delete(handle as number),
        fire: () => {
          for (const [id, callback] of [...timers]) timers.delete(id), callback();
        },
        get pending() {
          return timers.size;
        },
      };
    }

    test("a request recorded while it waits settles it, and its timer is cleared", async () => {
      const spec = await loadSpec();
      const journal = new Journal(10);
      const clock = manualClock();
      const verified = verifyJournal(journal, { operationId: "listLeaveTypes" }, { times: 2, within: 500 }, spec.byOperationId, clock);
      journal.record(entry("/v1/leavetype/list"));
      journal.record(entry("/v1/leavetype/list?IsActive=true"));
      expect((await verified).map((r) => r.query)).toEqual([{ IsActive: "true" }, {}]);
      expect(clock.pending, "no timer left behind").toBe(0);
    });

    test("when the time runs out first, it fails naming the wait", async () => {
      const spec = await loadSpec();
      const journal = new Journal(10);
      const clock = manualClock();
      const verified = verifyJournal(journal, { operationId: "listLeaveTypes" }, { times: 2, within: 500 }, spec.byOperationId, clock);
      journal.record(entry("/v1/leavetype/list"));
      clock.fire();
      const error = await verified.then(() => undefined, (e: unknown) => e);
      expect((error as Error).message).toMatch(/^Expected listLeaveTypes \(GET \/v1\/leavetype\/list\) to be received exactly twice within 500 ms; it was received once \(1 request in the journal\)\./);
    });
  });
});

describe("a failure's message", () => {
  test("states expected against actual and lists the near misses in the contract's terms, newest first", async () => {
    const sandbox = await fresh();
    // What the leave screen sent instead of page 2 of the approved requests:
    await get(sandbox, "/v1/leaverequest/list?PageNumber=1&LeaveStatus=Approved");
    await get(sandbox, "/v1/leaverequest/list?PageNumber=2&LeaveStatus=Aproved");
    await get(sandbox, "/v1/leaverequests?PageNumber=2");
    await get(sandbox, "/v1/leaverequest/list?PageNumber=2&LeaveStatus=Approved", sandbox.key.org1EmployeeView);
    await get(sandbox, "/v1/department/list");
    const error = await sandbox.verify({ operationId: "listLeaveRequests", query: { PageNumber: 2, LeaveStatus: "Approved" }, status: 200 }).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(VerificationError);
    const leave = "org 1, leave and employee management";
    expect((error as Error).message).toBe(
      [
        "Expected listLeaveRequests (GET /v1/leaverequest/list) with PageNumber=2 and LeaveStatus=Approved, answered 200, to be received at least once; it was received 0 times (5 requests in the journal).",
        "Near misses:",
        `  - GET /v1/leaverequest/list?PageNumber=2&LeaveStatus=Approved → 403 [org 1, employee management only]: answered 403, not 200; refused: Forbidden: this API key lacks the permission Leave: View.`,
        `  - GET /v1/leaverequests?PageNumber=2 → 404 [${leave}]: no operation has /v1/leaverequests; its nearest is listLeaveRequests`,
        `  - GET /v1/leaverequest/list?PageNumber=2&LeaveStatus=Aproved → 400 [${leave}]: LeaveStatus is "Aproved", not "Approved"; answered 400, not 200; refused: Invalid parameter LeaveStatus: must be one of Submitted, Pending, Approved, Rejected, Abandoned, Expired, or one of 0, 1, 2, 3, 4, 5, got "Aproved".`,
        `  - GET /v1/leaverequest/list?PageNumber=1&LeaveStatus=Approved → 200 [${leave}]: PageNumber is "1", not "2"`,
      ].join("\n"),
    );
    expect((error as VerificationError).nearMisses, "the department list is no near miss of the leave list").toHaveLength(4);
    await sandbox.delete();
  });

  test("says when nothing came close, and when the journal is empty", async () => {
    const sandbox = await fresh();
    const empty = await sandbox.verify({ operationId: "getLeaveBalance" }).then(() => undefined, (e: Error) => e.message);
    expect(empty).toContain("The journal is empty: no request reached this world.");
    await get(sandbox, "/v1/department/list");
    const none = await sandbox.verify({ operationId: "getLeaveBalance" }).then(() => undefined, (e: Error) => e.message);
    expect(none).toContain("No near misses: no request of that operation with other values, and no unmatched path near it.");
    await sandbox.delete();
  });

  test("lists what arrived when more came than expected", async () => {
    const sandbox = await fresh();
    for (let i = 0; i < 2; i++) await get(sandbox, "/v1/leavetype/list");
    const message = await sandbox.verify({ operationId: "listLeaveTypes" }, { times: 1 }).then(() => undefined, (e: Error) => e.message);
    expect(message?.split("\n").slice(1).map((line) => line.replace(/ at \S+$/, ""))).toEqual([
      "Received:",
      "  - GET /v1/leavetype/list → 200 [org 1, leave and employee management]",
      "  - GET /v1/leavetype/list → 200 [org 1, leave and employee management]",
    ]);
    await sandbox.delete();
  });
});

test("with the journal off (journalSize 0) verify says so instead of failing every expectation", async () => {
  const off = await startMock({ port: 0, journalSize: 0, rateLimit: "off" });
  try {
    await fetch(`${off.url}/v1/leavetype/list`, { headers: { authorization: "Bearer demo_org1_full" } }).then((r) => r.arrayBuffer());
    expect(await off.requests()).toEqual([]);
    await expect(off.verify({ operationId: "listLeaveTypes" })).rejects.toThrow(/the journal is off \(journalSize 0, or --journal-size 0\)/);
  } finally {
    await off.close();
  }
});
