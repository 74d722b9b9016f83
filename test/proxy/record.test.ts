// Recording through hr-mock proxy (startProxy({ record: true }), hr-mock proxy --record): the records
// the answers carried become a data file that the mock loads (startMock({ data })), keeping every
// seen record's id and fields; where the data file's rules compute a derived value otherwise than
// the upstream answered, the recording says so, and nothing else differs. No key is written.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatDataFile } from "../../mock/data/format-data-file.js";
import { DEMO_KEY, startMock, startProxy, type Recording, type RunningMock, type RunningProxy } from "../../mock/index.js";
import { tempDir } from "../support/temp-dirs.js";

const TODAY = "2026-11-23";
let upstream: RunningMock;
let proxy: RunningProxy;
let recording: Recording;
let replay: RunningMock;
/** What the upstream answered through the proxy, by path. */
const answered = new Map<string, any>();

async function get(path: string, key: string = DEMO_KEY.org1Full): Promise<any> {
  const body = await (await fetch(proxy.url + path, { headers: { authorization: `Bearer ${key}` } })).json();
  answered.set(`${key} ${path}`, body);
  return body;
}

const again = async (path: string, key: string = DEMO_KEY.org1Full) => (await fetch(replay.url + path, { headers: { authorization: `Bearer ${key}` } })).json();

beforeAll(async () => {
  upstream = await startMock({ port: 0, seed: 4, today: TODAY, rateLimit: "off" });
  proxy = await startProxy({ upstream: upstream.url, port: 0, record: true, log: () => undefined });
  // A frontend's traffic: lists, some details, a balance, and a second organisation's key.
  const requests = await get("/v1/leaverequest/list?PageSize=12");
  for (const item of requests.data.data.slice(0, 4)) await get(`/v1/leaverequest/details/${item.id}`);
  for (const criteria of [0, 1, 2, 3, 4]) await get(`/v1/leavetype/list?EligibilityCriteria=${criteria}&PageSize=100`);
  const departments = await get("/v1/department/list?PageSize=100");
  for (const item of departments.data.data.slice(0, 3)) await get(`/v1/department/${item.id}`);
  await get("/v1/employee/list?Status=Active&PageSize=20");
  const first = requests.data.data[0];
  const types = [0, 1, 2, 3, 4].flatMap((k) => answered.get(`${DEMO_KEY.org1Full} /v1/leavetype/list?EligibilityCriteria=${k}&PageSize=100`).data.data);
  const type = types.find((t: any) => t.name === first.leaveTypeName);
  await get(`/v1/leavebalance/get-leave-balance?EmployeeId=${first.employeeId}&LeaveTypeId=${type.id}`);
  await get("/v1/leaverequest/list?PageSize=3", DEMO_KEY.org1LeaveView);
  await get("/v1/department/list?PageSize=2", DEMO_KEY.org2Full);
  await proxy.idle();
  recording = proxy.recording(TODAY)!;
  replay = await startMock({ port: 0, data: recording.file, rateLimit: "off" });
});
afterAll(() => Promise.all([proxy?.close(), upstream?.close(), replay?.close()]));

/** The fields of `recorded` that the replay answers otherwise, each as "field". */
function differing(recorded: any, replayed: any): string[] {
  return Object.keys(recorded).filter((field) => JSON.stringify(recorded[field]) !== JSON.stringify(replayed?.[field]));
}

/** The fields the recording's disagreements name for a record (its id in the line). */
const disagreed = (id: string) => recording.disagreements.filter((line) => line.includes(id)).map((line) => /: (\w+) recorded /.exec(line)![1]);

describe("a recording", () => {
  it("keeps every record seen, counted by kind, and dates the file the day it was made", () => {
    expect(recording.file.today).toBe(TODAY);
    expect(recording.records.leaveRequests, "twelve listed (the leave-only key's three among them)").toBe(12);
    expect(recording.records.departments).toBeGreaterThanOrEqual(3);
    expect(recording.records.leaveTypes).toBeGreaterThan(3);
    expect(recording.records.balances).toBe(1);
  });

  it("tells the organisations apart by key: the two org-1 keys saw common records, org 2's key did not", () => {
    expect(recording.file.organisations).toHaveLength(2);
    expect(recording.file.organisations![1].departments).toHaveLength(2);
    expect(recording.notes.join("\n")).toMatch(/fall in 2 groups that saw no record in common, recorded as 2 organisations/);
  });

  it("loads as the mock's data: leave requests answer with their ids and fields, derived values only where the recording says", async () => {
    const list = answered.get(`${DEMO_KEY.org1Full} /v1/leaverequest/list?PageSize=12`).data.data as any[];
    for (const item of list.slice(0, 4)) {
      const path = `/v1/leaverequest/details/${item.id}`;
      const recorded = answered.get(`${DEMO_KEY.org1Full} ${path}`).data;
      const replayed = (await again(path)).data;
      expect(replayed?.id, `${path} in the replay`).toBe(item.id);
      expect(differing(recorded, replayed), `fields of ${item.id} that differ, all told by the recording (${recording.disagreements.join(" | ")})`).toEqual(disagreed(item.id));
    }
  });

  it("keeps departments and leave types as they were answered, counts aside", async () => {
    const departments = answered.get(`${DEMO_KEY.org1Full} /v1/department/list?PageSize=100`).data.data as any[];
    for (const item of departments.slice(0, 3)) {
      const path = `/v1/department/${item.id}`;
      const recorded = answered.get(`${DEMO_KEY.org1Full} ${path}`).data;
      const replayed = (await again(path)).data;
      expect(differing(recorded, replayed), path).toEqual(disagreed(item.id));
      expect(differing(recorded, replayed).every((field) => field === "membersCount" || field === "unitsCount" || field === "leaders"), `only derived fields differ for ${path}`).toBe(true);
    }
    for (const criteria of [0, 1, 2, 3, 4]) {
      const path = `/v1/leavetype/list?EligibilityCriteria=${criteria}&PageSize=100`;
      const recorded = answered.get(`${DEMO_KEY.org1Full} ${path}`).data.data;
      expect((await again(path)).data.data, path).toEqual(recorded);
    }
  });

  it("reports the derived values the rules compute otherwise, such as member counts of partly seen departments", () => {
    expect(recording.disagreements.length).toBeGreaterThan(0);
    for (const line of recording.disagreements) expect(line).toMatch(/^(leave request|department|leave type|employee|balance of) .*: \w+ recorded .*, the data file's rules give /);
  });

  it("writes a file hr-mock serve --data loads (YAML), with no key in it", async () => {
    const dir = tempDir("hr-proxy-record-");
    const path = join(dir, "recorded.yaml");
    writeFileSync(path, formatDataFile(recording.file, "yaml"));
    const text = readFileSync(path, "utf8");
    for (const key of Object.values(DEMO_KEY)) expect(text).not.toContain(key);
    const served = await startMock({ port: 0, data: path });
    try {
      expect(served.dataset.organizations[0].leaveRequests.length).toBe(recording.records.leaveRequests);
    } finally {
      await served.close();
    }
  });
});
