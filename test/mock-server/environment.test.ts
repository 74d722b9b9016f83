// `hr-mock serve` configured from the environment, as a container or a Kubernetes pod configures it:
// every flag of serve's one table has an HR_MOCK_* variable, a flag wins over its variable, a bad
// value is one line naming the variable, and the Redis password comes from a variable or a file so
// that it is in no process's arguments. The environment is injected: everything here runs in process.
import { describe, expect, test } from "vitest";
import { SERVE_FLAGS, SERVE_HELP, parseServeArgs, type ServeSettings } from "../../mock/cli/commands/serve.js";
import { envName, readFlagsAndEnv } from "../../mock/cli/flag-env.js";
import { readPassword, REDIS_PASSWORD_VARIABLE } from "../../mock/cli/redis-password.js";
import { run } from "../../mock/cli/main.js";
import { parseRedisUrl } from "../../mock/state/redis/address.js";

type Env = Record<string, string>;

function parse(argv: string[], env: Env): ServeSettings {
  const settings = parseServeArgs(argv, env);
  if (settings === "help") throw new Error("parsed as --help");
  return settings;
}

describe("variables become settings; a flag wins over its variable", () => {
  const cases: [string, { argv: string[]; env: Env; want: Partial<ServeSettings> }][] = [
    ["port and host, as an image sets them", { argv: [], env: { HR_MOCK_PORT: "4020", HR_MOCK_HOST: "0.0.0.0" }, want: { port: 4020, host: "0.0.0.0" } }],
    ["the flag wins", { argv: ["--port", "4030"], env: { HR_MOCK_PORT: "4020" }, want: { port: 4030 } }],
    ["the flag wins even where the variable is wrong", { argv: ["--port", "4030"], env: { HR_MOCK_PORT: "x" }, want: { port: 4030 } }],
    ["an empty variable counts as not given", { argv: [], env: { HR_MOCK_PORT: "", HR_MOCK_LOG: "" }, want: { port: 4010, log: false } }],
    ["a switch from 1", { argv: [], env: { HR_MOCK_LOG: "1" }, want: { log: true } }],
    ["a switch from TRUE", { argv: [], env: { HR_MOCK_LOG: "TRUE" }, want: { log: true } }],
    ["a switch off from 0", { argv: [], env: { HR_MOCK_LOG: "0" }, want: { log: false } }],
    ["a switch off from false, the flag given", { argv: ["--log"], env: { HR_MOCK_LOG: "false" }, want: { log: true } }],
    ["a repeatable flag's variable, comma-separated", { argv: [], env: { HR_MOCK_CORS_ORIGIN: "http://localhost:5173, http://localhost:3000," }, want: { corsOrigins: ["http://localhost:5173", "http://localhost:3000"] } }],
    ["the repeated flag replaces the variable's list", { argv: ["--cors-origin", "http://a.test"], env: { HR_MOCK_CORS_ORIGIN: "http://b.test" }, want: { corsOrigins: ["http://a.test"] } }],
    ["numbers and words", { argv: [], env: { HR_MOCK_SEED: "-7", HR_MOCK_RATE_LIMIT: "off", HR_MOCK_JOURNAL_SIZE: "5000", HR_MOCK_TODAY: "2026-11-23" }, want: { seed: -7, rateLimit: "off", journalSize: 5000, today: "2026-11-23" } }],
    ["the state's address", { argv: [], env: { HR_MOCK_STATE: "redis://redis:6379" }, want: { state: "redis://redis:6379" } }],
    ["a webhook flag", { argv: [], env: { HR_MOCK_TIME_SCALE: "0.001" }, want: { webhooks: expect.objectContaining({ options: expect.objectContaining({ timeScale: 0.001 }) }) } }],
    ["unknown HR_MOCK_ variables are left alone (Kubernetes' service links add some)", { argv: [], env: { HR_MOCK_SERVICE_HOST: "10.0.0.1", HR_MOCK_PORT_4010_TCP: "tcp://10.0.0.1:4010" }, want: { port: 4010 } }],
  ];
  test.each(cases)("%s", (_name, { argv, env, want }) => {
    expect(parse(argv, env)).toMatchObject(want);
  });
});

