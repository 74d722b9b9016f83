// The command line: options and the ids file parsed (tables), and the CLI run in-process through
// main() (the bin once as a process): bad usage is one line and exit 2, an unreachable URL one line
// and exit 1, the mock exit 0.
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMock, type RunningMock } from "../../mock/index.js";
import { main } from "../../src/contract/cli.js";
import { parseIdsFile } from "../../src/contract/ids-file.js";
import type { Clock } from "../../src/contract/network.js";
import { DEFAULT_JUNIT, FLAGS, parseArgs, USAGE, type ParsedArgs } from "../../src/contract/options.js";
import { repoRoot } from "../../scripts/lib/spec-document.js";
import { closedPort } from "./support.js";

describe("options", () => {
  const base = ["--base-url", "http://127.0.0.1:4010", "--api-key", "k"];
  const cases: [string, { given: { argv: string[]; env?: Record<string, string> }; want: Partial<ParsedArgs> | { error: RegExp } }][] = [
    ["the least: a base URL and a key", { given: { argv: base }, want: { kind: "run", options: { baseUrl: "http://127.0.0.1:4010", apiKey: "k", junitFile: DEFAULT_JUNIT, requestsPerSecond: 4, idsFile: undefined, maxRequests: undefined } } }],
    [
      "every option, = form too",
      {
        given: { argv: [...base, "--ids=ids.json", "--junit", "out.xml", "--max-requests", "50", "--rate", "2.5"] },
        want: { kind: "run", options: { baseUrl: "http://127.0.0.1:4010", apiKey: "k", idsFile: "ids.json", junitFile: "out.xml", maxRequests: 50, requestsPerSecond: 2.5 } },
      },
    ],
    ["the key from CONTRACT_API_KEY", { given: { argv: ["--base-url", "https://hr.example.com"], env: { CONTRACT_API_KEY: "envkey" } }, want: { kind: "run", options: expect.objectContaining({ apiKey: "envkey" }) } }],
    ["help wins", { given: { argv: ["--bogus", "--help"] }, want: { kind: "help" } }],
    ["no base URL", { given: { argv: ["--api-key", "k"] }, want: { error: /^--base-url is required \(see --help\)$/ } }],
    ["no key", { given: { argv: ["--base-url", "http://h.test"] }, want: { error: /^--api-key is required/ } }],
    ["a base URL that is no URL", { given: { argv: ["--base-url", "localhost:4010", "--api-key", "k"] }, want: { error: /--base-url must be http or https|is not a URL/ } }],
    ["an unknown option", { given: { argv: [...base, "--verbose"] }, want: { error: /^unknown option --verbose/ } }],
    ["a flag without its value", { given: { argv: ["--base-url", "--api-key", "k"] }, want: { error: /^--base-url needs a value/ } }],
    ["a negative budget", { given: { argv: [...base, "--max-requests", "-3"] }, want: { error: /--max-requests must be a whole number/ } }],
    ["a rate of zero", { given: { argv: [...base, "--rate", "0"] }, want: { error: /--rate must be a number above 0/ } }],
    ["an option twice", { given: { argv: [...base, "--api-key", "j"] }, want: { error: /--api-key is given twice/ } }],
  ];
  it.each(cases)("%s", (_, { given, want }) => {
    const parsed = parseArgs(given.argv, given.env ?? {});
    if ("error" in want) {
      expect(parsed.kind).toBe("error");
      expect((parsed as { message: string }).message).toMatch(want.error);
    } else expect(parsed).toEqual(want);
  });
});

describe("--help tells the truth", () => {
  const flags = [...new Set([...USAGE.matchAll(/(?<![\w-])--[a-z][a-z-]*/g)].map((m) => m[0]))].filter((f) => f !== "--help");
  it.each(flags)("%s, named in the usage, is an option the parser takes", (flag) => {
    const base = ["--base-url", "http://127.0.0.1:4010", "--api-key", "k"];
    const argv = flag === "--base-url" || flag === "--api-key" ? base : [...base, flag, flag === "--rate" || flag === "--max-requests" ? "2" : "x.json"];
    const parsed = parseArgs(argv, {});
    expect(parsed, `${flag} ${JSON.stringify(parsed)}`).toMatchObject({ kind: "run" });
  });

  it("names every option the parser takes", () => {
    expect([...flags].sort(), "options in the usage").toEqual([...FLAGS].sort());
  });
});

describe("ids file", () => {
  const uuid = "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d";
  it.each([
    ["own ids and another organisation's", JSON.stringify({ departmentId: uuid, otherOrganization: { leaveRequestId: uuid } }), { departmentId: uuid, otherOrganization: { leaveRequestId: uuid } }],
    ["an empty object", "{}", {}],
  ])("accepts %s", (_, text, want) => {
    expect(parseIdsFile(text)).toEqual(want);
  });

  it.each([
    ["not JSON", "{departmentId:", /^not JSON/],
    ["an array", "[]", /must be a JSON object/],
    ["a misspelt key", JSON.stringify({ departmentID: uuid }), /unknown key "departmentID"/],
    ["a value that is no uuid", JSON.stringify({ companyId: "acme" }), /companyId must be a uuid/],
    ["a misspelt key of the other organisation", JSON.stringify({ otherOrganization: { companyId: uuid } }), /unknown key "otherOrganization.companyId"/],
  ])("refuses %s", (_, text, want) => {
    expect(() => parseIdsFile(text)).toThrow(want);
  });
});

