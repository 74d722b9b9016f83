// hr-mock proxy on the command line: each mistake one line and exit status 2 (in process), --help
// without loading Prism, and one real run as CI would make it: started in the background, traffic
// through it, SIGTERM, the report, JUnit and recording written, exit status 1 for the violation seen.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";
import { createDataset } from "../../mock/data/dataset.js";
import { parseDataFile } from "../../mock/data/read-data-file.js";
import { run } from "../../mock/cli/main.js";
import { repoRoot } from "../../scripts/lib/spec-document.js";
import { hrMockArgs } from "../support/hr-mock.js";
import { importGraph } from "../support/import-graph.js";
import { tempDir } from "../support/temp-dirs.js";

const shared = inject("mock");

async function cli(argv: string[]): Promise<{ status: number; stderr: string; stdout: string }> {
  let stderr = "";
  let stdout = "";
  const status = await run(argv, (text) => void (stderr += text), { write: (text: string) => (stdout += text) });
  return { status, stderr, stdout };
}

describe("hr-mock proxy's mistakes", () => {
  const cases: [string, { given: string[]; want: RegExp }][] = [
    ["no upstream", { given: [], want: /^hr-mock proxy: --upstream is required: / }],
    ["an upstream that is not HTTP", { given: ["--upstream", "ftp://files.example.com/"], want: /^hr-mock proxy: --upstream must be an http:\/\/ or https:\/\/ URL: the proxy passes on HTTP only, got a ftp: URL/ }],
    ["an upstream with a password", { given: ["--upstream", "https://me:pw@hr.example.com"], want: /^hr-mock proxy: --upstream must not carry a user name or password/ }],
    ["a port out of range", { given: ["--upstream", "http://127.0.0.1:1", "--port", "70000"], want: /^hr-mock proxy: --port must be a whole number from 0 to 65535, got "70000"/ }],
    ["an unknown option", { given: ["--upstream", "http://127.0.0.1:1", "--verbose"], want: /^hr-mock proxy: unknown option --verbose/ }],
    ["a report path that cannot be written", { given: ["--upstream", "http://127.0.0.1:1", "--junit", "/proc/nope/junit.xml"], want: /^hr-mock proxy: --junit \/proc\/nope\/junit\.xml: cannot write there \(ENOENT\)/ }],
  ];
  it.each(cases)("%s: one line, exit status 2", async (_, { given, want }) => {
    const { status, stderr } = await cli(["proxy", ...given]);
    expect(status).toBe(2);
    expect(stderr.trim().split("\n"), "one line").toHaveLength(1);
    expect(stderr).toMatch(want);
    expect(stderr).toMatch(/\(see hr-mock proxy --help\)\n$/);
  });

  it("--help names every option, and what it loads leaves Prism out", async () => {
    const { status, stdout } = await cli(["proxy", "--help"]);
    expect(status).toBe(0);
    for (const flag of ["--upstream", "--port", "--host", "--report", "--junit", "--record", "--timeout", "--max-body"]) expect(stdout).toContain(flag);
    const loaded = ["mock/cli.ts", "mock/cli/commands/proxy.ts"].flatMap((entry) => Object.keys(importGraph(repoRoot, entry, { dynamic: false }).bare));
    expect(loaded.filter((name) => name.startsWith("@stoplight/")), "packages hr-mock proxy --help loads").toEqual([]);
  });
});

describe("a run as CI makes it", () => {
  it("checks the traffic, writes its files on SIGTERM and exits 1 for a violation", async () => {
    const dir = tempDir("hr-proxy-cli-");
    const files = { report: join(dir, "out/report.json"), junit: join(dir, "out/junit.xml"), record: join(dir, "out/recorded.json") };
    const child = spawn(process.execPath, [...(await hrMockArgs()), "proxy", "--upstream", shared.url, "--port", "0", "--report", files.report, "--junit", files.junit, "--record", files.record], { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no address within 60 s: ${stdout}${stderr}`)), 60_000);
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        stdout += chunk;
        const found = /^hr-mock proxy: (http:\/\/127\.0\.0\.1:\d+) -> /m.exec(stdout)?.[1];
        if (found) clearTimeout(timer), resolve(found);
      });
    });
    const auth = { authorization: "Bearer demo_org1_full" };
    const page = await (await fetch(`${url}/v1/leaverequest/list?PageSize=3`, { headers: auth })).json();
    expect((await fetch(`${url}/v1/leaverequest/details/${page.data.data[0].id}`, { headers: auth })).status).toBe(200);
    expect((await fetch(`${url}/v1/leaverequest/list?PageSize=101`, { headers: auth })).status).toBe(400);
    child.kill("SIGTERM");
    expect(await exited, stderr).toBe(1);

    expect(stdout).toMatch(/^VIOLATION listLeaveRequests request parameters \/query\/PageSize: Invalid parameter PageSize: .* \[GET \/v1\/leaverequest\/list\?PageSize=101 → 400\]$/m);
    expect(stdout).toMatch(/^RESULT: 1 contract violation\(s\), 1 distinct$/m);
    const report = JSON.parse(readFileSync(files.report, "utf8"));
    expect(report).toMatchObject({ exitCode: 1, exchanges: { total: 3, byOperation: { listLeaveRequests: { "200": 1, "400": 1 }, getLeaveRequest: { "200": 1 } } }, violations: { total: 1 } });
    expect(report.recording).toMatchObject({ file: files.record, records: { leaveRequests: 3 } });
    const junit = readFileSync(files.junit, "utf8");
    expect(junit).toMatch(/<testcase classname="proxy\.violations" name="listLeaveRequests request parameters \/query\/PageSize"[^>]*>\s*<failure /);
    expect(junit, "one failing testcase for the one distinct violation, the operations' testcases passing").toMatch(/^<testsuites [^>]*tests="3" failures="1" errors="0"/m);
    const recorded = createDataset({ data: parseDataFile(readFileSync(files.record, "utf8"), files.record) });
    expect(recorded.organizations[0].index.leaveRequestById.has(page.data.data[0].id), "the recording loads and holds the requests seen").toBe(true);
    expect(`${stdout}${stderr}${readFileSync(files.report, "utf8")}`).not.toContain("demo_org1_full");
  }, 90_000);
});
