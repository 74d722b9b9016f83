// Sandboxes in a --state directory: a restart brings back each sandbox with its id, keys, data
// changes and webhook endpoints; a deleted one stays deleted and a reset one comes back at its start.
import { afterAll, describe, expect, test } from "vitest";
import { DEMO_KEY, startMock, type MockSandbox, type RunningMock } from "../../mock/index.js";
import { newStateDir } from "./support.js";

const START = { port: 0, today: "2026-11-23", scale: 0.1, seed: 11, rateLimit: "off" as const, authThrottle: "off" as const };
const open: RunningMock[] = [];
afterAll(async () => {
  for (const mock of open) await mock.close();
});

async function call(mock: RunningMock, key: string, method: string, path: string, body?: unknown): Promise<{ status: number; data: any }> {
  const response = await fetch(`${mock.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const envelope = (await response.json()) as { data: any };
  return { status: response.status, data: envelope.data };
}

/** How many Approved leave requests an organisation-1 key of the sandbox sees. */
async function approvedCount(mock: RunningMock, sandbox: MockSandbox): Promise<number> {
  const page = await call(mock, sandbox.key.org1Full, "GET", "/v1/leaverequest/list?PageSize=1&LeaveStatus=Approved");
  return page.data.totalRecords as number;
}

describe("sandboxes across a restart with --state", async () => {
  const state = newStateDir();
  const first = await startMock({ ...START, state });
  open.push(first);
  const kept = await first.createSandbox({ label: "kept" });
  const removed = await first.createSandbox({ label: "removed" });
  const reset = await first.createSandbox({ label: "reset" });
  const approvedBefore = await approvedCount(first, kept);
  // A data change and an endpoint in two sandboxes; one of them is then reset, another deleted.
  for (const sandbox of [kept, reset]) {
    expect((await call(first, sandbox.key.org1WebhooksAdmin, "POST", "/_mock/webhooks/events", { type: "leave.approved" })).status, "trigger in a sandbox").toBe(202);
    expect((await call(first, sandbox.key.org1WebhooksAdmin, "POST", "/_mock/webhooks/endpoints", { url: "https://example.com/hooks", description: sandbox.label })).status).toBe(201);
  }
  const approvedAfter = await approvedCount(first, kept);
  await reset.reset();
  await removed.delete();
  await first.close();
  open.splice(open.indexOf(first), 1);

  const second = await startMock({ ...START, state });
  open.push(second);

  const cases: [string, { given: () => Promise<unknown>; want: unknown }][] = [
    ["the kept and the reset sandbox come back, the deleted one does not", { given: async () => (await call(second, DEMO_KEY.org1WebhooksAdmin, "GET", "/_mock/sandboxes")).data.map((s: { label: string }) => s.label), want: ["kept", "reset"] }],
    ["the kept sandbox's key still works and sees its data change", { given: () => approvedCount(second, kept), want: approvedAfter }],
    ["the kept sandbox keeps its endpoint", { given: async () => (await call(second, kept.key.org1WebhooksAdmin, "GET", "/_mock/webhooks/endpoints")).data.map((e: { description: string }) => e.description), want: ["kept"] }],
    ["the reset sandbox is at its start: no data change", { given: () => approvedCount(second, reset), want: approvedBefore }],
    ["the reset sandbox has no endpoint", { given: async () => (await call(second, reset.key.org1WebhooksAdmin, "GET", "/_mock/webhooks/endpoints")).data, want: [] }],
    ["the deleted sandbox's key is unknown", { given: async () => (await call(second, removed.key.org1Full, "GET", "/v1/leavetype/list")).status, want: 401 }],
    ["the demo keys' data has none of the sandboxes' changes", { given: async () => second.dataset.version, want: 0 }],
  ];

  test("the data change was made in the first run", () => {
    expect(approvedAfter, "a trigger of leave.approved approves one more request").toBe(approvedBefore + 1);
  });

  test.each(cases)("%s", async (_name, { given, want }) => {
    expect(await given()).toEqual(want);
  });
});