interface CliRun {
  code: number | null;
  stdout: string;
  /** stderr lines. */
  stderr: string[];
}

/** A clock that tells the real time and never waits: the --rate pacing and Retry-After backoff are arithmetic checked in http.test.ts. */
const noWaits: Clock = { now: () => Date.now(), sleep: async () => {} };

/** The CLI's main() in-process, with its own stdout and stderr, as the bin runs it (without CONTRACT_API_KEY), on a clock that never waits. */
async function runCli(args: string[]): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.CONTRACT_API_KEY;
  const code = await main(args, env, { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) }, clock: noWaits });
  return { code, stdout, stderr: stderr.split("\n").filter(Boolean) };
}

/**
 * `node --import tsx src/contract/cli.ts …` as a child process (the bin itself, once); async, so a
 * mock in this process keeps serving. Node itself rather than `npx tsx`: npm's start-up cost a
 * second of CPU more than the CLI.
 */
function runBin(args: string[]): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1" };
    delete env.CONTRACT_API_KEY;
    const child = spawn(process.execPath, ["--import", "tsx", "src/contract/cli.ts", ...args], { cwd: repoRoot, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr: stderr.split("\n").filter(Boolean) }));
  });
}

describe("the CLI (in-process through main(), and the bin once as a process)", () => {
  let mock: RunningMock;
  let dir: string;
  // The bin's one run starts first and runs beside the in-process cases; its test waits for it to exit.
  let badUsage: Promise<CliRun>;
  beforeAll(async () => {
    badUsage = runBin(["--api-key", "k"]);
    badUsage.catch(() => {}); // awaited (and so reported) by its test
    mock = await startMock({ port: 0 });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "contract-cli-"));
  });
  afterAll(async () => {
    await mock?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("bad usage, from the bin itself: one line naming the problem, exit 2", async () => {
    const result = await badUsage;
    expect(result.code).toBe(2);
    expect(result.stderr).toEqual(["hr-contract: --base-url is required (see --help)"]);
    expect(result.stdout).toBe("");
  });

  it("an ids file that cannot be read: one line, exit 2", async () => {
    const result = await runCli(["--base-url", mock.url, "--api-key", "k", "--ids", path.join(dir, "missing.json")]);
    expect(result.code).toBe(2);
    expect(result.stderr).toEqual([`hr-contract: --ids ${path.join(dir, "missing.json")}: cannot read it (ENOENT)`]);
  });

  it.each([
    ["under a file", () => path.join(dir, "a-file", "junit.xml"), "ENOTDIR"],
    // Node 20's fs.mkdirSync("/proc/nope", { recursive: true }) spins for ever: this once hung at 100 % CPU.
    ["under /proc", () => "/proc/nope/x.xml", "ENOENT"],
  ])("a --junit file that cannot be written (%s): one line before any request, exit 2", async (_name, fileOf, code) => {
    fs.writeFileSync(path.join(dir, "a-file"), "");
    const file = fileOf();
    let requests = 0;
    const counting = http.createServer((_req, res) => (requests++, res.end()));
    await new Promise<void>((resolve) => counting.listen(0, "127.0.0.1", resolve));
    try {
      const result = await runCli(["--base-url", `http://127.0.0.1:${(counting.address() as AddressInfo).port}`, "--api-key", "demo_org1_full", "--junit", file]);
      expect(result.code, "exit status").toBe(2);
      expect(result.stderr, "stderr").toEqual([`hr-contract: --junit ${file}: cannot write there (${code})`]);
      expect(result.stdout, "no report: nothing was run").toBe("");
      expect(requests, "requests sent").toBe(0);
    } finally {
      await new Promise((resolve) => counting.close(resolve));
    }
  });

  /** The one testcase of a JUnit file written for a run that checked nothing. */
  const nothingChecked = (file: string) => {
    const text = fs.readFileSync(file, "utf8");
    expect(XMLValidator.validate(text), "well-formed").toBe(true);
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" }).parse(text);
    expect(parsed.testsuites.errors, "one error").toBe("1");
    return parsed.testsuites.testsuite.testcase;
  };

  it("an ids file that cannot be read: the JUnit file names it too", async () => {
    const junit = path.join(dir, "ids-missing.xml");
    const result = await runCli(["--base-url", mock.url, "--api-key", "k", "--ids", path.join(dir, "missing.json"), "--junit", junit]);
    expect(result.code).toBe(2);
    expect(nothingChecked(junit).error.message).toBe(`--ids ${path.join(dir, "missing.json")}: cannot read it (ENOENT)`);
  });

  it("a base URL whose every discovery request answers 404: 'wrong base URL?', not the key, exit 1, and the JUnit file says so", async () => {
    const junit = path.join(dir, "wrong-base.xml");
    const result = await runCli(["--base-url", `${mock.url}/api`, "--api-key", "demo_org1_full", "--junit", junit]);
    expect(result.code, "exit status").toBe(1);
    expect(result.stderr, "stderr").toEqual([expect.stringMatching(/^hr-contract: every discovery request answered 404 at http:\/\/127\.0\.0\.1:\d+\/api \(\/v1\/leaverequest\/list → 404; .*\): wrong base URL\? /)]);
    expect(result.stderr[0], "the key is not blamed").not.toMatch(/key/);
    expect(nothingChecked(junit).error.message).toMatch(/wrong base URL\?/);
  });

  it("a key that reads nothing: one line naming the answers, exit 1, no report on stdout, the cause in the JUnit file", async () => {
    const junit = path.join(dir, "nothing.xml");
    const result = await runCli(["--base-url", mock.url, "--api-key", "demo_org1_no_permissions", "--junit", junit]);
    expect(result.code, "exit status").toBe(1);
    expect(result.stderr, "stderr").toEqual([expect.stringMatching(/^hr-contract: the API key read nothing at http:\/\/127\.0\.0\.1:\d+, so nothing could be checked \(\/v1\/leaverequest\/list → 403 /)]);
    expect(result.stdout, "no report").toBe("");
    expect(nothingChecked(junit).error.message).toBe(result.stderr[0].replace(/^hr-contract: /, ""));
  });

  /** The CLI against a server of this test answering every request with `answer`. */
  async function against(answer: http.RequestListener, args: string[] = []) {
    const server = http.createServer(answer);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      return await runCli(["--base-url", `http://127.0.0.1:${(server.address() as AddressInfo).port}`, "--api-key", "demo_org1_full", "--junit", path.join(dir, "against.xml"), "--rate", "50", ...args]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }

  it("a base URL that is a web page: the violations, then one hint naming the cause", async () => {
    const result = await against((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><div id=app></div>"));
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/\nHINT: (\d+) of \1 answers were not JSON \(text\/html\): --base-url probably points at a web page, such as a frontend or the docs, not at the API; .*\nRESULT: \d+ contract violation\(s\)\n$/);
    expect(result.stdout.match(/HINT/g), "said once").toHaveLength(1);
  }, 60_000);

  it("a base URL of another JSON API: one hint, the envelope missing", async () => {
    const result = await against((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end('{"items":[]}'));
    expect(result.stdout).toMatch(/\nHINT: (\d+) of \1 answers were JSON without the service's envelope \(no boolean isSuccessful\): --base-url probably points at another API\n/);
  }, 60_000);

  it.each([
    ["server errors", 500, /^hr-contract: the first requests at .* were answered with server errors \(\/v1\/leaverequest\/list → 500.*\), so nothing could be checked; the key was not refused/],
    ["the rate limit", 429, /^hr-contract: the first requests at .* were rate limited \(.*→ 429.*\), so nothing could be checked; the key was not refused/],
  ])("first answers that are all %s: the line names that cause, not the key", async (_name, status, want) => {
    const body = JSON.stringify({ isSuccessful: false, code: String(status), message: "no", data: null });
    const result = await against((_req, res) => res.writeHead(status, { "content-type": "application/json", "retry-after": "0" }).end(body), ["--max-requests", "40"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toEqual([expect.stringMatching(want)]);
  }, 60_000);

  it("--help prints the usage and exits 0", async () => {
    const result = await runCli(["--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: hr-contract --base-url URL --api-key KEY/);
  });

  it("an unreachable base URL: one line naming the URL and the error, exit 1, and a JUnit file naming it", async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const junit = path.join(dir, "unreachable.xml");
    const result = await runCli(["--base-url", url, "--api-key", "k", "--junit", junit]);
    expect(result.code).toBe(1);
    expect(result.stderr).toEqual([`hr-contract: cannot reach ${url}: ECONNREFUSED`]);
    expect(nothingChecked(junit)).toMatchObject({ name: "the contract suite ran", error: { message: `cannot reach ${url}: ECONNREFUSED` } });
  });

  it("against the mock with a full-access demo key and an ids file: the report, the JUnit XML, exit 0", async () => {
    const junit = path.join(dir, "junit.xml");
    const ids = path.join(dir, "ids.json");
    const other = mock.ids[1];
    fs.writeFileSync(ids, JSON.stringify({ otherOrganization: { leaveRequestId: other.leaveRequestId, departmentId: other.departmentId } }));
    const result = await runCli(["--base-url", mock.url, "--api-key", "demo_org1_full", "--ids", ids, "--junit", junit, "--rate", "50"]);
    expect(result.code, result.stdout.slice(0, 2000)).toBe(0);
    expect(result.stdout).toContain("VIOLATIONS (0)");
    expect(result.stdout, "another organisation's ids from --ids were tried").toMatch(/^ {2}HELD +\/components\/responses\/NotFound /m);
    expect(result.stdout).toMatch(/^TOTALS: \d+ passed, 0 violations/m);
    expect(result.stdout, "the key is never printed").not.toContain("demo_org1_full");
    const xml = fs.readFileSync(junit, "utf8");
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).toMatch(/<testsuites [^>]*failures="0"/);
  }, 120_000);
});
