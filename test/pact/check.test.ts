// checkPact and hr-contract pact: planted bad interactions, each in Pact V2, V3 and V4 form, are
// found with the reason; swagger-mock-validator's errors on them are a subset of what checkPact
// finds (it cannot know the semantic ones); pacts written the way Pact's guides show pass.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkPact, runContractCli } from "../../src/contract/index.js";
import { repoRoot } from "../../scripts/lib/spec-document.js";
import { swaggerMockValidator } from "./support.js";
import { tempDir } from "../support/temp-dirs.js";
import { exampleIds } from "../../generated/facts.js";

/** One interaction in a version-neutral form, written out as V2, V3 or V4 below. */
interface Planted {
  method?: string;
  path: string;
  query?: Record<string, string>;
  key?: string | false;
  state?: { name: string; params?: Record<string, unknown> };
  status: number;
  body?: unknown;
  contentType?: string;
}

const LEAVE_REQUEST = exampleIds.leaveRequest;
const FOREIGN_REQUEST = "9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a";
const EMPLOYEE = exampleIds.employee;
const ok = (data: unknown) => ({ isSuccessful: true, code: "00", message: "Success", data });
const page = (items: unknown[]) => ok({ data: items, pageNumber: 1, pageSize: 25, totalRecords: items.length, totalPages: 1 });
const leaveOnly = { name: 'the key "org 1, leave only" is sent', params: { key: "org 1, leave only", permissions: ["Leave: View"] } };

const planted: [string, { given: Planted; want: string[] }][] = [
  ["an unknown path", { given: { path: "/v1/leaverequests", status: 200, body: page([]) }, want: ["request.path-or-method.unknown"] }],
  ["an unknown method", { given: { method: "POST", path: "/v1/leaverequest/list", status: 200, body: page([]) }, want: ["request.path-or-method.unknown"] }],
  ["a query parameter the operation does not take", { given: { path: "/v1/leaverequest/list", query: { Status: "Approved" }, status: 200, body: page([]) }, want: ["request.query.unknown"] }],
  ["a query value the operation does not take", { given: { path: "/v1/leaverequest/list", query: { LeaveStatus: "Done" }, status: 200, body: page([]) }, want: ["request.query.incompatible"] }],
  ["a required parameter missing", { given: { path: "/v1/leavebalance/get-leave-balance", query: { EmployeeId: EMPLOYEE }, status: 200, body: ok({ totalDays: 20 }) }, want: ["request.query.missing"] }],
  ["a path id that is no id", { given: { path: "/v1/department/finance", status: 200, body: ok({ name: "Finance" }) }, want: ["request.path.incompatible"] }],
  ["a success without a key", { given: { path: "/v1/leavetype/list", key: false, status: 200, body: page([]) }, want: ["request.authorization.missing"] }],
  ["a status the operation never answers", { given: { path: "/v1/leavetype/list", status: 201, body: page([]) }, want: ["response.status.unknown"] }],
  ["a body field of the wrong type", { given: { path: "/v1/leavetype/list", status: 200, body: ok({ data: [], totalRecords: "many" }) }, want: ["response.body.incompatible"] }],
  ["an enum value the schema does not have", { given: { path: `/v1/leaverequest/details/${LEAVE_REQUEST}`, status: 200, body: ok({ id: LEAVE_REQUEST, leaveStatus: "Cancelled" }) }, want: ["response.body.incompatible"] }],
  ["a body field the schema does not have", { given: { path: `/v1/leaverequest/details/${LEAVE_REQUEST}`, status: 200, body: ok({ id: LEAVE_REQUEST, colour: "green" }) }, want: ["response.body.unknown"] }],
  ["a content type other than JSON", { given: { path: "/v1/leavetype/list", status: 200, contentType: "text/html", body: undefined }, want: ["response.content-type.incompatible"] }],
  // V2 has no state params: the key's permissions come from --keys there.
  ["a 200 of a key without the permission", { given: { path: "/v1/employee/list", key: "leave-only-key", state: leaveOnly, status: 200, body: page([]) }, want: ["semantic.permission"] }],
  ["a record of another organisation found", { given: { path: `/v1/leaverequest/details/${FOREIGN_REQUEST}`, status: 200, body: ok({ id: FOREIGN_REQUEST }) }, want: ["semantic.other-organisation"] }],
  ["a page size over the largest", { given: { path: "/v1/leaverequest/list", query: { PageSize: "500" }, status: 200, body: page([]) }, want: ["semantic.page-size"] }],
];

