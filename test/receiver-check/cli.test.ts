// hr-contract receiver: its options (a table), a --help that names only options it takes, and the
// command in process through main(): the table on stdout with the time of every case, the JUnit and
// JSON files on every run past the options (the cause when nothing could be checked), and the exit
// status: 0 every rule kept, 1 one broken, 2 bad usage, an unwritable report or an unreachable URL.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/contract/cli.js";
import { DEFAULT_RECEIVER_JUNIT, parseReceiverArgs, RECEIVER_FLAGS, RECEIVER_USAGE, type ParsedReceiverArgs } from "../../src/contract/receiver/options.js";
import { makeFolders } from "../../src/contract/report-files.js";
import { createReceiver, listen, type ListeningReceiver } from "../../src/webhooks/node/index.js";
import { closedPort } from "../contract/support.js";
import { SECRET } from "./support.js";

describe("options", () => {
  const base = ["--url", "http://127.0.0.1:3000/hooks", "--secret", "whsec_x"];
  const cases: [string, { given: { argv: string[]; env?: Record<string, string> }; want: ParsedReceiverArgs | { error: RegExp } }][] = [
    ["the least: a URL and a secret", { given: { argv: base }, want: { kind: "run", options: { url: "http://127.0.0.1:3000/hooks", secret: "whsec_x", junitFile: DEFAULT_RECEIVER_JUNIT, jsonFile: undefined } } }],
    ["both reports, = form too", { given: { argv: [...base, "--junit=r.xml", "--json", "r.json"] }, want: { kind: "run", options: { url: "http://127.0.0.1:3000/hooks", secret: "whsec_x", junitFile: "r.xml", jsonFile: "r.json" } } }],
    ["the secret from HR_WEBHOOK_SECRET", { given: { argv: ["--url", "https://hooks.example.com/hr"], env: { HR_WEBHOOK_SECRET: "whsec_env" } }, want: { kind: "run", options: expect.objectContaining({ secret: "whsec_env" }) } }],
    ["help wins", { given: { argv: ["--bogus", "-h"] }, want: { kind: "help" } }],
    ["no URL", { given: { argv: ["--secret", "whsec_x"] }, want: { error: /^--url is required \(see hr-contract receiver --help\)$/ } }],
    ["a URL that is not http", { given: { argv: ["--url", "ftp://h/x", "--secret", "s"] }, want: { error: /--url must be http or https, got ftp/ } }],
    ["no secret", { given: { argv: ["--url", "http://h.test/x"] }, want: { error: /--secret is required \(or set HR_WEBHOOK_SECRET\)/ } }],
    ["a secret with a space", { given: { argv: ["--url", "http://h.test/x", "--secret", "whsec_a b"] }, want: { error: /--secret must not contain spaces/ } }],
    ["an option of the API suite", { given: { argv: [...base, "--api-key", "k"] }, want: { error: /unknown option --api-key/ } }],
    ["one file for both reports", { given: { argv: [...base, "--junit", "r", "--json", "r"] }, want: { error: /--json and --junit name the same file/ } }],
  ];
  it.each(cases)("%s", (_name, { given, want }) => {
    const parsed = parseReceiverArgs(given.argv, given.env ?? {});
    if ("error" in want) expect(parsed.kind === "error" && parsed.message).toMatch(want.error);
    else expect(parsed).toEqual(want);
  });

  it("--help names exactly the options the parser takes", () => {
    const named = new Set([...RECEIVER_USAGE.matchAll(/(?<![\w-])--[a-z][a-z-]*/g)].map((m) => m[0]).filter((f) => f !== "--help"));
    expect([...named].sort()).toEqual([...RECEIVER_FLAGS].sort());
  });
});

describe("makeFolders", () => {
  it("makes the missing folders of a path, and fails at once under a folder that cannot hold one (/proc)", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "folders-"));
    makeFolders(path.join(dir, "a/b/c"));
    expect(fs.statSync(path.join(dir, "a/b/c")).isDirectory()).toBe(true);
    // Node 20's fs.mkdirSync("/proc/nope", { recursive: true }) never returns.
    expect(() => makeFolders("/proc/nope/deeper")).toThrow(/ENOENT/);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

interface Run {
  code: number;
  stdout: string;
  stderr: string[];
}

async function receiverCli(args: string[]): Promise<Run> {
  let stdout = "";
  let stderr = "";
  const env = { ...process.env };
  delete env.HR_WEBHOOK_SECRET;
  const code = await main(["receiver", ...args], env, { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) } });
  return { code, stdout, stderr: stderr.split("\n").filter(Boolean) };
}

const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "", isArray: (name) => name === "testsuite" || name === "testcase" });

