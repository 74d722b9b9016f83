// A sandbox's life through the control API and startMock: created with a key per demo key (same
// labels and permissions, fresh values, the sandbox's copies of the organisations), listed, reset to
// its start state, deleted; what a sandbox's own key may see; the limit; bad input. Every control
// answer is checked against the control document.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import controlDocument from "../../generated/control-openapi.json" with { type: "json" };
import { mockLimits } from "../../generated/control-facts.js";
import { DEMO_KEY, DEMO_KEYS, SandboxError, startMock, type RunningMock } from "../../mock/index.js";
import { createDocumentValidator } from "../../scripts/lib/spec-validator.js";
import { TestReceiver } from "../webhooks-engine/support.js";
import { call as rawCall, controlAnswerCheck, keysOf, type Answer } from "./support.js";

const ADMIN = DEMO_KEY.org1WebhooksAdmin;
const UNKNOWN_ID = "00000000-0000-4000-8000-000000000000";
const check = controlAnswerCheck(controlDocument, createDocumentValidator(structuredClone(controlDocument), "control").validate);

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ port: 0, today: "2026-11-02", rateLimit: "off" });
});
afterAll(() => mock?.close());

/** A control call whose answer must be one the document declares, in its schema. */
async function control(method: string, path: string, body?: unknown, key: string = ADMIN): Promise<Answer> {
  const answer = await rawCall(mock.url, key, method, path, body);
  if (path.startsWith("/_mock/")) expect(check(method, path, answer)).toEqual([]);
  return answer;
}

async function deleteAll(): Promise<void> {
  for (const sandbox of (await control("GET", "/_mock/sandboxes")).body.data) await control("DELETE", `/_mock/sandboxes/${sandbox.id}`);
}

describe("creating a sandbox", () => {
  test("answers its id and one key per demo key: the demo key's label, permissions and organisation, a fresh value", async () => {
    const created = await control("POST", "/_mock/sandboxes", { label: "lifecycle" });
    expect(created.status).toBe(201);
    const sandbox = created.body.data;
    expect(sandbox.label).toBe("lifecycle");
    const demo = mock.keys.filter((k) => k.demo);
    expect(sandbox.keys.map((k: { demoKey: string }) => k.demoKey)).toEqual(DEMO_KEYS.map((k) => k.key));
    for (const [i, key] of sandbox.keys.entries()) {
      expect(key.label, `${key.demoKey}: label`).toBe(demo[i].label);
      expect([...key.permissions].sort(), `${key.demoKey}: permissions`).toEqual([...demo[i].permissions].sort());
      expect(key.organizationId, `${key.demoKey}: the organisation's copy keeps its id`).toBe(demo[i].organizationId);
      expect(key.key, `${key.demoKey}: a fresh value`).not.toBe(key.demoKey);
    }
    const another = (await control("POST", "/_mock/sandboxes")).body.data;
    expect(another.label, "the body may be left out").toBeNull();
    expect(another.keys[0].key, "each sandbox's keys are its own").not.toBe(sandbox.keys[0].key);
    await deleteAll();
  });

  test("its keys read the start data with the demo keys' permissions", async () => {
    const sandbox = keysOf((await control("POST", "/_mock/sandboxes")).body.data);
    const read = (key: string, path: string) => rawCall(mock.url, key, "GET", path);
    expect((await read(sandbox.key(DEMO_KEY.org1Full), "/v1/leavetype/list")).body).toEqual((await read(DEMO_KEY.org1Full, "/v1/leavetype/list")).body);
    expect((await read(sandbox.key(DEMO_KEY.org1LeaveView), "/v1/employee/list")).status, "leave only: no employee list").toBe(403);
    expect((await read(sandbox.key(DEMO_KEY.org2Full), `/v1/department/${mock.ids[0].departmentId}`)).status, "organisation 2 sees no organisation 1 record").toBe(404);
    expect((await control("GET", "/_mock/webhooks/endpoints", undefined, sandbox.key(DEMO_KEY.org1Full))).status, "no Manage Webhooks: no control API").toBe(403);
    await deleteAll();
  });
});

