// Coverage from the command line: hr-mock coverage prints the table, writes the JSON report and
// exits 1 below --min naming what was never exercised; hr-contract --coverage writes the same
// format for what its suite's requests covered. Both reports hold to the control document's
// CoverageReport schema, the format's one definition.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import controlDocument from "../../generated/control-openapi.json" with { type: "json" };
import { DEMO_KEY, startMock, type MockSandbox, type RunningMock } from "../../mock/index.js";
import { run } from "../../mock/cli/main.js";
import { main as contractMain } from "../../src/contract/cli.js";
import { createDocumentValidator } from "../../scripts/lib/spec-validator.js";
import { closedPort } from "../contract/support.js";

const schema = createDocumentValidator(structuredClone(controlDocument), "control");
const REPORT = "/components/schemas/CoverageReport";

let mock: RunningMock;
let sandbox: MockSandbox;
let dir: string;
beforeAll(async () => {
  mock = await startMock({ port: 0, rateLimit: "off", today: "2026-05-04" });
  sandbox = await mock.createSandbox({ label: "coverage-cli.test.ts" });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "coverage-cli-"));
  for (const p of ["/v1/leavetype/list?IsActive=true", "/v1/leavetype/list", "/v1/department/list"]) {
    await fetch(mock.url + p, { headers: { authorization: `Bearer ${sandbox.key.org1Full}` } }).then((r) => r.arrayBuffer());
  }
});
afterAll(async () => {
  await mock.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function hrMock(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await run(args, (t) => void (stderr += t), { write: (t: string) => (stdout += t) });
  return { code, stdout, stderr };
}

const target = () => ["--mock-url", mock.url, "--api-key", sandbox.key.org1WebhooksAdmin];

describe("hr-mock coverage", () => {
  test("prints a row per operation and per event type, and writes the report as JSON", async () => {
    const file = path.join(dir, "coverage.json");
    const result = await hrMock(["coverage", ...target(), "--json", file]);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.split("\n");
    expect(lines[0]).toBe(`API (hr-mock, ${sandbox.id}): 2 of 7 operations exercised (28.6%), 3 requests, 0 matching no operation`);
    expect(lines.find((l) => l.startsWith("listLeaveTypes "))).toMatch(/^listLeaveTypes \(GET \/v1\/leavetype\/list\) +2 +200 \/ 200 .* +1 of \d+: IsActive$/);
    expect(lines.find((l) => l.startsWith("getLeaveBalance "))).toMatch(/ 0 +- \/ 200 /);
    expect(result.stdout).toContain("Webhooks: 0 of 13 event types delivered (0%)");
    expect(result.stdout).toContain("Never exercised: listLeaveRequests, getLeaveRequest, getLeaveBalance, getDepartment, listEmployees");
    const report = JSON.parse(fs.readFileSync(file, "utf8"));
    expect(schema.validate(REPORT, report), "the JSON file is a CoverageReport").toEqual([]);
    expect({ tool: report.tool, scope: report.scope, exercised: report.api.exercised }).toEqual({ tool: "hr-mock", scope: sandbox.id, exercised: 2 });
  });

  const minimums: [string, { min: string; code: number; stderr: string | RegExp }][] = [
    ["at the percentage: met", { min: "28.6", code: 0, stderr: "" }],
    ["below it: exit 1, naming what was never exercised", { min: "50", code: 1, stderr: "hr-mock coverage: 28.6% of the read API's operations were exercised, below --min 50; never exercised: listLeaveRequests, getLeaveRequest, getLeaveBalance, getDepartment, listEmployees\n" }],
    ["no percentage: exit 2", { min: "half", code: 2, stderr: /^hr-mock coverage: --min must be a percentage from 0 to 100, got "half" \(see hr-mock coverage --help\)\n$/ }],
    ["past 100: exit 2", { min: "101", code: 2, stderr: /--min must be a percentage from 0 to 100/ }],
  ];
  test.each(minimums)("--min %s", async (_name, { min, code, stderr }) => {
    const result = await hrMock(["coverage", ...target(), "--min", min]);
    expect({ code: result.code }).toEqual({ code });
    if (typeof stderr === "string") expect(result.stderr).toBe(stderr);
    else expect(result.stderr).toMatch(stderr);
  });

  test("a mock that cannot be reached is one line and exit 1", async () => {
    const result = await hrMock(["coverage", "--mock-url", `http://127.0.0.1:${await closedPort()}`]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^hr-mock coverage: cannot reach the mock at http:\/\/127\.0\.0\.1:\d+ \(.*\); is hr-mock serve running there\?\n$/);
  });

  test("a key without Manage Webhooks is the mock's refusal, one line, exit 1", async () => {
    const result = await hrMock(["coverage", "--mock-url", mock.url, "--api-key", DEMO_KEY.org1Full]);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 1, stderr: "hr-mock coverage: the mock answered 403: Forbidden: this API key lacks the permission Manage Webhooks.\n" });
  });
});

