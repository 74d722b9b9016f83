// hr-mock diff (npm run diff) in-process: where it loads contracts from, its exit codes, its
// one-line errors, and acknowledgements of deliberate breaks.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createTarGzip } from "nanotar";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { main, type CliIo } from "../../mock/diff/cli.js";

const root = path.resolve(import.meta.dirname, "../..");
const bundle = (name: string) => fs.readFileSync(path.join(root, "generated", name), "utf8");

let tmp: string;
/** A folder holding the real bundles with one field of a read-API response removed: a breaking change. */
let broken: string;
const BROKEN_ID = "OpenAPI GET /v1/leavetype/list · response 200 (application/json): field `data.data[].name` removed";

function withRemovedField(): string {
  const openapi = JSON.parse(bundle("openapi.json"));
  const leaveType = openapi.components.schemas.LeaveType;
  delete leaveType.properties.name;
  leaveType.required = leaveType.required.filter((field: string) => field !== "name");
  return JSON.stringify(openapi);
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "contract-diff-"));
  broken = path.join(tmp, "broken");
  fs.mkdirSync(path.join(broken, "generated"), { recursive: true });
  fs.writeFileSync(path.join(broken, "generated", "openapi.json"), withRemovedField());
  fs.writeFileSync(path.join(broken, "generated", "asyncapi.json"), bundle("asyncapi.json"));
  fs.mkdirSync(path.join(tmp, "same"));
  for (const name of ["openapi.json", "asyncapi.json"]) fs.writeFileSync(path.join(tmp, "same", name), bundle(name));
  // As npm pack lays the package out.
  const tarball = await createTarGzip(
    ["openapi.json", "asyncapi.json"].map((name) => ({ name: `package/dist/generated/${name}`, data: bundle(name) })),
  );
  fs.writeFileSync(path.join(tmp, "hr-service-contract-0.1.0.tgz"), tarball);
  fs.writeFileSync(path.join(tmp, "not-a-tarball.tgz"), "plain text");
  fs.writeFileSync(path.join(tmp, "ack.json"), JSON.stringify({ acknowledged: [{ change: BROKEN_ID, reason: "names are in the details now" }] }));
  fs.writeFileSync(path.join(tmp, "bad-ack.json"), JSON.stringify({ acknowledged: [{ change: BROKEN_ID }] }));
});

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

async function run(argv: string[], { cwd = root, env = {} as NodeJS.ProcessEnv } = {}) {
  let stdout = "";
  let stderr = "";
  const io: CliIo = { cwd, env, stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

const at = (name: string) => path.join(tmp, name);

describe.each([
  ["--help", { argv: () => ["--help"], code: 0, stdout: "Exit codes: 0 no breaking change" }],
  ["a folder with the same contract", { argv: () => [at("same")], code: 0, stdout: "0 breaking (0 acknowledged), 0 non-breaking, 0 info" }],
  ["a packed tarball", { argv: () => [at("hr-service-contract-0.1.0.tgz")], code: 0, stdout: "contract diff: tarball" }],
  ["a git ref against itself", { argv: () => ["HEAD", "HEAD"], code: 0, stdout: "contract diff: git HEAD → git HEAD" }],
  ["a breaking change", { argv: () => [at("same"), broken], code: 1, stdout: `BREAKING      ${BROKEN_ID} — ` }],
  ["a breaking change the file acknowledges", { argv: () => [at("same"), broken, "--ack", at("ack.json")], code: 0, stdout: `Acknowledged:\n  ${BROKEN_ID} — names are in the details now` }],
  ["an acknowledgement naming no change", { argv: () => [at("same"), "--ack", at("ack.json")], code: 0, stdout: `Acknowledgements that name no change of this diff:\n  ${BROKEN_ID}` }],
  ["JSON output", { argv: () => [at("same"), broken, "--format", "json"], code: 1, stdout: `"unacknowledged": [\n    "${BROKEN_ID.replace(/`/g, "`")}"` }],
])("%s", (name, { argv, code, stdout }) => {
  test(`exits ${code} and reports it`, async () => {
    const result = await run(argv());
    expect(result.stdout, `${name}: stdout`).toContain(stdout);
    expect(result.stderr, `${name}: stderr`).toBe("");
    expect(result.code, `${name}: exit code (stdout: ${result.stdout.slice(0, 400)})`).toBe(code);
  });
});

describe.each([
  ["three contracts", { argv: () => ["a", "b", "c"], error: "hr-mock diff: at most two contracts, <base> and <head>; got 3 (see hr-mock diff --help)" }],
  ["an unknown option", { argv: () => ["--colour"], error: "hr-mock diff: unknown option --colour (see hr-mock diff --help)" }],
  ["an unknown format", { argv: () => [at("same"), "--format", "xml"], error: "hr-mock diff: --format must be text or json, not xml (see hr-mock diff --help)" }],
  ["a ref that is nothing", { argv: () => ["no-such-ref-anywhere"], error: "hr-mock diff: git no-such-ref-anywhere: not a folder, a .tgz or a commit of the repository" }],
  ["a folder without bundles", { argv: () => [at("empty")], error: "no openapi.json and asyncapi.json in it" }],
  ["a file that is not a tarball", { argv: () => [at("not-a-tarball.tgz")], error: "not a readable .tgz" }],
  ["a missing acknowledgements file", { argv: () => [at("same"), "--ack", at("missing.json")], error: "hr-mock diff: --ack " }],
  ["an acknowledgement without a reason", { argv: () => [at("same"), "--ack", at("bad-ack.json")], error: 'entry 1 (OpenAPI GET /v1/leavetype/list' }],
])("%s", (name, { argv, error }) => {
  test("exits 2 with one line naming the cause", async () => {
    fs.mkdirSync(at("empty"), { recursive: true });
    const result = await run(argv());
    expect(result.code, `${name}: exit code`).toBe(2);
    expect(result.stderr, `${name}: stderr`).toContain(error);
    expect(result.stderr.trimEnd().split("\n"), `${name}: one line`).toHaveLength(1);
    expect(result.stdout, `${name}: nothing on stdout`).toBe("");
  });
});

test("without <base>, $CONTRACT_BASE names it, else the last recorded release", async () => {
  const fromEnv = await run([], { env: { CONTRACT_BASE: at("same") } });
  expect(fromEnv.stdout, "base from $CONTRACT_BASE").toContain(`contract diff: folder ${at("same")} → working tree`);
  const fromRecord = await run([]);
  expect(fromRecord.stdout, "base from contract-releases/").toMatch(/^contract diff: release \d+\.\d+\.\d+ → working tree/);
  const nowhere = await run([], { cwd: at("empty") });
  expect(nowhere.code, "no base anywhere: exit code").toBe(2);
  expect(nowhere.stderr, "no base anywhere").toContain("no <base> given, no $CONTRACT_BASE, and no release recorded in contract-releases/");
});
