import { afterAll, beforeAll, expect, test } from "vitest";
import { startMock, type MockSandbox } from "hr-service-mock";
import { toHaveReceived } from "hr-service-mock/vitest";
import { createClient } from "hr-service-contract/client";

expect.extend({ toHaveReceived });

// One mock per file here (a vitest globalSetup can share one), and one sandbox per file: its journal holds this file's requests only.
const mock = await startMock({ port: 0 });
let sandbox: MockSandbox;
beforeAll(async () => (sandbox = await mock.createSandbox({ label: "leave-screen.test.ts" })));
afterAll(() => mock.close());

// The code under test: the leave screen loads its page of approved requests a moment after it opens.
function openLeaveScreen(apiKey: string, page: number): void {
  const client = createClient({ baseUrl: mock.url, apiKey });
  setTimeout(() => void client.listLeaveRequests({ LeaveStatus: "Approved", PageNumber: page }), 20);
}

test("the leave screen asks for page 2 of the approved requests, once", async () => {
  openLeaveScreen(sandbox.key.org1Full, 2);
  // No sleep: `within` waits for the request, and a failure lists what came close instead.
  await expect(sandbox).toHaveReceived(
    { operationId: "listLeaveRequests", query: { PageNumber: 2, LeaveStatus: "Approved" }, status: 200 },
    { times: 1, within: 5_000 },
  );
});