describe("hr-contract receiver (in process through main())", () => {
  let good: ListeningReceiver;
  let wrongSecret: ListeningReceiver;
  let dir: string;
  beforeAll(async () => {
    good = await listen(createReceiver({ secret: SECRET, onEvent() {} }), { port: 0 });
    wrongSecret = await listen(createReceiver({ secret: `${SECRET}_rotated`, onEvent() {} }), { port: 0 });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "receiver-cli-"));
  });
  afterAll(async () => {
    await good?.close();
    await wrongSecret?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("--help prints the usage, exit 0", async () => {
    const run = await receiverCli(["--help"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${RECEIVER_USAGE}\n`);
  });

  it("bad usage: one line, exit 2, no report", async () => {
    const junit = path.join(dir, "usage.xml");
    const run = await receiverCli(["--url", good.url, "--junit", junit]);
    expect(run).toEqual({ code: 2, stdout: "", stderr: ["hr-contract receiver: --secret is required (or set HR_WEBHOOK_SECRET) (see hr-contract receiver --help)"] });
    expect(fs.existsSync(junit)).toBe(false);
  });

  it("a receiver that keeps the rules: the table with every case's time, JUnit and JSON, exit 0", async () => {
    const junit = path.join(dir, "good.xml");
    const json = path.join(dir, "good.json");
    const run = await receiverCli(["--url", `${good.url}/hooks`, "--secret", SECRET, "--junit", junit, "--json", json]);
    expect(run.code, run.stdout).toBe(0);
    const rows = run.stdout.split("\n").filter((line) => /^(pass|FAIL|info) /.test(line));
    expect(rows, "one row per case").toHaveLength(26);
    for (const row of rows) expect(row, "status and time in every row").toMatch(/^(pass|info) +\d{3} +\d+ ms {2}\S/);
    expect(run.stdout).toMatch(/\nRESULT: the receiver follows the provider's rules in all 24 cases\n$/);
    expect(run.stdout, "no hint when nothing failed").not.toContain("HINT");
    expect(run.stderr).toEqual([`hr-contract receiver: JUnit XML written to ${junit}, JSON written to ${json}`]);
    const report = JSON.parse(fs.readFileSync(json, "utf8"));
    expect(report).toMatchObject({ ok: true, target: `${good.url}/hooks` });
    expect(report.cases).toHaveLength(26);
    const text = fs.readFileSync(junit, "utf8");
    expect(XMLValidator.validate(text)).toBe(true);
    const testcases = xml.parse(text).testsuites.testsuite[0].testcase;
    expect(testcases.map((t: any) => t.name)).toEqual(report.cases.map((c: any) => c.name));
    expect(testcases.filter((t: any) => t.failure)).toEqual([]);
    for (const file of [text, fs.readFileSync(json, "utf8"), run.stdout]) expect(file, "the secret is never written").not.toContain(SECRET);
  });

  it("a receiver that verifies with another secret: the valid deliveries fail, each naming the rule, exit 1", async () => {
    const junit = path.join(dir, "wrong.xml");
    const run = await receiverCli(["--url", wrongSecret.url, "--secret", SECRET, "--junit", junit]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^FAIL +400 +\d+ ms {2}valid leave\.approved delivery +answered 400 \(body: \{"error":"no_matching_signature"\}\); the provider's rule is a 2xx$/m);
    expect(run.stdout).toMatch(/\nHINT: 17 of 17 correctly signed deliveries were refused with 400, as a failed signature check is: the --secret given is probably not the receiver's signing secret \(the one it verifies with\)\nRESULT: 17 of 24 rule cases failed\n$/);
    expect(run.stdout.match(/HINT/g), "said once").toHaveLength(1);
    const testcase = xml.parse(fs.readFileSync(junit, "utf8")).testsuites.testsuite[0].testcase.find((t: any) => t.name === "valid webhook.test delivery");
    expect(testcase.failure.message).toMatch(/^answered 400 .*the provider's rule is a 2xx \(rule: a delivery is answered with a 2xx within 10 s;.*\(6\.5\.1, 6\.5\.2\)\)$/);
  });

  it("an unreachable URL: one line, exit 2, and both reports name the cause", async () => {
    const url = `http://127.0.0.1:${await closedPort()}/hooks`;
    const junit = path.join(dir, "unreachable.xml");
    const json = path.join(dir, "unreachable.json");
    const run = await receiverCli(["--url", url, "--secret", SECRET, "--junit", junit, "--json", json]);
    expect(run).toEqual({ code: 2, stdout: "", stderr: [`hr-contract receiver: cannot reach ${url}: ECONNREFUSED`] });
    const testcase = xml.parse(fs.readFileSync(junit, "utf8")).testsuites.testsuite[0].testcase[0];
    expect(testcase.error.message).toBe(`cannot reach ${url}: ECONNREFUSED`);
    expect(JSON.parse(fs.readFileSync(json, "utf8"))).toEqual({ ok: false, target: url, error: `cannot reach ${url}: ECONNREFUSED`, cases: [] });
  });

  it.each([
    ["--junit under /proc (Node's recursive mkdir would spin there for ever)", () => ["--junit", "/proc/nope/x.xml"], () => "--junit /proc/nope/x.xml: cannot write there (ENOENT)"],
    ["--json naming a folder", () => ["--junit", path.join(dir, "x.xml"), "--json", dir], () => `--json ${dir}: cannot write there (EISDIR)`],
  ])("a report that cannot be written, %s: one line before any delivery, exit 2", async (_name, flagsOf, lineOf) => {
    const [flags, line] = [flagsOf(), lineOf()];
    let delivered = 0;
    const counting = await listen((req, res) => (delivered++, res.end()), { port: 0 });
    try {
      const run = await receiverCli(["--url", counting.url, "--secret", SECRET, ...flags]);
      expect(run).toEqual({ code: 2, stdout: "", stderr: [`hr-contract receiver: ${line}`] });
      expect(delivered, "deliveries sent").toBe(0);
    } finally {
      await counting.close();
    }
  });
});
