import { afterAll, beforeAll, expect, test } from "vitest";
import { startMock, type MockSandbox } from "hr-service-mock";
import { createClient } from "hr-service-contract/client";

// One mock, here per file (a vitest globalSetup or `npm start` shares one between files), and one sandbox per file.
const mock = await startMock({ port: 0 });
let sandbox: MockSandbox;
beforeAll(async () => (sandbox = await mock.createSandbox({ label: "leave-screens.test.ts" })));
afterAll(async () => {
  await sandbox.delete();
  await mock.close();
});

test("an approval shows in this sandbox only", async () => {
  const approve = await fetch(`${mock.url}/_mock/webhooks/events`, {
    method: "POST",
    headers: { Authorization: `Bearer ${sandbox.key.org1WebhooksAdmin}`, "Content-Type": "application/json" },
    body: JSON.stringify({ type: "leave.approved" }),
  });
  const { data } = await approve.json();
  const mine = createClient({ baseUrl: mock.url, apiKey: sandbox.key.org1Full });
  const theirs = createClient({ baseUrl: mock.url, apiKey: "demo_org1_full" });
  expect((await mine.getLeaveRequest(data.event.data.leaveRequestId)).leaveStatus).toBe("Approved");
  expect((await theirs.getLeaveRequest(data.event.data.leaveRequestId)).leaveStatus).not.toBe("Approved");
});
