// hr-mock export writes a data file that --data loads back to the same API answers, byte for byte:
// for a seeded dataset, one from a data file, and one changed by triggers (exported from the running
// mock through GET /_mock/data). Every read operation is asked: several pages, filters, details, balances.
import { afterAll, describe, expect, it } from "vitest";
import { exportCommand } from "../../mock/cli/commands/export.js";
import { DEMO_KEY, startMock, type RunningMock, type StartMockOptions } from "../../mock/index.js";

const TODAY = "2026-11-23";
const EXAMPLE = new URL("../../examples/data/small-team.yaml", import.meta.url).pathname;
const mocks: RunningMock[] = [];
afterAll(() => Promise.all(mocks.map((m) => m.close())));

async function start(options: StartMockOptions): Promise<RunningMock> {
  const mock = await startMock({ port: 0, rateLimit: "off", authThrottle: "off", ...options });
  mocks.push(mock);
  return mock;
}

/** hr-mock export's output, as JSON, parsed. */
async function exported(argv: string[]): Promise<unknown> {
  let text = "";
  await exportCommand([...argv, "--format", "json"], { stdout: { write: (t: string) => (text += t) } });
  return JSON.parse(text);
}

/** Read calls covering every read operation of both organisations, from the dataset's own records. */
function readPaths(mock: RunningMock): [key: string, path: string][] {
  const calls: [string, string][] = [];
  mock.dataset.organizations.forEach((org, i) => {
    const key = i === 0 ? DEMO_KEY.org1Full : DEMO_KEY.org2Full;
    const add = (path: string) => calls.push([key, path]);
    for (const page of [1, 2, 3]) {
      add(`/v1/leaverequest/list?PageSize=40&PageNumber=${page}`);
      add(`/v1/employee/list?PageSize=25&PageNumber=${page}`);
    }
    add("/v1/leaverequest/list?LeaveStatus=Approved&OrderBy=desc&PageSize=30");
    add(`/v1/leaverequest/list?StartDate=${TODAY.slice(0, 4)}-01-01&EndDate=${TODAY}&PageSize=30`);
    add("/v1/employee/list?Status=Terminated&PageSize=50");
    add("/v1/leavetype/list");
    add("/v1/leavetype/list?IsActive=true&EligibilityCriteria=0");
    add("/v1/department/list?PageSize=50");
    for (const c of org.companies) {
      add(`/v1/leaverequest/list?CompanyId=${c.id}&PageSize=20`);
      add(`/v1/department/list?Companies=${c.id}`);
      add(`/v1/leavetype/list?CompanyId=${c.id}`);
    }
    for (const d of org.departments) {
      add(`/v1/department/${d.id}`);
      add(`/v1/leaverequest/list?DepartmentId=${d.id}&PageSize=20`);
    }
    const someEmployee = org.employees[Math.floor(org.employees.length / 2)];
    add(`/v1/leaverequest/list?SearchTerm=${encodeURIComponent(someEmployee.lastName)}`);
    const requests = org.leaveRequests;
    for (const r of [...requests.slice(0, 8), ...requests.slice(-8)]) add(`/v1/leaverequest/details/${r.id}`);
    for (const e of org.employees.slice(0, 6)) for (const t of org.leaveTypes) add(`/v1/leavebalance/get-leave-balance?EmployeeId=${e.id}&LeaveTypeId=${t.id}`);
  });
  return calls;
}

async function answers(mock: RunningMock, calls: readonly [string, string][]): Promise<string[]> {
  const out: string[] = [];
  for (const [key, path] of calls) {
    const response = await fetch(mock.url + path, { headers: { authorization: `Bearer ${key}` } });
    out.push(`${path} -> ${response.status} ${await response.text()}`);
  }
  return out;
}

async function expectSameAnswers(source: RunningMock, copy: RunningMock): Promise<void> {
  const calls = readPaths(source);
  const [want, got] = [await answers(source, calls), await answers(copy, calls)];
  expect(want.filter((a) => a.includes(" -> 200 ")).length, "most calls should succeed, or the comparison says little").toBeGreaterThan(calls.length * 0.9);
  for (let i = 0; i < calls.length; i++) expect(got[i], `the loaded export answers ${calls[i][1]} differently`).toBe(want[i]);
}

describe("hr-mock export, then --data: the same answers byte for byte", () => {
  it("a seeded dataset, exported offline from the same flags", async () => {
    const source = await start({ seed: 5, today: TODAY });
    const file = await exported(["--seed", "5", "--today", TODAY]);
    const copy = await start({ seed: 77, data: file as never });
    await expectSameAnswers(source, copy);
  });

  it("a dataset from a data file", async () => {
    const source = await start({ seed: 2, data: EXAMPLE });
    const file = await exported(["--seed", "2", "--data", EXAMPLE]);
    const copy = await start({ data: file as never });
    await expectSameAnswers(source, copy);
  });

  it("a running mock's dataset after triggers, exported through GET /_mock/data", async () => {
    const source = await start({ seed: 9, today: TODAY });
    for (const type of ["leave.requested", "leave.approved", "leave.rejected", "leave.cancelled", "employee.created", "employee.terminated"]) {
      const result = await source.trigger(type);
      expect(result.event.type, `trigger ${type}`).toBe(type);
    }
    expect(source.dataset.version, "the triggers should have changed the data").toBeGreaterThan(0);
    const file = await exported(["--mock-url", source.url]);
    const copy = await start({ data: file as never });
    await expectSameAnswers(source, copy);
  });
});
