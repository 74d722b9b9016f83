// hr-service-mock/vitest: toHaveReceived on a sandbox, through expect.extend (nothing of vitest is
// imported by the module itself): it passes when verify holds, fails with verify's message, reads
// `.not` as "not received (within)", and says what it needs when given something else.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startMock, type MockSandbox, type RunningMock } from "hr-service-mock";
import { journalMatchers, toHaveReceived } from "hr-service-mock/vitest";

expect.extend(journalMatchers);

let mock: RunningMock;
let sandbox: MockSandbox;
beforeAll(async () => {
  mock = await startMock({ port: 0, rateLimit: "off" });
  sandbox = await mock.createSandbox({ label: "matcher.test.ts" });
  await fetch(`${mock.url}/v1/leavetype/list`, { headers: { authorization: `Bearer ${sandbox.key.org1Full}` } }).then((r) => r.arrayBuffer());
});
afterAll(() => mock.close());

describe("toHaveReceived", () => {
  test("passes when the sandbox received what the filter says, as often as times says", async () => {
    await expect(sandbox).toHaveReceived({ operationId: "listLeaveTypes", status: 200 }, { times: 1 });
  });

  test("fails with verify's message: expected against actual, and the near misses", async () => {
    const verified = await sandbox.verify({ operationId: "listLeaveTypes", status: 404 }).catch((e: Error) => e.message);
    const failed = await expect(sandbox).toHaveReceived({ operationId: "listLeaveTypes", status: 404 }).catch((e: Error) => e.message);
    expect(failed).toBe(verified);
    expect(failed).toContain("answered 200, not 404");
  });

  test(".not passes when nothing matching arrives within the wait, and fails naming what did arrive", async () => {
    await expect(sandbox).not.toHaveReceived({ operationId: "listEmployees" }, { within: 20 });
    const failed = await expect(sandbox).not.toHaveReceived({ operationId: "listLeaveTypes" }).catch((e: Error) => e.message);
    expect(failed).toMatch(/^Expected \{"operationId":"listLeaveTypes"\} not to be received; it was, once:\n  - GET \/v1\/leavetype\/list → 200 at /);
  });

  test("says what it needs when given something without a journal", async () => {
    const failed = await expect({}).toHaveReceived({ operationId: "listLeaveTypes" }).catch((e: Error) => e.message);
    expect(failed).toBe("toHaveReceived asks a mock with a journal: startMock's mock, a sandbox from createSandbox() or the Playwright fixture, or createHandlers()'s handlers; got object");
  });

  test("a mistake in the filter is thrown as it is, not taken for a failed expectation", async () => {
    await expect(toHaveReceived(sandbox, { operationId: "nope" })).rejects.toThrow(/filter.operationId: no operation "nope"/);
  });
});
