// `hr-mock` as a user runs it: mistakes are one line and a non-zero exit, --help exits 0 and tells
// the truth, `serve` prints the banner, answers, and stops cleanly on SIGTERM.
import { spawn, spawnSync } from "node:child_process";
import { describe, expect, test } from "vitest";
import { run as runInProcess } from "../../mock/cli/main.js";
import { SERVE_HELP, parseServeArgs } from "../../mock/cli/commands/serve.js";
import { formatBanner } from "../../mock/cli/banner.js";
import { DEMO_KEYS } from "../../mock/keys/demo-keys.js";
import { repoRoot } from "../../scripts/lib/spec-document.js";
import { mockLimits } from "../../generated/control-facts.js";
import { hrMockArgs } from "../support/hr-mock.js";

/** The bin as a process (test/support/hr-mock.ts). */
async function run(args: string[]) {
  const result = spawnSync(process.execPath, [...(await hrMockArgs()), ...args], { cwd: repoRoot, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

// In-process, through the bin's own run(): the two child processes below show the bin itself.
async function inProcess(args: string[]) {
  let stderr = "";
  let stdout = "";
  const status = await runInProcess(args, (text) => void (stderr += text), { write: (text: string) => (stdout += text) });
  return { status, stderr, stdout };
}

describe("mistakes are one line on stderr and exit 2", () => {
  const cases: [string, { args: string[]; line: string }][] = [
    ["an unknown flag", { args: ["serve", "--bogus"], line: "hr-mock serve: unknown option --bogus (see hr-mock serve --help)" }],
    ["a misspelt flag", { args: ["serve", "--prot", "4010"], line: "hr-mock serve: unknown option --prot (see hr-mock serve --help)" }],
    ["a flag without its value", { args: ["serve", "--port"], line: "hr-mock serve: option --port needs a value (see hr-mock serve --help)" }],
    ["a port that is not a number", { args: ["--port", "abc"], line: 'hr-mock serve: --port must be a whole number from 0 to 65535, got "abc" (see hr-mock serve --help)' }],
    ["a bad rate limit", { args: ["serve", "--rate-limit", "lots"], line: 'hr-mock serve: --rate-limit must be a whole number of at least 1, or "off", got "lots" (see hr-mock serve --help)' }],
    ["a bad failure status", { args: ["serve", "--failure-status", "500"], line: 'hr-mock serve: --failure-status must be http or 200, got "500" (see hr-mock serve --help)' }],
    ["a fail rate above 1", { args: ["serve", "--fail-rate", "1.5"], line: 'hr-mock serve: --fail-rate must be a number from 0 to 1, got "1.5" (see hr-mock serve --help)' }],
    ["a negative value without =", { args: ["serve", "--seed", "-7"], line: 'hr-mock serve: option --seed needs a value; write --seed=-7 for a value that starts with "-" (see hr-mock serve --help)' }],
    ["a date that is not in the calendar", { args: ["serve", "--today", "2026-02-30"], line: 'hr-mock serve: --today must be a date YYYY-MM-DD from 1900-01-01 to 9000-12-31, got "2026-02-30" (see hr-mock serve --help)' }],
    ["a date the dataset cannot span", { args: ["serve", "--today", "9999-12-31"], line: 'hr-mock serve: --today must be a date YYYY-MM-DD from 1900-01-01 to 9000-12-31, got "9999-12-31" (see hr-mock serve --help)' }],
    ["a journal memory of 0 MB", { args: ["serve", "--journal-memory", "0"], line: `hr-mock serve: --journal-memory must be a whole number of megabytes from 1 to ${mockLimits.maxJournalMemoryMb}, got "0" (see hr-mock serve --help)` }],
    ["a journal memory with a unit", { args: ["serve", "--journal-memory", "64MB"], line: `hr-mock serve: --journal-memory must be a whole number of megabytes from 1 to ${mockLimits.maxJournalMemoryMb}, got "64MB" (see hr-mock serve --help)` }],
    ["a value for a switch", { args: ["serve", "--log=yes"], line: "hr-mock serve: option --log takes no value (see hr-mock serve --help)" }],
    ["an unknown command", { args: ["frobnicate"], line: "hr-mock: unknown command frobnicate (commands: serve, receive, trigger, resend, scenario, export, proxy, coverage, diff; see hr-mock --help)" }],
  ];

  test.each(cases)("%s", async (_name, { args, line }) => {
    const result = await inProcess(args);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(`${line}\n`);
  });

  test("a subcommand's mistake (trigger of an unknown type) is one line and exit 2 too", async () => {
    const result = await inProcess(["trigger", "leave.teleported"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^hr-mock trigger: unknown event type "leave\.teleported"; one of [a-z., _]+ \(see hr-mock trigger --help\)\n$/);
  });

  test("a keys file that does not exist is one line naming the flag, and exit 2", async () => {
    const result = await inProcess(["serve", "--port", "0", "--keys", "/nonexistent/keys.json"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe("hr-mock serve: cannot read --keys /nonexistent/keys.json: no such file\n");
  });

  test("the bin itself: a mistake is one line on stderr, nothing on stdout, exit 2", async () => {
    const result = await run(["serve", "--bogus"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe("hr-mock serve: unknown option --bogus (see hr-mock serve --help)\n");
    expect(result.stdout).toBe("");
  });
});

describe("serve flags become settings", () => {
  const cases: [string, { given: string[]; want: Record<string, unknown> }][] = [
    ["no flags: the defaults", { given: [], want: { port: 4010, host: "127.0.0.1", seed: 1, scale: 1, rateLimit: 300, failureStatus: "http", latencyMs: 0, failRate: 0, journalSize: mockLimits.journalPerWorld, journalMemoryMb: mockLimits.journalMemoryMb, keys: undefined, log: false } }],
    ["--journal-memory in megabytes", { given: ["--journal-memory", "16"], want: { journalMemoryMb: 16 } }],
    [
      "every flag",
      {
        given: ["--port", "0", "--host", "0.0.0.0", "--seed=-7", "--scale", "2.5", "--rate-limit", "off", "--failure-status", "200", "--latency", "150", "--fail-rate", "0.25", "--keys", "k.json", "--log"],
        want: { port: 0, host: "0.0.0.0", seed: -7, scale: 2.5, rateLimit: "off", failureStatus: 200, latencyMs: 150, failRate: 0.25, keys: "k.json", log: true },
      },
    ],
    ["--today pins the dataset's date", { given: ["--today", "2025-06-01"], want: { today: "2025-06-01" } }],
    ["--flag=value form", { given: ["--rate-limit=50", "--failure-status=http"], want: { rateLimit: 50, failureStatus: "http" } }],
  ];
  test.each(cases)("%s", (_name, { given, want }) => {
    expect(parseServeArgs(given)).toMatchObject(want);
  });

  test("--help wins", () => {
    expect(parseServeArgs(["--port", "1", "--help"])).toBe("help");
  });
});

describe("--help", () => {
  test("serve --help exits 0 and lists every flag serve accepts", async () => {
    const result = await inProcess(["serve", "--help"]);
    expect(result.status).toBe(0);
    for (const flag of ["--port", "--host", "--seed", "--scale", "--rate-limit", "--failure-status", "--latency", "--fail-rate", "--keys", "--today", "--journal-size", "--journal-memory", "--log", "--help"]) {
      expect(result.stdout, flag).toContain(flag);
    }
  });

  // Each bound --help states is the bound parseServeArgs applies.
  const bounds: [string, { says: string; accepted: string[]; refused: string[] }][] = [
    ["--scale", { says: "above 0 and at most 1000", accepted: ["--scale", "1000"], refused: ["--scale", "1000.5"] }],
    ["--fail-rate", { says: "(0 to 1)", accepted: ["--fail-rate", "1"], refused: ["--fail-rate", "1.01"] }],
    ["--port", { says: "0 for any free port", accepted: ["--port", "0"], refused: ["--port", "65536"] }],
    ["--rate-limit", { says: "<n|off>", accepted: ["--rate-limit", "off"], refused: ["--rate-limit", "0"] }],
    ["--failure-status", { says: "<http|200>", accepted: ["--failure-status", "200"], refused: ["--failure-status", "500"] }],
    ["--journal-size", { says: `from 0 (off) to ${mockLimits.maxJournalPerWorld}`, accepted: ["--journal-size", String(mockLimits.maxJournalPerWorld)], refused: ["--journal-size", String(mockLimits.maxJournalPerWorld + 1)] }],
    ["--drain", { says: "(0 to 600, default 5)", accepted: ["--drain", "600"], refused: ["--drain", "600.5"] }],
    ["--journal-memory", { says: `from 1 to ${mockLimits.maxJournalMemoryMb} MB (default ${mockLimits.journalMemoryMb})`, accepted: ["--journal-memory", String(mockLimits.maxJournalMemoryMb)], refused: ["--journal-memory", String(mockLimits.maxJournalMemoryMb + 1)] }],
  ];
  test.each(bounds)("serve --help states the bounds of %s that the parser applies", (flag, { says, accepted, refused }) => {
    const line = SERVE_HELP.split("\n").findIndex((l) => l.trimStart().startsWith(flag));
    const text = SERVE_HELP.split("\n").slice(line, line + 3).join(" ");
    expect(text, `--help on ${flag}`).toContain(says);
    expect(() => parseServeArgs(accepted), accepted.join(" ")).not.toThrow();
    expect(() => parseServeArgs(refused), refused.join(" ")).toThrow();
  });

  test("the banner reports the ready time it is given (the CLI gives the time since its process started)", async () => {
    const mock = { url: "http://127.0.0.1:1", docsUrl: "http://127.0.0.1:1/docs/", docsBuilt: true, startupMs: 250, keys: [{ key: "k", organisation: 1, organizationName: "Org", permissions: [], demo: true, label: "l", organizationId: "o" }] };
    const settings = { seed: 1, scale: 1, rateLimit: "off" as const, failureStatus: "http" as const, latencyMs: 0, failRate: 0, journalSize: 1000, journalMemoryMb: 64 };
    expect(formatBanner(mock as never, settings, 1234)).toMatch(/^hr-mock: HR service mock ready in 1\.23 s /);
    expect(formatBanner(mock as never, settings), "startMock's own time by default").toMatch(/ready in 0\.25 s /);
  });

  test("the banner points at the docs only where they are built, and says how to build them otherwise", () => {
    const mock = { url: "http://127.0.0.1:1", docsUrl: "http://127.0.0.1:1/docs/", startupMs: 250, keys: [{ key: "k", organisation: 1, organizationName: "Org", permissions: [], demo: true, label: "l", organizationId: "o" }] };
    const settings = { seed: 1, scale: 1, rateLimit: "off" as const, failureStatus: "http" as const, latencyMs: 0, failRate: 0, journalSize: 1000, journalMemoryMb: 64 };
    const docsLine = (docsBuilt: boolean) => formatBanner({ ...mock, docsBuilt } as never, settings).split("\n").find((line) => line.trimStart().startsWith("Docs"));
    expect(docsLine(true)).toBe("  Docs  http://127.0.0.1:1/docs/");
    expect(docsLine(false)).toBe("  Docs  not built here: npm run docs builds them, then http://127.0.0.1:1/docs/");
  });

  test("hr-mock --help lists the commands", async () => {
    const result = await inProcess(["--help"]);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/serve[\s\S]*receive[\s\S]*trigger/);
  });

  test("receive is dispatched to its own command", async () => {
    const result = await inProcess(["receive", "--help"]);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("hr-mock receive");
  });
});

// --drain 0: what a SIGTERM's drain does, and its default of 5 s, are drain.test.ts's and stop.test.ts's;
// here the stop itself, without 5 s of waiting on the drain's clock.
test("serve prints the banner with every demo key, answers, and stops on SIGTERM", async () => {
  const child = spawn(process.execPath, [...(await hrMockArgs()), "serve", "--port", "0", "--rate-limit", "off", "--drain", "0"], { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (chunk) => {
        stdout += chunk;
        if (stdout.includes("Ctrl-C stops.")) resolve();
      });
      child.on("exit", () => reject(new Error(`exited before the banner: ${stderr}`)));
    });
    const url = /API {3}(http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)?.[1];
    expect(url, stdout).toBeDefined();
    expect(stdout.split("\n").find((line) => line.trimStart().startsWith("Docs")), "the docs line names where the docs are served").toContain(`${url}/docs/`);
    for (const key of DEMO_KEYS) expect(stdout, key.key).toMatch(new RegExp(`${key.key} +org ${key.organisation} `));
    expect(stdout).toContain(`curl -H "Authorization: Bearer demo_org1_full" "${url}/v1/leaverequest/list?PageSize=2"`);
    const response = await fetch(`${url}/v1/leaverequest/list?PageSize=2`, { headers: { authorization: "Bearer demo_org1_full" } });
    expect(response.status).toBe(200);
  } finally {
    child.kill("SIGTERM");
  }
  expect(await exited).toBe(0);
  expect(stderr).toContain("hr-mock: stopped.");
});