describe("reset and delete", () => {
  test("a reset brings back the start data, no endpoints, no log, no faults; the keys stay", async () => {
    const sandbox = keysOf((await control("POST", "/_mock/sandboxes")).body.data);
    const admin = sandbox.key(ADMIN);
    const waiting = mock.ids[0].waitingLeaveRequestId;
    const statusOf = async () => (await rawCall(mock.url, sandbox.key(DEMO_KEY.org1Full), "GET", `/v1/leaverequest/details/${waiting}`)).body.data.leaveStatus;
    await control("POST", "/_mock/webhooks/endpoints", { url: "http://127.0.0.1:9/hooks" }, admin);
    await control("POST", "/_mock/webhooks/events", { type: "leave.approved", id: waiting }, admin);
    await control("POST", "/_mock/faults", { operation: "listEmployees", status: 500 }, admin);
    expect(await statusOf()).toBe("Approved");

    const reset = await control("POST", `/_mock/sandboxes/${sandbox.id}/reset`);
    expect(reset.status).toBe(200);
    expect(await statusOf(), "the start data").toBe("Submitted");
    expect((await control("GET", "/_mock/webhooks/endpoints", undefined, admin)).body.data).toEqual([]);
    expect((await control("GET", "/_mock/webhooks/deliveries", undefined, admin)).body.data).toEqual([]);
    expect((await control("GET", "/_mock/faults", undefined, admin)).body.data).toEqual([]);
    expect((await rawCall(mock.url, sandbox.key(DEMO_KEY.org1Full), "GET", "/v1/employee/list")).status, "the fault is gone").toBe(200);
    // The same trigger again approves the same request: the start state, picks included.
    expect((await control("POST", "/_mock/webhooks/events", { type: "leave.approved" }, admin)).status).toBe(202);
    await deleteAll();
  });

  test("a delete stops the keys at once and frees the id", async () => {
    const sandbox = keysOf((await control("POST", "/_mock/sandboxes")).body.data);
    expect((await control("DELETE", `/_mock/sandboxes/${sandbox.id}`)).status).toBe(200);
    expect((await rawCall(mock.url, sandbox.key(DEMO_KEY.org1Full), "GET", "/v1/leavetype/list")).status, "its key is unknown").toBe(401);
    expect((await control("GET", "/_mock/sandboxes")).body.data).toEqual([]);
    expect((await control("DELETE", `/_mock/sandboxes/${sandbox.id}`)).status, "deleted once").toBe(404);
    expect((await control("POST", `/_mock/sandboxes/${sandbox.id}/reset`)).status).toBe(404);
  });
});

describe("a sandbox's webhooks", () => {
  test("its endpoint receives its events, signed with its secret; the demo keys' log does not show them", async () => {
    const receiver = await new TestReceiver().start();
    try {
      const sandbox = keysOf((await control("POST", "/_mock/sandboxes")).body.data);
      const admin = sandbox.key(ADMIN);
      const added = await control("POST", "/_mock/webhooks/endpoints", { url: receiver.url, events: ["leave.approved"] }, admin);
      receiver.useSecret(added.body.data.secret);
      const triggered = await control("POST", "/_mock/webhooks/events", { type: "leave.approved" }, admin);
      const event = await receiver.event(triggered.body.data.event.id);
      expect(event.organizationId, "the sandbox's copy of organisation 1 keeps its id").toBe(mock.ids[0].organizationId);
      expect(receiver.rejections, "the signature verifies with the sandbox endpoint's secret").toEqual([]);
      const ours = (await control("GET", `/_mock/webhooks/deliveries?eventId=${event.id}`, undefined, admin)).body.data;
      // Its state may still be "sending" while the receiver's answer travels back: the entry is what counts here.
      expect(ours.map((d: { endpointId: string }) => d.endpointId), "one delivery, to the sandbox's endpoint").toEqual([added.body.data.id]);
      expect((await control("GET", `/_mock/webhooks/deliveries?eventId=${event.id}`)).body.data, "not in the demo keys' log").toEqual([]);
      await deleteAll();
    } finally {
      await receiver.close();
    }
  });
});

