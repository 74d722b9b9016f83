// Pact's own Verifier (@pact-foundation/pact, in process) replays a pact the MSW handlers' journal
// made (seed 1) against a running mock of another seed and another --today, given only the base
// URL, the pact and the state change URL: the keys and ids come from POST /_mock/pact/provider-states,
// and the answers meet the schema's matching rules, not the recorded values.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Verifier } from "@pact-foundation/pact";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHandlers, DEMO_KEY } from "../../mock/msw/index.js";
import { startMock, type PactFile, type RunningMock } from "../../mock/index.js";

const BASE = "http://hr.pact.test";
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pact-verify-"));
const pactFile = path.join(dir, "leave-screens.json");
let pact: PactFile;
let provider: RunningMock;

async function get(key: string | undefined, url: string): Promise<any> {
  const response = await fetch(`${BASE}${url}`, { headers: key ? { Authorization: `Bearer ${key}` } : {} });
  return response.json();
}

beforeAll(async () => {
  const handlers = createHandlers({ baseUrl: BASE, seed: 1, today: "2026-11-23" });
  const server = setupServer(...handlers);
  server.listen({ onUnhandledRequest: "error" });
  try {
    // A leave screen: the list, a request's details, its employee's balance, the departments, and two refusals.
    const list = await get(DEMO_KEY.org1Full, "/v1/leaverequest/list?PageSize=5&LeaveStatus=Approved");
    const first = list.data.data[0];
    await get(DEMO_KEY.org1Full, `/v1/leaverequest/details/${first.id}`);
    const types = await get(DEMO_KEY.org1LeaveView, "/v1/leavetype/list");
    await get(DEMO_KEY.org1LeaveView, `/v1/leavebalance/get-leave-balance?EmployeeId=${first.employeeId}&LeaveTypeId=${types.data.data[0].id}`);
    const departments = await get(DEMO_KEY.org1Full, "/v1/department/list");
    await get(DEMO_KEY.org1Full, `/v1/department/${departments.data.data[0].id}`);
    await get(DEMO_KEY.org1LeaveView, "/v1/employee/list");
    await get(undefined, "/v1/department/list");
    pact = await handlers.pact({ consumer: "leave-screens" });
  } finally {
    server.close();
  }
  fs.writeFileSync(pactFile, JSON.stringify(pact));
  provider = await startMock({ port: 0, seed: 7, today: "2027-03-15" });
});

afterAll(async () => {
  await provider?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("Pact's Verifier against a mock of another seed and --today", () => {
  it("passes every interaction of the MSW handlers' pact, with keys and ids from the provider states", async () => {
    expect(pact.interactions.map((i: any) => `${i.request.method} ${i.response.status}`)).toHaveLength(8);
    const output = await new Verifier({
      providerBaseUrl: provider.url,
      pactUrls: [pactFile],
      providerStatesSetupUrl: `${provider.url}/_mock/pact/provider-states`,
      logLevel: "error",
    }).verifyProvider();
    const result = JSON.parse(String(output));
    const failed = result.interactionResults.filter((r: { result: string }) => r.result !== "OK");
    expect(failed, "interactions that did not pass").toEqual([]);
    expect(result.interactionResults).toHaveLength(8);
    expect(result.result).toBe(true);
  }, 60_000);

  it("set them up in one sandbox, reset for each interaction", async () => {
    const sandboxes = await fetch(`${provider.url}/_mock/sandboxes`, { headers: { Authorization: `Bearer ${DEMO_KEY.org1WebhooksAdmin}` } }).then((r) => r.json());
    expect(sandboxes.data.map((s: { label: string }) => s.label)).toEqual(["pact provider states"]);
  });
});

describe("POST /_mock/pact/provider-states", () => {
  const post = (body: unknown) => fetch(`${provider.url}/_mock/pact/provider-states`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  it.each([
    ["a state naming a key: the sandbox's key and one id of each kind, at the body's top level", { given: { action: "setup", state: "s", params: { key: "org 1, leave only" } }, want: { status: 200, keys: ["apiKey", "companyId", "departmentId", "employeeId", "leaveRequestId", "leaveTypeId"] } }],
    ["a state without a key: no values", { given: { action: "setup", state: "no API key is sent" }, want: { status: 200, keys: [] } }],
    ["a teardown: no values", { given: { action: "teardown", state: "s", params: { key: "org 1, leave only" } }, want: { status: 200, keys: [] } }],
    ["a label no key has: the envelope naming the labels", { given: { action: "setup", state: "s", params: { key: "nobody" } }, want: { status: 400, keys: ["code", "data", "isSuccessful", "message"] } }],
    ["an action Pact has not", { given: { action: "rollback", state: "s" }, want: { status: 400, keys: ["code", "data", "isSuccessful", "message"] } }],
  ])("%s", async (_, { given, want }) => {
    const response = await post(given);
    const body = await response.json();
    expect({ status: response.status, keys: Object.keys(body).sort() }, JSON.stringify(body)).toEqual(want);
  });

  it("answers a key that reads the sandbox, never the default world", async () => {
    const { apiKey, leaveRequestId } = await (await post({ action: "setup", state: "s", params: { key: "org 1, leave only" } })).json();
    expect(apiKey).toMatch(/^sbx_/);
    const details = await fetch(`${provider.url}/v1/leaverequest/details/${leaveRequestId}`, { headers: { Authorization: `Bearer ${apiKey}` } });
    expect(details.status).toBe(200);
  });
});
