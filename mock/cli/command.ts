// What every hr-mock command shares: its flags read by node:util's parseArgs, --help, its mistakes
// and failures as one line each, and where it prints. A mistake in what was typed is a UsageError
// (exit status 2, "hr-mock <command>: <problem> (see hr-mock <command> --help)"); a failure to do
// the work is any other error (exit status 1, "hr-mock <command>: <cause>"). Values quoted in a line
// are cut short and made printable (a value may be a secret pasted in the wrong place).
import { parseArgs, type ParseArgsConfig } from "node:util";
import type { ControlAnswer, ControlClient } from "../kernel/control-client.js";
import { DEFAULT_HOST, DEFAULT_PORT } from "../kernel/limits.js";
import { DEMO_KEY } from "../keys/demo-keys.js";
import { describeParseError, quoted, readDecimal, readWhole } from "../kernel/parse-error.js";
import { maskSecrets } from "../kernel/text.js";
import { MockOptionError } from "../kernel/option-error.js";

/** A mistake in the command line: exit status 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** Marks an error to be printed as one JSON line (serve with --log-format json). */
export const JSON_LINES = Symbol("json lines");

/** Where a command prints (process.stdout and stderr for the bin; a test passes its own). */
export interface Output {
  write(text: string): unknown;
}

export interface CommandIO {
  stdout: Output;
  stderr: Output;
  /** What commands that talk to a running mock send with (a test injects one). */
  fetch: typeof fetch;
  /** The environment serve reads its HR_MOCK_* variables from (process.env for the bin; a test passes its own). */
  env?: Readonly<Record<string, string | undefined>>;
}

export type Flags = NonNullable<ParseArgsConfig["options"]>;

export interface CommandLine<F extends Flags> {
  values: ReturnType<typeof parseArgs<{ options: F; allowPositionals: true; strict: true }>>["values"];
  positionals: string[];
}

/**
 * `argv` read against the command's flags (and -h/--help), or "help". Every mistake is a UsageError
 * naming the flag; the command's name goes into "(see hr-mock <name> --help)".
 */
export function readFlags<F extends Flags>(name: string, flags: F, argv: string[], positionals = false): CommandLine<F> | "help" {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, strict: true, allowPositionals: true, options: { ...flags, help: { type: "boolean", short: "h" } } });
  } catch (error) {
    // A stray value may be a secret typed without its flag: whsec_ text is never echoed.
    throw usage(name, maskSecrets(describeParseError(error as NodeJS.ErrnoException, argv)));
  }
  if ((parsed.values as { help?: boolean }).help) return "help";
  if (!positionals && parsed.positionals.length > 0) throw usage(name, `unexpected argument ${maskSecrets(quoted(parsed.positionals[0]))}`);
  return parsed as unknown as CommandLine<F>;
}

/** A command's IO as a test may give it (what it leaves out is the process's own), and with its defaults filled in. */
export type GivenIO<X = object> = Partial<CommandIO> & X;
export type RunIO<X = object> = Required<Pick<CommandIO, "stdout" | "stderr" | "fetch">> & Pick<CommandIO, "env"> & X;

/**
 * A command: its flags read (help printed, status 0), then `run` with the IO given or the process's
 * own. `run` answers the exit status (0 when it answers nothing); mistakes and failures it throws.
 */
export function command<F extends Flags, X extends object = object>(
  spec: { name: string; flags: F; help: string; positionals?: boolean },
  run: (line: CommandLine<F>, io: RunIO<X>) => Promise<number | void>,
): (argv: string[], io?: GivenIO<X>) => Promise<number> {
  return async (argv, io = {} as GivenIO<X>) => {
    const full = { ...io, stdout: io.stdout ?? process.stdout, stderr: io.stderr ?? process.stderr, fetch: io.fetch ?? fetch } as RunIO<X>;
    const line = readFlags(spec.name, spec.flags, argv, spec.positionals);
    if (line === "help") {
      full.stdout.write(spec.help);
      return 0;
    }
    return (await run(line, full)) ?? 0;
  };
}

/** A UsageError whose line points at the command's help. */
export function usage(name: string, problem: string): UsageError {
  return new UsageError(`${problem} (see hr-mock ${name} --help)`);
}