describe("a bad value in a variable is one line naming the variable", () => {
  const cases: [string, { env: Env; line: string | RegExp }][] = [
    ["a port that is no number", { env: { HR_MOCK_PORT: "x" }, line: 'HR_MOCK_PORT must be a whole number from 0 to 65535, got "x" (see hr-mock serve --help)' }],
    ["Kubernetes' service link for a Service named hr-mock", { env: { HR_MOCK_PORT: "tcp://10.0.0.1:4010" }, line: /^HR_MOCK_PORT must be a whole number from 0 to 65535, got "tcp:\/\/10\.0\.0\.1:4010": Kubernetes sets it so .* enableServiceLinks: false/ }],
    ["a switch that is no boolean", { env: { HR_MOCK_SHUFFLE: "yes" }, line: 'HR_MOCK_SHUFFLE must be true, false, 1 or 0, got "yes" (see hr-mock serve --help)' }],
    ["a bad date", { env: { HR_MOCK_TODAY: "2026-02-30" }, line: /^HR_MOCK_TODAY must be a date YYYY-MM-DD/ }],
    ["a bad origin", { env: { HR_MOCK_CORS_ORIGIN: "localhost:5173" }, line: /^HR_MOCK_CORS_ORIGIN: "localhost:5173" is not an origin/ }],
    ["a webhook option out of range", { env: { HR_MOCK_DUPLICATE_RATE: "2" }, line: /^HR_MOCK_DUPLICATE_RATE must be a number from 0 to 1/ }],
    ["a webhook option needing another", { env: { HR_MOCK_EVENTS: "leave.approved" }, line: /^HR_MOCK_EVENTS needs --webhook-url/ }],
  ];
  test.each(cases)("%s", (_name, { env, line }) => {
    expect(() => parseServeArgs([], env)).toThrow(line);
  });

  test("through the bin's run(): the line, on stderr, exit status 2", async () => {
    let stderr = "";
    const status = await run(["serve"], (text) => void (stderr += text), { write: () => true }, fetch, { HR_MOCK_LATENCY: "soon" });
    expect(status).toBe(2);
    expect(stderr).toBe('hr-mock serve: HR_MOCK_LATENCY must be milliseconds from 0 to 600000, got "soon" (see hr-mock serve --help)\n');
  });
});

describe("the variables come from the one flag table", () => {
  test("--help lists the variable of every flag serve has", () => {
    const flags = Object.keys(SERVE_FLAGS);
    expect(flags.length, "serve's flags").toBeGreaterThan(20);
    for (const flag of flags) expect(SERVE_HELP, `${envName(flag)} in serve --help`).toMatch(new RegExp(`\\b${envName(flag)}\\b`));
    expect(SERVE_HELP).toContain(REDIS_PASSWORD_VARIABLE);
    expect(SERVE_HELP, "how switches are written").toContain("true, false, 1 or 0");
  });

  test("a flag added to a table has its variable", () => {
    const table = { "log-format": { type: "string" }, verbose: { type: "boolean" } } as const;
    const read = (argv: string[], env: Env) => {
      const line = readFlagsAndEnv("serve", table, argv, env);
      if (line === "help") throw new Error("help");
      return { values: { ...line.values }, named: line.named("log-format") };
    };
    expect(read([], {})).toEqual({ values: {}, named: "--log-format" });
    expect(read([], { HR_MOCK_LOG_FORMAT: "json", HR_MOCK_VERBOSE: "1" })).toEqual({ values: { "log-format": "json", verbose: true }, named: "HR_MOCK_LOG_FORMAT" });
    expect(read(["--log-format", "text"], { HR_MOCK_LOG_FORMAT: "json" })).toEqual({ values: { "log-format": "text" }, named: "--log-format" });
  });
});

