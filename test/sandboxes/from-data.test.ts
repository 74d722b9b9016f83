// A sandbox made from a data file in its create request: its keys read that dataset, the demo keys
// and other sandboxes keep theirs, a reset goes back to the file's records, a bad file is a 400
// naming the problem, and a --state directory makes it again after a restart.
import { readFileSync } from "node:fs";
import { afterAll, describe, expect, test } from "vitest";
import { parse } from "yaml";
import { DEMO_KEY, SandboxError, startMock, type RunningMock } from "../../mock/index.js";
import { newStateDir } from "../state/support.js";

const FILE = parse(readFileSync(new URL("../../examples/data/small-team.yaml", import.meta.url), "utf8"));
const ENGINEERING = "0d5c3f6e-1a2b-4c3d-8e4f-5a6b7c8d9e10";
const START = { port: 0, today: "2026-11-23", scale: 0.1, rateLimit: "off" as const, authThrottle: "off" as const };
const open: RunningMock[] = [];
afterAll(async () => {
  for (const mock of open) await mock.close();
});

async function get(mock: RunningMock, key: string, path: string): Promise<{ status: number; data: any }> {
  const response = await fetch(`${mock.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: response.status, data: ((await response.json()) as { data: unknown }).data };
}

describe("a sandbox from a data file", async () => {
  const state = newStateDir();
  const mock = await startMock({ ...START, state });
  open.push(mock);
  const sandbox = await mock.createSandbox({ label: "small team", data: FILE });
  const plain = await mock.createSandbox({ label: "plain" });
  const department = (key: string) => get(mock, key, `/v1/department/${ENGINEERING}`);

  test.each([
    ["the sandbox's keys read the file's department", { key: () => sandbox.key.org1Full, want: 200 }],
    ["the demo keys do not have it", { key: () => DEMO_KEY.org1Full, want: 404 }],
    ["a sandbox of the start dataset does not have it", { key: () => plain.key.org1Full, want: 404 }],
  ])("%s", async (_name, { key, want }) => {
    expect((await department(key())).status).toBe(want);
  });

  test("a trigger changes the sandbox; a reset brings back the file's records", async () => {
    const before = (await get(mock, sandbox.key.org1Full, "/v1/employee/list?PageSize=1")).data.totalRecords;
    const made = await fetch(`${mock.url}/_mock/webhooks/events`, {
      method: "POST",
      headers: { authorization: `Bearer ${sandbox.key.org1WebhooksAdmin}`, "content-type": "application/json" },
      body: JSON.stringify({ type: "employee.created" }),
    });
    expect(made.status).toBe(202);
    expect((await get(mock, sandbox.key.org1Full, "/v1/employee/list?PageSize=1")).data.totalRecords).toBe(before + 1);
    await sandbox.reset();
    expect((await get(mock, sandbox.key.org1Full, "/v1/employee/list?PageSize=1")).data.totalRecords, "back to the file's employees").toBe(before);
    expect((await department(sandbox.key.org1Full)).status).toBe(200);
  });

  test("a data file with a problem is a 400 naming it, and makes no sandbox", async () => {
    const bad = structuredClone(FILE);
    bad.organisations[0].employees[0].departmentId = "00000000-0000-4000-8000-000000000000";
    const count = (await get(mock, DEMO_KEY.org1WebhooksAdmin, "/_mock/sandboxes")).data.length;
    const refused = await mock.createSandbox({ data: bad }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(SandboxError);
    expect((refused as SandboxError).status).toBe(400);
    expect((refused as SandboxError).message).toMatch(/00000000-0000-4000-8000-000000000000 is not a department of this organisation/);
    expect((await get(mock, DEMO_KEY.org1WebhooksAdmin, "/_mock/sandboxes")).data.length, "no sandbox was made").toBe(count);
  });

  test("a restart with the same --state makes it again from its data file", async () => {
    await mock.close();
    open.splice(open.indexOf(mock), 1);
    const again = await startMock({ ...START, state });
    open.push(again);
    expect((await get(again, sandbox.key.org1Full, `/v1/department/${ENGINEERING}`)).status).toBe(200);
    expect((await get(again, plain.key.org1Full, `/v1/department/${ENGINEERING}`)).status).toBe(404);
  });
});