/** Pacts written the way Pact's guides show: a provider state, a key, only the fields the consumer reads, type matchers. */
const guideStyle: [string, Planted][] = [
  ["the approved leave of a page", { path: "/v1/leaverequest/list", query: { LeaveStatus: "approved", PageSize: "10" }, state: { name: "organisation 1 has approved leave requests" }, status: 200, body: ok({ data: [{ id: LEAVE_REQUEST, leaveStatus: "Approved", startDate: "2026-12-21T00:00:00" }], totalRecords: 1 }) }],
  ["a leave request's details", { path: `/v1/leaverequest/details/${LEAVE_REQUEST}`, state: { name: "leave request exists", params: { id: LEAVE_REQUEST } }, status: 200, body: ok({ id: LEAVE_REQUEST, employeeName: "Amara Okafor" }) }],
  ["a leave request that is not there", { path: "/v1/leaverequest/details/00000000-0000-4000-8000-000000000000", status: 404, body: { isSuccessful: false, message: "Not found" } }],
  ["a balance", { path: "/v1/leavebalance/get-leave-balance", query: { EmployeeId: EMPLOYEE, LeaveTypeId: LEAVE_REQUEST }, status: 200, body: ok({ daysRemaining: 12 }) }],
  ["a page size refused", { path: "/v1/leaverequest/list", query: { PageSize: "500" }, status: 400, body: { isSuccessful: false } }],
  ["no key", { path: "/v1/department/list", key: false, status: 401 }],
  ["the employee list of a key that may not", { path: "/v1/employee/list", state: leaveOnly, status: 403 }],
];

type Version = 2 | 3 | 4;

function pactOf(version: Version, interactions: [string, Planted][]): string {
  const written = interactions.map(([description, i]) => {
    const headers: Record<string, string> = i.key === false ? {} : { Authorization: `Bearer ${i.key ?? "a-consumer-test-key"}` };
    const responseHeaders = { "Content-Type": i.contentType ?? "application/json" };
    const arrays = (h: Record<string, string>) => Object.fromEntries(Object.entries(h).map(([k, v]) => [k, [v]]));
    const request: Record<string, unknown> = { method: i.method ?? "GET", path: i.path };
    const response: Record<string, unknown> = { status: i.status };
    if (version === 2) {
      if (i.query) request.query = new URLSearchParams(i.query).toString();
      request.headers = headers;
      response.headers = responseHeaders;
      if (i.body !== undefined) response.body = i.body;
      response.matchingRules = { "$.body.data": { match: "type" } };
      return { description, ...(i.state && { providerState: i.state.name }), request, response };
    }
    if (i.query) request.query = Object.fromEntries(Object.entries(i.query).map(([k, v]) => [k, [v]]));
    request.headers = version === 4 ? arrays(headers) : headers;
    response.headers = version === 4 ? arrays(responseHeaders) : responseHeaders;
    if (i.body !== undefined) response.body = version === 4 ? { content: i.body, contentType: "application/json", encoded: false } : i.body;
    response.matchingRules = { body: { "$.data": { matchers: [{ match: "type" }] } } };
    return { ...(version === 4 && { type: "Synchronous/HTTP" }), description, ...(i.state && { providerStates: [i.state] }), request, response };
  });
  const spec = { 2: "2.0.0", 3: "3.0.0", 4: "4.0" }[version];
  return JSON.stringify({ consumer: { name: "leave-screens" }, provider: { name: "HR Service API" }, interactions: written, metadata: { pactSpecification: { version: spec } } });
}