describe("the Redis password, kept out of the command line", () => {
  const cases: [string, { argv: string[]; env: Env; want: { state?: string; password?: string; warnings: number } | RegExp }][] = [
    ["from HR_MOCK_REDIS_PASSWORD", { argv: ["--state", "redis://127.0.0.1:6379"], env: { HR_MOCK_REDIS_PASSWORD: "s3cret" }, want: { state: "redis://127.0.0.1:6379", password: "s3cret", warnings: 0 } }],
    ["in the URL of HR_MOCK_STATE: no warning (not on the command line)", { argv: [], env: { HR_MOCK_STATE: "redis://:s3cret@redis:6379" }, want: { state: "redis://:s3cret@redis:6379", warnings: 0 } }],
    ["in the URL on the command line: works, with one warning", { argv: ["--state", "redis://:s3cret@redis:6379"], env: {}, want: { state: "redis://:s3cret@redis:6379", warnings: 1 } }],
    ["given twice", { argv: ["--state", "redis://:a@redis:6379"], env: { HR_MOCK_REDIS_PASSWORD: "b" }, want: /^the Redis password is given twice \(the URL of --state, HR_MOCK_REDIS_PASSWORD\); give it once/ }],
    ["variable and file", { argv: ["--redis-password-file", "/run/secrets/redis"], env: { HR_MOCK_STATE: "redis://redis", HR_MOCK_REDIS_PASSWORD: "b" }, want: /^the Redis password is given twice \(HR_MOCK_REDIS_PASSWORD, --redis-password-file\)/ }],
    ["without a Redis address", { argv: ["--state", "/tmp/state"], env: { HR_MOCK_REDIS_PASSWORD: "b" }, want: /^HR_MOCK_REDIS_PASSWORD is the password of --state redis:\/\/…, and no Redis address is given/ }],
    ["a file without a Redis address, from its variable", { argv: [], env: { HR_MOCK_REDIS_PASSWORD_FILE: "/run/secrets/redis" }, want: /^HR_MOCK_REDIS_PASSWORD_FILE is the password of --state redis:\/\// }],
  ];
  test.each(cases)("%s", (_name, { argv, env, want }) => {
    if (want instanceof RegExp) return void expect(() => parseServeArgs(argv, env)).toThrow(want);
    const settings = parse(argv, env);
    expect({ state: settings.state, password: readPassword(settings.redisPassword)?.password, warnings: settings.warnings.length }).toEqual(want);
    for (const line of settings.warnings) {
      expect(line, "the warning is one line").not.toContain("\n");
      expect(line, "the warning never prints the password").not.toContain("s3cret");
      expect(line).toMatch(/^hr-mock serve: warning: a password on the command line .* HR_MOCK_REDIS_PASSWORD or a file \(--redis-password-file\)/);
    }
  });

  const files: [string, { content: string | NodeJS.ErrnoException; want: string | RegExp }][] = [
    ["a mounted Secret: its trailing newline is not part of it", { content: "s3cret\n", want: "s3cret" }],
    ["written on Windows", { content: "s3cret\r\n", want: "s3cret" }],
    ["without a newline", { content: " s3 cret ", want: " s3 cret " }],
    ["empty", { content: "\n", want: /^--redis-password-file \/run\/secrets\/redis is empty$/ }],
    ["missing", { content: Object.assign(new Error("ENOENT: no such file or directory"), { code: "ENOENT" }), want: /^cannot read --redis-password-file \/run\/secrets\/redis: no such file$/ }],
    ["unreadable", { content: Object.assign(new Error("EACCES: permission denied"), { code: "EACCES" }), want: /^cannot read --redis-password-file \/run\/secrets\/redis: permission denied$/ }],
  ];
  test.each(files)("--redis-password-file: %s", (_name, { content, want }) => {
    const { redisPassword } = parse(["--state", "redis://redis:6379", "--redis-password-file", "/run/secrets/redis"], {});
    const read = () =>
      readPassword(redisPassword, () => {
        if (typeof content !== "string") throw content;
        return content;
      });
    if (want instanceof RegExp) expect(read).toThrow(want);
    else expect(read()).toEqual({ password: want, from: "the file /run/secrets/redis (--redis-password-file)" });
  });

  test.each([["s3cret"], ["p@ss:word/with%41?#&"], ["ünïcode pass"]])("the password %j written in the address reaches Redis as given, and every line masks it", (password) => {
    const address = parseRedisUrl(`redis://:${encodeURIComponent(password)}@127.0.0.1:6379/2`);
    expect(address).toMatchObject({ host: "127.0.0.1", port: 6379, db: 2, password });
    expect(address.shown).toBe("redis://:***@127.0.0.1:6379/2");
  });
});