describe("what a sandbox's own key may see", () => {
  test("its own sandbox only: the list, reset and delete of another are not there", async () => {
    const a = keysOf((await control("POST", "/_mock/sandboxes")).body.data);
    const b = keysOf((await control("POST", "/_mock/sandboxes")).body.data);
    const own = a.key(ADMIN);
    expect((await control("GET", "/_mock/sandboxes", undefined, own)).body.data.map((s: { id: string }) => s.id)).toEqual([a.id]);
    expect((await control("POST", `/_mock/sandboxes/${b.id}/reset`, undefined, own)).status).toBe(404);
    expect((await control("DELETE", `/_mock/sandboxes/${b.id}`, undefined, own)).status).toBe(404);
    expect((await control("POST", `/_mock/sandboxes/${a.id}/reset`, undefined, own)).status, "its own").toBe(200);
    expect((await control("GET", "/_mock/sandboxes")).body.data.map((s: { id: string }) => s.id), "the demo keys see every sandbox").toEqual([a.id, b.id]);
    await deleteAll();
  });
});

describe("limits and bad input", () => {
  const cases: [string, { given: () => [string, string, unknown?]; want: { status: number; message: RegExp } }][] = [
    ["an unknown sandbox id", { given: () => ["DELETE", `/_mock/sandboxes/${UNKNOWN_ID}`], want: { status: 404, message: /no sandbox with id 00000000-0000-4000-8000-000000000000 \(id\)/ } }],
    ["a reset of an unknown id", { given: () => ["POST", `/_mock/sandboxes/${UNKNOWN_ID}/reset`], want: { status: 404, message: /no sandbox with id/ } }],
    ["an id that is not a uuid", { given: () => ["DELETE", "/_mock/sandboxes/not-an-id"], want: { status: 400, message: /id/ } }],
    ["a label that is not text", { given: () => ["POST", "/_mock/sandboxes", { label: 42 }], want: { status: 400, message: /label/ } }],
    ["a property the body does not have", { given: () => ["POST", "/_mock/sandboxes", { data: "file.json" }], want: { status: 400, message: /data/ } }],
  ];
  test.each(cases)("%s", async (_name, { given, want }) => {
    const [method, path, body] = given();
    const answer = await control(method, path, body);
    expect(answer.status, answer.body?.message).toBe(want.status);
    expect(answer.body.message).toMatch(want.message);
  });

  test(`past ${mockLimits.maxSandboxes} sandboxes a new one is a 409 saying so; deleting one makes room`, async () => {
    const ids: string[] = [];
    for (let i = 0; i < mockLimits.maxSandboxes; i++) ids.push((await control("POST", "/_mock/sandboxes")).body.data.id);
    const refused = await control("POST", "/_mock/sandboxes");
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(`Conflict: the mock holds ${mockLimits.maxSandboxes} sandboxes, its limit (maxSandboxes); delete one with DELETE /_mock/sandboxes/{id} first.`);
    await control("DELETE", `/_mock/sandboxes/${ids[0]}`);
    expect((await control("POST", "/_mock/sandboxes")).status).toBe(201);
    await deleteAll();
  });
});

describe("startMock's createSandbox", () => {
  test("creates, resets and deletes through the control API's operations, with the keys by demo key name", async () => {
    const sandbox = await mock.createSandbox({ label: "in-process" });
    expect(sandbox.key.org1Full).toMatch(/^sbx_.+_org1_full$/);
    const listed = (await control("GET", "/_mock/sandboxes")).body.data;
    expect(listed.map((s: { id: string; label: string }) => [s.id, s.label])).toEqual([[sandbox.id, "in-process"]]);
    const waiting = mock.ids[0].waitingLeaveRequestId;
    await control("POST", "/_mock/webhooks/events", { type: "leave.approved", id: waiting }, sandbox.key.org1WebhooksAdmin);
    await sandbox.reset();
    expect((await rawCall(mock.url, sandbox.key.org1Full, "GET", `/v1/leaverequest/details/${waiting}`)).body.data.leaveStatus).toBe("Submitted");
    await sandbox.delete();
    await expect(sandbox.delete()).rejects.toThrow(SandboxError);
    await expect(sandbox.delete()).rejects.toMatchObject({ status: 404, message: expect.stringMatching(/no sandbox with id/) });
  });
});
