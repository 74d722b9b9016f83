// What one world does is invisible to every other: a sandbox's reads, triggers, endpoints,
// deliveries, rate-limit counters and faults reach neither another sandbox nor the demo keys (the
// default world), and what the demo keys do reaches no sandbox. Each case observes all three worlds
// before and after one world acts.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DEMO_KEY, startMock, type RunningMock } from "../../mock/index.js";
import { call, createSandbox, DEFAULT_WORLD, type SandboxKeys } from "./support.js";

const RATE_LIMIT = 40;
let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ port: 0, rateLimit: RATE_LIMIT, today: "2026-11-02", authThrottle: "off" });
});
afterAll(() => mock?.close());

const ids = () => mock.ids[0];
const admin = (w: SandboxKeys) => w.key(DEMO_KEY.org1WebhooksAdmin);
const reader = (w: SandboxKeys) => w.key(DEMO_KEY.org1Full);

type Case = [string, { act: (w: SandboxKeys) => Promise<unknown>; observe: (w: SandboxKeys) => Promise<unknown> }];
const CASES: Case[] = [
  [
    "a trigger's change of a leave request",
    {
      act: (w) => call(mock.url, admin(w), "POST", "/_mock/webhooks/events", { type: "leave.approved", id: ids().waitingLeaveRequestId }),
      observe: async (w) => (await call(mock.url, reader(w), "GET", `/v1/leaverequest/details/${ids().waitingLeaveRequestId}`)).body.data.leaveStatus,
    },
  ],
  [
    "a new employee",
    {
      act: (w) => call(mock.url, admin(w), "POST", "/_mock/webhooks/events", { type: "employee.created" }),
      observe: async (w) => (await call(mock.url, reader(w), "GET", "/v1/employee/list?PageSize=1")).body.data.totalRecords,
    },
  ],
  [
    "a new leave request",
    {
      act: (w) => call(mock.url, admin(w), "POST", "/_mock/webhooks/events", { type: "leave.requested" }),
      observe: async (w) => (await call(mock.url, reader(w), "GET", "/v1/leaverequest/list?PageSize=1")).body.data.totalRecords,
    },
  ],
  [
    "a webhook endpoint",
    {
      act: (w) => call(mock.url, admin(w), "POST", "/_mock/webhooks/endpoints", { url: "http://127.0.0.1:9/hooks", events: ["payroll.paid"] }),
      observe: async (w) => (await call(mock.url, admin(w), "GET", "/_mock/webhooks/endpoints")).body.data.map((e: { url: string }) => e.url),
    },
  ],
  [
    "deliveries in the log",
    {
      act: async (w) => {
        await call(mock.url, admin(w), "POST", "/_mock/webhooks/endpoints", { url: "http://127.0.0.1:9/hooks", events: ["payroll.paid"] });
        return call(mock.url, admin(w), "POST", "/_mock/webhooks/events", { type: "payroll.paid" });
      },
      observe: async (w) => (await call(mock.url, admin(w), "GET", "/_mock/webhooks/deliveries")).body.data.length,
    },
  ],
  [
    "a scripted fault",
    {
      act: (w) => call(mock.url, admin(w), "POST", "/_mock/faults", { operation: "listLeaveTypes", status: 500 }),
      observe: async (w) => [(await call(mock.url, reader(w), "GET", "/v1/leavetype/list")).status, (await call(mock.url, admin(w), "GET", "/_mock/faults")).body.data.length],
    },
  ],
  [
    "a spent rate limit",
    {
      act: async (w) => {
        for (let i = 0; i < RATE_LIMIT; i++) await call(mock.url, w.key(DEMO_KEY.org1LeaveView), "GET", "/v1/leavetype/list");
      },
      observe: async (w) => (await call(mock.url, w.key(DEMO_KEY.org1LeaveView), "GET", "/v1/leavetype/list")).headers.get("ratelimit-remaining") !== "0",
    },
  ],
];

// Each case acts in a sandbox, in the default world, and checks the other two.
const ACTORS = [["sandbox A", 0], ["the default world (demo keys)", 2]] as const;

describe.each(ACTORS)("acting in %s", (_actor, actorIndex) => {
  test.each(CASES)("%s is seen there only", async (_name, { act, observe }) => {
    // Fresh sandboxes per case; the default world is only the actor in its own cases (after every sandbox case ran).
    const worlds = [await createSandbox(mock.url, "A"), await createSandbox(mock.url, "B"), DEFAULT_WORLD];
    const before = await Promise.all(worlds.map(observe));
    await act(worlds[actorIndex]);
    const after = await Promise.all(worlds.map(observe));
    for (const [i, world] of worlds.entries()) {
      if (i === actorIndex) expect(after[i], `${world.id} acted and sees its change`).not.toEqual(before[i]);
      else expect(after[i], `${world.id} did not act and sees no change`).toEqual(before[i]);
    }
    for (const world of worlds.slice(0, 2)) await call(mock.url, DEMO_KEY.org1WebhooksAdmin, "DELETE", `/_mock/sandboxes/${world.id}`);
  });
});

test("a key of one sandbox reads nothing of another organisation's or world's ids that it does not hold", async () => {
  const a = await createSandbox(mock.url);
  // A record created in the default world does not exist in the sandbox.
  const created = await call(mock.url, DEMO_KEY.org1WebhooksAdmin, "POST", "/_mock/webhooks/events", { type: "leave.requested" });
  const id = created.body.data.event.data.leaveRequestId;
  expect((await call(mock.url, DEMO_KEY.org1Full, "GET", `/v1/leaverequest/details/${id}`)).status, "the default world has it").toBe(200);
  expect((await call(mock.url, reader(a), "GET", `/v1/leaverequest/details/${id}`)).status, "the sandbox has not").toBe(404);
});
