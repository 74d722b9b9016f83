// hr-mock export --pact, GET /_mock/requests?format=pact and pact(): the journal of what a frontend
// sent, as the Pact V4 file a broker takes. One mock of seed 1; the pact's rules are held to the
// bundled schemas they are read from, and Pact's own validator and checkPact take the file.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMock, type PactFile, type RunningMock } from "../../mock/index.js";
import { exportCommand } from "../../mock/cli/commands/export.js";
import { DEMO_KEY, DEMO_KEYS } from "../../mock/keys/demo-keys.js";
import { checkPact } from "../../src/contract/index.js";
import { PUBLISHED_OPENAPI, swaggerMockValidator } from "./support.js";

const doc = JSON.parse(fs.readFileSync(PUBLISHED_OPENAPI, "utf8"));
let mock: RunningMock;
let pact: PactFile;
let exportedByCli: string;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pact-export-"));

const get = (key: string | undefined, url: string) => fetch(`${mock.url}${url}`, { headers: key ? { Authorization: `Bearer ${key}` } : {} }).then((r) => r.status);

beforeAll(async () => {
  mock = await startMock({ port: 0, seed: 1 });
  const [org1, org2] = [mock.ids[0], mock.ids[1]];
  // What a leave screen sends; the list twice, to be one interaction.
  const sent: [string | undefined, string, number][] = [
    [DEMO_KEY.org1Full, "/v1/leaverequest/list?PageSize=5", 200],
    [DEMO_KEY.org1Full, "/v1/leaverequest/list?PageSize=10", 200],
    [DEMO_KEY.org1Full, "/v1/leaverequest/list?LeaveStatus=approved&PageNumber=2", 200],
    [DEMO_KEY.org1Full, `/v1/leaverequest/details/${org1.leaveRequestId}`, 200],
    [DEMO_KEY.org1Full, `/v1/leaverequest/details/${org2.leaveRequestId}`, 404],
    [DEMO_KEY.org1LeaveView, `/v1/leavebalance/get-leave-balance?EmployeeId=${org1.balance.employeeId}&LeaveTypeId=${org1.balance.leaveTypeId}`, 200],
    [DEMO_KEY.org1LeaveView, "/v1/leavetype/list?IsActive=true", 200],
    [DEMO_KEY.org1LeaveView, "/v1/employee/list", 403],
    [DEMO_KEY.org1Full, `/v1/department/list?Companies=${org1.companyId}`, 200],
    [DEMO_KEY.org1Full, `/v1/department/${org1.departmentId}`, 200],
    [DEMO_KEY.org1Full, "/v1/employee/list?PageSize=101", 400],
    [undefined, "/v1/leavetype/list", 401],
  ];
  for (const [key, url, status] of sent) expect(await get(key, url), url).toBe(status);
  pact = await mock.pact({ consumer: "leave-screens" });
  // In a folder that does not exist yet, as the Pact guide's `--out pacts/…` in a fresh clone.
  const out = path.join(dir, "pacts", "leave-screens.json");
  await exportCommand(["--pact", "--consumer", "leave-screens", "--mock-url", mock.url, "--out", out]);
  exportedByCli = fs.readFileSync(out, "utf8");
});