const ids = { otherOrganization: { leaveRequestId: FOREIGN_REQUEST } };
const keys = [{ key: "leave-only-key", permissions: ["Leave: View"] }];
const codesByInteraction = (text: string, withKeys = true) => {
  const report = checkPact([{ name: "p.json", text }], { ids, ...(withKeys && { keys }) });
  const out: Record<string, string[]> = {};
  for (const f of report.findings) (out[f.interaction] ??= []).push(f.code);
  return out;
};

describe.each([2, 3, 4] as Version[])("checkPact on a Pact V%s file", (version) => {
  const found = codesByInteraction(pactOf(version, planted.map(([name, { given }]) => [name, given])));
  it.each(planted)("finds %s", (name, { want }) => {
    expect(found[name] ?? [], name).toEqual(want);
  });

  if (version > 2) {
    it("reads a key's permissions from the provider state's params, without --keys", () => {
      const [name, { given, want }] = planted.find(([, p]) => p.want[0] === "semantic.permission")!;
      expect(codesByInteraction(pactOf(version, [[name, { ...given, key: "another-key" }]]), false)[name]).toEqual(want);
    });
  }

  it("finds nothing in pacts written the way Pact's guides show", () => {
    expect(codesByInteraction(pactOf(version, guideStyle))).toEqual({});
  });
});

describe("checkPact on a contract whose parameters are written where they are used", () => {
  // The bundled document names every parameter from components; a contract may also write one inline
  // in its operation, or once for the path. Each is held to its own schema, wherever it is written.
  const bundled = JSON.parse(fs.readFileSync(path.join(repoRoot, "generated", "openapi.json"), "utf8"));
  const resolved = (node: { $ref?: string }) => (node.$ref ? node.$ref.slice(2).split("/").reduce((at: any, key) => at[key], bundled) : node);
  const written = (where: "operation" | "path item") => {
    const doc = structuredClone(bundled);
    for (const item of Object.values(doc.paths) as Array<Record<string, { parameters?: Array<{ $ref?: string }> }>>) {
      const get = item.get;
      if (!get?.parameters) continue;
      const inline = get.parameters.map(resolved);
      if (where === "operation") get.parameters = inline;
      else {
        (item as Record<string, unknown>).parameters = inline;
        delete get.parameters;
      }
    }
    const file = path.join(tempDir("pact-inline-"), "openapi.json");
    fs.writeFileSync(file, JSON.stringify(doc));
    return file;
  };
  const parameterFindings = planted.filter(([, { want }]) => want.some((code) => code.startsWith("request.query") || code.startsWith("request.path.") || code === "semantic.page-size"));

  it.each(["operation", "path item"] as const)("finds each parameter's fault when the parameters are written in the %s", (where) => {
    const report = checkPact([{ name: "p.json", text: pactOf(4, parameterFindings.map(([name, { given }]) => [name, given])) }], { ids, keys, openapiPath: written(where) });
    const found: Record<string, string[]> = {};
    for (const f of report.findings) (found[f.interaction] ??= []).push(f.code);
    expect(found, `findings with the parameters written in the ${where}`).toEqual(Object.fromEntries(parameterFindings.map(([name, { want }]) => [name, want])));
  });
});

describe("against swagger-mock-validator", () => {
  it("finds every interaction it finds an error in, and the semantic ones it cannot know", async () => {
    const text = pactOf(3, planted.map(([name, { given }]) => [name, given]));
    const smv = await swaggerMockValidator(JSON.parse(text));
    const flaggedBySmv = new Set(smv.errors.map((e) => e.mockDetails?.interactionDescription));
    const flagged = new Set(Object.keys(codesByInteraction(text)));
    expect(flaggedBySmv.size, "swagger-mock-validator found errors").toBeGreaterThan(5);
    expect([...flaggedBySmv].filter((d) => !flagged.has(d!)), "interactions swagger-mock-validator flags and checkPact does not").toEqual([]);
    // A page size over the largest breaks the parameter's maximum too; a key's permission and another organisation's record only this contract knows.
    const ownRules = planted.filter(([, { want }]) => want.includes("semantic.permission") || want.includes("semantic.other-organisation")).map(([name]) => name);
    expect(ownRules.filter((name) => flaggedBySmv.has(name)), "findings only this contract can make").toEqual([]);
  });

  it("finds no error in the guide-style pacts either", async () => {
    const smv = await swaggerMockValidator(JSON.parse(pactOf(3, guideStyle.filter(([name]) => name !== "the approved leave of a page"))));
    expect(smv.errors).toEqual([]);
  });
});