/** What `read` answers; the MockOptionError it may throw (a settings rule's sentence) as the command's UsageError. */
export function asUsage<T>(name: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw error instanceof MockOptionError ? usage(name, error.message) : error;
  }
}

/** The flags of a command that talks to a running mock. */
export const MOCK_TARGET_FLAGS = {
  "mock-url": { type: "string" },
  "api-key": { type: "string" },
} as const;

export const DEFAULT_MOCK_URL = `http://${DEFAULT_HOST}:${DEFAULT_PORT}`;

/** The lines of --help that describe MOCK_TARGET_FLAGS. */
export const MOCK_TARGET_HELP = `  --mock-url <url>   The running mock (default ${DEFAULT_MOCK_URL}).
  --api-key <key>    A key holding Manage Webhooks (default ${DEMO_KEY.org1WebhooksAdmin},
                     organisation 1).`;

/** The running mock a command talks to: its address, and the key that acts there. */
export type MockTarget = ReturnType<typeof mockTarget>;

/** --mock-url and --api-key, checked; the defaults are the mock's own address and webhooks admin key. */
export function mockTarget(name: string, url: string | undefined, key: string | undefined) {
  const apiKey = key ?? DEMO_KEY.org1WebhooksAdmin;
  if (apiKey.trim() === "" || /\s/.test(apiKey)) throw usage(name, "--api-key must be one key without spaces");
  const text = url ?? DEFAULT_MOCK_URL;
  let mockUrl: URL | undefined;
  try {
    mockUrl = new URL(text);
  } catch {
    mockUrl = undefined;
  }
  if (!mockUrl || (mockUrl.protocol !== "http:" && mockUrl.protocol !== "https:")) throw usage(name, `--mock-url must be the mock's http:// or https:// address, got ${quoted(text)}`);
  return { mockUrl, apiKey };
}

/** The answer's data, or its one line thrown (exit status 1). */
export function dataOr<T>(answer: ControlAnswer<T>): T {
  if (!answer.ok) throw new Error(answer.line);
  return answer.data;
}

/** How long a command waits for a report the mock builds on request (coverage, a journal or dataset export): longer than a control write. */
export const REPORT_TIMEOUT_MS = 30_000;

/** A call through the typed control API client with the command's fetch: its data, or its one line (the mock's refusal, or why it could not be reached). */
export async function askMock<D extends { data?: unknown }>(
  target: MockTarget,
  fetchImpl: typeof fetch,
  call: (control: ControlClient) => Promise<{ data?: D; error?: unknown; response: Response }>,
  timeoutMs?: number,
): Promise<ControlAnswer<NonNullable<D["data"]>>> {
  // The client (and openapi-fetch) loads here, when a command calls: never for --help or a mistake in its flags.
  const { controlAnswer, createControlClient } = await import("../kernel/control-client.js");
  const control = createControlClient({ baseUrl: target.mockUrl.origin, apiKey: target.apiKey, fetch: (request) => fetchImpl(request), timeoutMs });
  return controlAnswer(call(control), target.mockUrl);
}

/** A flag's whole number within [min, max]. */
export function wholeNumber(name: string, flag: string, text: string, min: number, max: number, what = `a whole number from ${min} to ${max}`): number {
  const value = readWhole(text);
  if (!Number.isSafeInteger(value) || value < min || value > max) throw usage(name, `${flag} must be ${what}, got ${quoted(text)}`);
  return value;
}

/** A flag's decimal number that `ok` accepts. */
export function decimal(name: string, flag: string, text: string, ok: (x: number) => boolean, what: string): number {
  const value = readDecimal(text);
  if (!Number.isFinite(value) || !ok(value)) throw usage(name, `${flag} must be ${what}, got ${quoted(text)}`);
  return value;
}

/** Why a file could not be read, in words: no such file, permission denied, it is a directory. */
export function unreadable(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  return code === "ENOENT" ? "no such file" : code === "EACCES" ? "permission denied" : code === "EISDIR" ? "it is a directory" : (code ?? "unreadable");
}

/** A flag's text, which may not be blank. */
export function nonEmpty(name: string, flag: string, text: string): string {
  if (text.trim() === "") throw usage(name, `${flag} needs a value`);
  return text;
}