describe("hr-contract --coverage", () => {
  test("writes what the suite's requests covered, in the mock's report format", async () => {
    const file = path.join(dir, "contract-coverage.json");
    let stderr = "";
    const code = await contractMain(["--base-url", mock.url, "--api-key", DEMO_KEY.org1Full, "--rate", "100", "--junit", path.join(dir, "junit.xml"), "--coverage", file], {}, { stdout: { write: () => true }, stderr: { write: (t: string) => (stderr += t) } });
    expect(code, stderr).toBe(0);
    const report = JSON.parse(fs.readFileSync(file, "utf8"));
    expect(schema.validate(REPORT, report), "hr-contract's file is a CoverageReport").toEqual([]);
    const mine = (await fetch(`${mock.url}/_mock/coverage`, { headers: { authorization: `Bearer ${DEMO_KEY.org1WebhooksAdmin}` } }).then((r) => r.json())).data;
    expect({ tool: report.tool, scope: report.scope, webhooks: report.webhooks }).toEqual({ tool: "hr-contract", scope: mock.url, webhooks: null });
    expect(report.api.operations.map((o: { operationId: string; statuses: { declared: string[] } }) => [o.operationId, o.statuses.declared]), "the same operations and declared statuses as the mock's report").toEqual(
      mine.api.operations.map((o: { operationId: string; statuses: { declared: string[] } }) => [o.operationId, o.statuses.declared]),
    );
    expect(report.api.exercised, "the suite probes every operation").toBe(report.api.total);
    // The demo world received exactly the suite's requests (its journal counted them as the suite did).
    expect(report.api.operations.map((o: { requests: number }) => o.requests)).toEqual(mine.api.operations.map((o: { requests: number }) => o.requests));
    expect(stderr).toMatch(/coverage written to .*contract-coverage\.json: 7 of 7 operations \(100%\)/);
  });

  test("a --coverage file that cannot be written is bad usage, told before any request", async () => {
    let stderr = "";
    const code = await contractMain(["--base-url", mock.url, "--api-key", DEMO_KEY.org1Full, "--junit", path.join(dir, "j.xml"), "--coverage", "/proc/nope/coverage.json"], {}, { stdout: { write: () => true }, stderr: { write: (t: string) => (stderr += t) } });
    expect({ code, stderr: stderr.trim() }).toEqual({ code: 2, stderr: expect.stringMatching(/^hr-contract: --coverage \/proc\/nope\/coverage\.json: cannot write there/) });
  });

  test("a run that checked nothing leaves no coverage file", async () => {
    const file = path.join(dir, "unreachable.json");
    const code = await contractMain(["--base-url", `http://127.0.0.1:${await closedPort()}`, "--api-key", "k", "--junit", path.join(dir, "u.xml"), "--coverage", file], {}, { stdout: { write: () => true }, stderr: { write: () => true } });
    expect({ code, exists: fs.existsSync(file) }).toEqual({ code: 1, exists: false });
  });
});