afterAll(async () => {
  await mock?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const interaction = (operationId: string, status: number) => pact.interactions.find((i: any) => String(i.description).startsWith(`${operationId}:`) && i.response.status === status) as any;

describe("the exported pact", () => {
  it("is a Pact V4 file between the consumer and the API, the same through pact(), the control API and hr-mock export --pact", async () => {
    expect(pact).toMatchObject({ consumer: { name: "leave-screens" }, provider: { name: doc.info.title }, metadata: { pactSpecification: { version: "4.0" } } });
    const control = await fetch(`${mock.url}/_mock/requests?format=pact&consumer=leave-screens`, { headers: { Authorization: `Bearer ${DEMO_KEY.org1WebhooksAdmin}` } }).then((r) => r.json());
    expect(control.data, "the control API's pact").toEqual(pact);
    expect(JSON.parse(exportedByCli), "hr-mock export --pact's file").toEqual(pact);
  });

  it("of a sandbox the mock does not have is the mock's 404, in one line", async () => {
    await expect(exportCommand(["--pact", "--consumer", "x", "--sandbox", "nope", "--mock-url", mock.url])).rejects.toThrow(/the mock answered 404: Not found: no sandbox with id nope/);
  });

  it("has one interaction per operation, caller, query names and status: the list asked twice with PageSize is one", () => {
    expect(pact.interactions).toHaveLength(11);
    expect(new Set(pact.interactions.map((i: any) => i.description)).size).toBe(11);
  });

  it("never writes a key: Authorization is a regex of its form, its value comes from the provider state", () => {
    for (const { key } of DEMO_KEYS) expect(exportedByCli, `the key of "${key.slice(0, 9)}…"`).not.toContain(key);
    const details = interaction("getLeaveRequest", 200);
    expect(details.request.matchingRules.header.Authorization.matchers[0]).toMatchObject({ match: "regex" });
    expect(details.request.generators.header.Authorization).toEqual({ type: "ProviderState", expression: "Bearer ${apiKey}", dataType: "STRING" });
    expect(interaction("listLeaveTypes", 401).request.headers, "the request sent without a key").toBeUndefined();
  });

  it("takes the ids of the caller's own records from the provider state, and keeps another organisation's as sent", () => {
    const found = interaction("getLeaveRequest", 200);
    expect(found.request.generators.path.expression).toBe("/v1/leaverequest/details/${leaveRequestId}");
    expect(found.providerStates[0]).toMatchObject({ name: 'organisation 1 has a leave request, and its key "org 1, leave and employee management" is sent', params: { key: "org 1, leave and employee management", organisation: 1 } });
    const balance = interaction("getLeaveBalance", 200);
    expect(balance.request.generators.query).toEqual({ EmployeeId: expect.objectContaining({ expression: "${employeeId}" }), LeaveTypeId: expect.objectContaining({ expression: "${leaveTypeId}" }) });
    expect(interaction("getLeaveRequest", 404).request.generators.path, "another organisation's id is no id of the caller's").toBeUndefined();
    expect(interaction("getLeaveRequest", 404).request.path).toBe(`/v1/leaverequest/details/${mock.ids[1].leaveRequestId}`);
  });

  // The rules a pact holds an answer to, each read from the schema here too (never a field list).
  const schemas = doc.components.schemas;
  const enumRegex = (values: unknown[]) => `^(${values.join("|")})$`;
  const rulesCases: [string, { given: [string, number, string]; want: Record<string, unknown>[] }][] = [
    ["a date as DateText's pattern", { given: ["getLeaveRequest", 200, "$.data.startDate"], want: [{ match: "regex", regex: schemas.DateText.pattern }] }],
    ["a status name as its enum", { given: ["getLeaveRequest", 200, "$.data.leaveStatus"], want: [{ match: "regex", regex: enumRegex(schemas.LeaveStatusName.enum) }] }],
    ["a status number as an integer of its enum", { given: ["getLeaveRequest", 200, "$.data.leaveStatusId"], want: [{ match: "integer" }, { match: "regex", regex: enumRegex(schemas.LeaveStatusId.enum) }] }],
    ["a list's page as a list of any length", { given: ["listLeaveRequests", 200, "$.data.data"], want: [{ match: "type", min: 0 }] }],
    ["an item's id as a uuid", { given: ["listLeaveRequests", 200, "$.data.data[*].id"], want: [{ match: "regex", regex: schemas.Uuid.pattern }] }],
    ["a count as an integer", { given: ["listLeaveRequests", 200, "$.data.totalRecords"], want: [{ match: "integer" }] }],
    ["the success flag as itself", { given: ["listLeaveRequests", 200, "$.isSuccessful"], want: [{ match: "equality" }] }],
    ["a failure's message by type", { given: ["listEmployees", 403, "$.message"], want: [{ match: "type" }] }],
  ];
  it.each(rulesCases)("matches %s", (_, { given: [operationId, status, at], want }) => {
    const rules = interaction(operationId, status).response.matchingRules.body;
    expect(rules[at]?.matchers, `${operationId} ${status} ${at}`).toEqual(want);
  });

  it("gives every value of every body a rule, so the pact holds on any seed", () => {
    const missing: string[] = [];
    const visit = (value: unknown, at: string, rules: Record<string, unknown>, where: string) => {
      if (Array.isArray(value)) {
        if (!rules[at]) missing.push(`${where} ${at}`);
        value.forEach((item) => visit(item, `${at}[*]`, rules, where));
      } else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) visit(v, `${at}.${k}`, rules, where);
      else if (!rules[at]) missing.push(`${where} ${at}`);
    };
    for (const i of pact.interactions as any[]) visit(i.response.body.content, "$", i.response.matchingRules.body, i.description);
    expect(missing).toEqual([]);
  });

  it("is what swagger-mock-validator finds no error in, read from the published openapi.json", async () => {
    const result = await swaggerMockValidator(pact);
    expect(result.errors).toEqual([]);
    expect(result.success).toBe(true);
  });

  it("is what checkPact finds nothing wrong in", () => {
    const report = checkPact([{ name: "leave-screens.json", text: exportedByCli }]);
    expect(report.findings).toEqual([]);
    expect(report.interactions).toBe(11);
  });
});

describe("hr-mock export --pact's mistakes", () => {
  it.each([
    ["no consumer", ["--pact"], /--pact needs --consumer/],
    ["a dataset flag", ["--pact", "--consumer", "x", "--seed", "2"], /--pact exports a running mock's journal; --seed applies only without it/],
    ["--consumer without --pact", ["--consumer", "x"], /--consumer applies only with --pact/],
  ])("%s is one line", async (_, argv, want) => {
    await expect(exportCommand(argv)).rejects.toThrow(want);
  });

});
