// The settings of `hr-mock serve` and `startMock` are one table (mock/app/settings.ts): a flag, its
// variable and the option take and refuse the same values with one sentence; a new setting is its row
// plus the code that uses its value. The command line's start-up errors are one line naming where the
// value came from, exit status 2 for a mistake or a file that cannot be read, a JSON line with
// --log-format json; a state address is a folder or a Redis address, never a guess. In process: run().
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { SETTINGS, settingValue, type Flag } from "../../mock/app/settings.js";
import { checkOptions } from "../../mock/app/start-options.js";
import { exportCommand } from "../../mock/cli/commands/export.js";
import { SERVE_HELP, parseServeArgs } from "../../mock/cli/commands/serve.js";
import { envName } from "../../mock/cli/flag-env.js";
import { run } from "../../mock/cli/main.js";
import { MockOptionError } from "../../mock/kernel/option-error.js";
import { settingsTable } from "../../scripts/docs/settings-table.js";
import { startRedis } from "../support/redis-server.js";

const tmp = mkdtempSync(join(tmpdir(), "hr-mock-settings-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

type Env = Record<string, string>;

/** run() as the bin runs it, with `env` and nothing on the command line but `argv`: exit status and standard error. */
async function serve(argv: string[], env: Env = {}): Promise<{ status: number; stderr: string }> {
  let stderr = "";
  const status = await run(["serve", ...argv], (text) => void (stderr += text), { write: () => true }, fetch, env);
  return { status, stderr };
}

function refusal(make: () => unknown): string {
  try {
    make();
  } catch (error) {
    return (error as Error).message;
  }
  return "accepted";
}

describe("one rule for a flag, its variable and startMock's option", () => {
  // [flag, text given on the command line or in the variable, the same value given to startMock]
  const cases: [string, { flag: Flag; text: string; value: unknown }][] = [
    ["a rate limit past the ceiling (1e9, the command line's, now startMock's too)", { flag: "rate-limit", text: "2000000000", value: 2_000_000_000 }],
    ["a rate limit of 0", { flag: "rate-limit", text: "0", value: 0 }],
    ["a port above 65535", { flag: "port", text: "70000", value: 70000 }],
    ["a scale of 0", { flag: "scale", text: "0", value: 0 }],
    ["a journal past its bound", { flag: "journal-size", text: "100001", value: 100001 }],
    ["journals' memory of 0 MB", { flag: "journal-memory", text: "0", value: 0 }],
    ["a latency past ten minutes", { flag: "latency", text: "600001", value: 600001 }],
    ["a fail rate above 1", { flag: "fail-rate", text: "1.5", value: 1.5 }],
    ["failures as 500", { flag: "failure-status", text: "500", value: 500 }],
    ["a log format of xml", { flag: "log-format", text: "xml", value: "xml" }],
    ["a today that is no date", { flag: "today", text: "2026-02-30", value: "2026-02-30" }],
    ["a state address of another scheme", { flag: "state", text: "valkey://cache:6379", value: "valkey://cache:6379" }],
  ];
  test.each(cases)("%s: refused by all three with one sentence", (_name, { flag, text, value }) => {
    const option = SETTINGS[flag].option!;
    const fromFlag = refusal(() => parseServeArgs([`--${flag}`, text], {}));
    const fromVariable = refusal(() => parseServeArgs([], { [envName(flag)]: text }));
    const fromOption = refusal(() => checkOptions({ [option]: value }));
    expect(fromFlag, "the flag's line").toMatch(new RegExp(`^--${flag} `));
    const sentence = (line: string, name: string) => line.replace(name, "NAME").replace(/ \(see hr-mock serve --help\)$/, "").replace(/"/g, "");
    expect(sentence(fromVariable, envName(flag)), "the variable's line is the flag's, naming the variable").toBe(sentence(fromFlag, `--${flag}`));
    expect(sentence(fromOption, option), "startMock's sentence is the flag's, naming the option").toBe(sentence(fromFlag, `--${flag}`));
  });

  test.each([
    ["rate-limit", "1000000000", 1_000_000_000],
    ["rate-limit", "off", "off"],
    ["scale", "0.5", 0.5],
    ["today", "2026-11-23", "2026-11-23"],
    ["state", "rediss://cache:6380/2", "rediss://cache:6380/2"],
    ["state", "C:state", "C:state"],
  ] as [Flag, string, unknown][])("--%s %s is taken by all three alike", (flag, text, value) => {
    const option = SETTINGS[flag].option!;
    const parsed = parseServeArgs([`--${flag}`, text], {});
    expect(parsed !== "help" && (parsed as unknown as Record<string, unknown>)[option]).toEqual(value);
    expect((checkOptions({ [option]: value }) as unknown as Record<string, unknown>)[option]).toEqual(value);
  });
});

describe("hr-mock export reads the dataset's flags by serve's rows", () => {
  test.each([
    ["seed", "1.5"],
    ["scale", "0"],
    ["today", "2026-02-30"],
  ] as [Flag, string][])("--%s %s: serve's sentence, pointing at export's help", async (flag, text) => {
    const fromExport = await exportCommand([`--${flag}`, text]).then(() => "accepted", (error: Error) => error.message);
    const fromServe = refusal(() => parseServeArgs([`--${flag}`, text], {}));
    expect(fromExport).toBe(fromServe.replace("hr-mock serve --help", "hr-mock export --help"));
  });
});

describe("a new setting is a row of the table and the code that uses its value", () => {
  const guide = readFileSync("docs/guides/run-one-mock-for-many-teams.md", "utf8");
  test.each(Object.keys(SETTINGS) as Flag[])("--%s: its flag and variable are read, --help and the guide list it, startMock resolves its option", (flag) => {
    const setting = SETTINGS[flag];
    expect(SERVE_HELP, "--help shows the flag").toContain(`  --${flag}`);
    expect(SERVE_HELP, "--help names the variable").toMatch(new RegExp(`\\b${envName(flag)}\\b`));
    expect(guide, "the guide's table has its row").toContain(`| \`${envName(flag)}\` |`);
    if (setting.type === "boolean") expect(() => parseServeArgs([], { [envName(flag)]: "maybe" }), "a switch's variable is read").toThrow(envName(flag));
    if (setting.option) expect(Object.keys(checkOptions({})), "startMock resolves the option, default applied").toContain(setting.option);
  });

  test("the guide's table is the one the docs build makes from the settings", () => {
    expect(guide).toContain(settingsTable());
  });

  test("a value is checked by the table's rule, whose error names where it came from", () => {
    expect(() => settingValue("journal-size", "-1", "HR_MOCK_JOURNAL_SIZE", true)).toThrow(MockOptionError);
    expect(refusal(() => settingValue("journal-size", "-1", "HR_MOCK_JOURNAL_SIZE", true))).toBe('HR_MOCK_JOURNAL_SIZE must be a whole number from 0 to 100000, got "-1"');
  });
});

describe("a state address is a folder or a Redis address, never a guess", () => {
  const cases: [string, { argv: string[]; env: Env; named: string; shown: string }][] = [
    ["tcp:// from the variable", { argv: [], env: { HR_MOCK_STATE: "tcp://10.0.0.1:6379" }, named: "HR_MOCK_STATE", shown: '"tcp://10.0.0.1:6379"' }],
    ["valkey:// from the flag", { argv: ["--state", "valkey://cache:6379"], env: {}, named: "--state", shown: '"valkey://cache:6379"' }],
    ["redis:host:port (no slashes)", { argv: [], env: { HR_MOCK_STATE: "redis:cache:6379" }, named: "HR_MOCK_STATE", shown: '"redis:cache:6379"' }],
    ["a password in it is masked", { argv: [], env: { HR_MOCK_STATE: "valkey://:s3cret@cache:6379" }, named: "HR_MOCK_STATE", shown: '"valkey://:***@cache:6379"' }],
  ];
  test.each(cases)("%s: one line naming the accepted forms, exit 2, nothing made on disk", async (_name, { argv, env, named, shown }) => {
    const { status, stderr } = await serve(argv, env);
    expect(stderr).toBe(
      `hr-mock serve: ${named} must be a directory or a Redis address, redis://host:port[/db] or rediss://host:port[/db] (Valkey and other servers of the Redis protocol take redis:// too), got ${shown} (see hr-mock serve --help)\n`,
    );
    expect(status).toBe(2);
    const folder = (argv[1] ?? env.HR_MOCK_STATE).split("/")[0];
    expect(existsSync(folder), `no folder ${folder} made`).toBe(false);
  });
});

describe("start-up errors name the variable, exit 2, one line", () => {
  const empty = join(tmp, "empty-password");
  writeFileSync(empty, "\n");
  const cases: [string, { env: Env; argv?: string[]; line: string }][] = [
    ["HR_MOCK_KEYS naming a missing file", { env: { HR_MOCK_KEYS: join(tmp, "none.json") }, line: `cannot read HR_MOCK_KEYS ${join(tmp, "none.json")}: no such file` }],
    ["HR_MOCK_DATA naming a missing file", { env: { HR_MOCK_DATA: join(tmp, "none.yaml") }, line: `cannot read HR_MOCK_DATA ${join(tmp, "none.yaml")}: no such file` }],
    ["--keys naming a folder", { env: {}, argv: ["--keys", tmp], line: `cannot read --keys ${tmp}: it is a directory` }],
    ["HR_MOCK_STATE with a port past 65535", { env: { HR_MOCK_STATE: "redis://127.0.0.1:99999" }, line: "HR_MOCK_STATE redis://127.0.0.1:99999 is not a Redis address; write it as redis://host:port[/db] (see hr-mock serve --help)" }],
    ["an empty HR_MOCK_REDIS_PASSWORD_FILE", { env: { HR_MOCK_STATE: "redis://127.0.0.1:1", HR_MOCK_REDIS_PASSWORD_FILE: empty }, line: `HR_MOCK_REDIS_PASSWORD_FILE ${empty} is empty` }],
  ];
  test.each(cases)("%s", async (_name, { env, argv = [], line }) => {
    const { status, stderr } = await serve(argv, env);
    expect(stderr).toBe(`hr-mock serve: ${line}\n`);
    expect(status).toBe(2);
  });

  test.each([
    ["from its variable", { HR_MOCK_LOG_FORMAT: "json", HR_MOCK_PORT: "x" }, []],
    ["from the flag", { HR_MOCK_KEYS: "/nonexistent/keys.json" }, ["--log-format", "json"]],
  ] as [string, Env, string[]][])("with --log-format json (%s), a start-up error is one JSON line", async (_name, env, argv) => {
    const { status, stderr } = await serve(argv, env);
    expect(status).toBe(2);
    expect(stderr.endsWith("\n") && stderr.split("\n").length, "one line").toBe(2);
    expect(JSON.parse(stderr)).toMatchObject({ level: "error", event: "error", message: expect.stringMatching(/^hr-mock serve: (HR_MOCK_PORT must be|cannot read HR_MOCK_KEYS)/) });
  });
});

describe("a state that cannot be opened: its line names the address as it was given, the variable or the flag (exit 1)", () => {
  const file = join(tmp, "not-a-folder");
  writeFileSync(file, "");
  const cases: [string, { env: Env; argv?: string[]; line: string }][] = [
    ["HR_MOCK_STATE, a Redis nothing answers at", { env: { HR_MOCK_STATE: "redis://127.0.0.1:1" }, line: "HR_MOCK_STATE redis://127.0.0.1:1: nothing answers at 127.0.0.1:1 (connection refused); is redis-server running there?" }],
    ["--state, a Redis nothing answers at", { env: {}, argv: ["--state", "redis://127.0.0.1:1"], line: "--state redis://127.0.0.1:1: nothing answers at 127.0.0.1:1 (connection refused); is redis-server running there?" }],
    ["HR_MOCK_STATE, a file", { env: { HR_MOCK_STATE: file }, line: `HR_MOCK_STATE ${file}: not a directory; give a new or empty directory` }],
    ["--state, a file", { env: {}, argv: ["--state", file], line: `--state ${file}: not a directory; give a new or empty directory` }],
  ];
  test.each(cases)("%s", async (_name, { env, argv = [], line }) => {
    const { status, stderr } = await serve(["--port", "0", ...argv], env);
    expect(stderr).toBe(`hr-mock serve: ${line}\n`);
    expect(status).toBe(1);
  });
});

describe("the Redis password's lines name where it came from; Node prints no warning of its own", () => {
  test("a wrong password, and none: the line names its source and never advises the address", async () => {
    const redis = await startRedis({ password: "right-one" });
    const file = join(tmp, "redis-password");
    writeFileSync(file, "wrong-one\n");
    const address = `redis://127.0.0.1:${redis.port}`;
    try {
      // The address is named as it was given: by its variable, or by the flag.
      const cases: [Env, string, string[]?][] = [
        [{ HR_MOCK_STATE: address, HR_MOCK_REDIS_PASSWORD: "wrong-one" }, `HR_MOCK_STATE ${address}: Redis refused the password (or user) from HR_MOCK_REDIS_PASSWORD; check it`],
        [{ HR_MOCK_STATE: address, HR_MOCK_REDIS_PASSWORD_FILE: file }, `HR_MOCK_STATE ${address}: Redis refused the password (or user) from the file ${file} (HR_MOCK_REDIS_PASSWORD_FILE); check it`],
        [{ HR_MOCK_STATE: address }, `HR_MOCK_STATE ${address}: Redis asks for a password; give it in HR_MOCK_REDIS_PASSWORD or a file (--redis-password-file)`],
        [{ HR_MOCK_REDIS_PASSWORD: "wrong-one" }, `--state ${address}: Redis refused the password (or user) from HR_MOCK_REDIS_PASSWORD; check it`, ["--state", address]],
      ];
      for (const [env, line, argv = []] of cases) {
        const { stderr } = await serve(["--port", "0", ...argv], env);
        expect(stderr).toBe(`hr-mock serve: ${line}\n`);
        expect(stderr, "no password printed").not.toMatch(/wrong-one|right-one/);
      }
    } finally {
      await redis.close();
    }
  });

  test("rediss:// to a server that speaks no TLS: one line, no DEP0123", async () => {
    const server = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const warnings: string[] = [];
    const onWarning = (warning: Error & { code?: string }) => void warnings.push(`${warning.code}: ${warning.message}`);
    process.on("warning", onWarning);
    try {
      const { status, stderr } = await serve(["--port", "0"], { HR_MOCK_STATE: `rediss://127.0.0.1:${(server.address() as AddressInfo).port}` });
      expect(stderr.split("\n").length, stderr).toBe(2);
      expect(status).toBe(1);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((w) => w.startsWith("DEP0123")), "Node's deprecation warning").toEqual([]);
    } finally {
      process.off("warning", onWarning);
      server.close();
    }
  });
});