describe("hr-contract pact", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pact-check-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string) => (fs.writeFileSync(path.join(dir, name), text), path.join(dir, name));

  it("prints the suite's report, writes JUnit and JSON, and exits 1 on findings (one real process)", async () => {
    const bad = file("bad.json", pactOf(4, planted.slice(0, 3).map(([name, { given }]) => [name, given])));
    const good = file("good.json", pactOf(2, guideStyle));
    const [junit, json] = [path.join(dir, "out", "junit.xml"), path.join(dir, "out", "findings.json")];
    const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, ["--import", "tsx", "src/contract/cli.ts", "pact", bad, good, "--junit", junit, "--json", json], { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] });
      let [stdout, stderr] = ["", ""];
      child.stdout.on("data", (d) => (stdout += d));
      child.stderr.on("data", (d) => (stderr += d));
      child.on("error", reject);
      child.on("close", (code) => resolve({ code, stdout, stderr }));
    });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/^Pact check of 2 file\(s\) against the contract: 10 interaction\(s\)/);
    expect(run.stdout).toContain("VIOLATIONS (3)");
    expect(run.stdout).toContain(`[pact] ${bad} · an unknown path — [request.path-or-method.unknown]`);
    expect(run.stdout.trim().split("\n").at(-1)).toBe("RESULT: 3 contract violation(s)");
    expect(JSON.parse(fs.readFileSync(json, "utf8")).findings.map((f: { code: string }) => f.code)).toEqual(["request.path-or-method.unknown", "request.path-or-method.unknown", "request.query.unknown"]);
    expect(fs.readFileSync(junit, "utf8")).toMatch(/<testsuite name="contract.pact" tests="10" failures="3"/);
  }, 60_000);

  const io = () => {
    const out = { stdout: "", stderr: "" };
    return { out, io: { stdout: { write: (t: string) => (out.stdout += t) }, stderr: { write: (t: string) => (out.stderr += t) } } };
  };
  it.each([
    ["no file", [], 2, /name at least one Pact file/],
    ["a file that is not there", ["nope.json"], 2, /nope\.json: cannot read it \(ENOENT\)/],
    ["an unknown option", ["--bogus", "x.json"], 2, /Unknown option '--bogus'/],
    ["a keys file with a misspelt permission", [file("ok.json", pactOf(4, guideStyle.slice(0, 1))), "--keys", file("keys-typo.json", '[{ "key": "k", "permissions": ["Leave: Veiw"] }]')], 2, /--keys .*keys-typo\.json: entry 1: unknown permission "Leave: Veiw" \(known: .*Leave: View/],
    ["a keys file with a field of neither form", [file("ok.json", pactOf(4, guideStyle.slice(0, 1))), "--keys", file("keys-field.json", '[{ "key": "k", "permissions": [], "scopes": [] }]')], 2, /--keys .*keys-field\.json: entry 1: unknown field "scopes"/],
  ])("%s is one line and exit %s", async (_, argv, code, line) => {
    const { out, io: streams } = io();
    expect(await runContractCli(["pact", ...argv], {}, streams)).toBe(code);
    expect(out.stderr.trim().split("\n")).toHaveLength(1);
    expect(out.stderr).toMatch(line);
  });

  it("a file that is no pact is a finding of its own, exit 1", async () => {
    const { out, io: streams } = io();
    const junit = path.join(dir, "j.xml");
    expect(await runContractCli(["pact", file("not.json", '{"hello":1}'), "--junit", junit], {}, streams)).toBe(1);
    expect(out.stdout).toContain("[pact.unreadable] not a Pact file: no interactions list");
  });

  it("--help names every option", async () => {
    const { out, io: streams } = io();
    expect(await runContractCli(["pact", "--help"], {}, streams)).toBe(0);
    for (const flag of ["--junit", "--json", "--keys", "--ids"]) expect(out.stdout).toContain(flag);
  });
});
