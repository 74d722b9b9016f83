#!/usr/bin/env node
// `hr-mock`: the mock's command line. `serve` (the default) runs the HTTP mock; `receive` runs a
// local webhook receiver; further subcommands plug into COMMANDS. Every mistake is one line on
// stderr and exit status 2; a failure to start is one line and exit status 1.
import { realpathSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { TODAY_RANGE, normalizeToday } from "../data/dataset.js";
import { DataFileError, KeysFileError, MockOptionError, originProblem, startMock, type RunningMock } from "../app/start-mock.js";
import { formatBanner, type BannerSettings } from "./banner.js";
import { describeParseError, shown } from "./parse-error.js";
import { DEFAULT_HOST, DEFAULT_PORT, RATE_LIMIT_DEFAULT } from "../kernel/limits.js";
import { WEBHOOK_SERVE_HELP, WEBHOOK_SERVE_OPTIONS, registerServeEndpoint, webhookServeSettings, type WebhookServeSettings } from "./serve-flags.js";

export const SERVE_HELP = `Usage: hr-mock serve [options]      (serve is the default command)

Serves the HR service API from a seeded dataset, validated against the bundled OpenAPI
description by Prism, with API keys, permissions and a rate limit like the real service.

Options:
  --port <n>              Port to listen on, 0 for any free port (default ${DEFAULT_PORT}).
  --host <h>              Address to bind (default ${DEFAULT_HOST}).
  --seed <n>              Dataset seed, an integer; the same seed gives the same data (default 1).
  --today <YYYY-MM-DD>    The dataset's "today": leave spans last year to the coming months from
                          it, and balances count its year (default the real UTC date). Pin it for
                          byte-identical data on every day.
  --scale <x>             Multiplies employees and leave requests, above 0 and at most 1000
                          (default 1).
  --data <file>           Organisations, companies, departments, employees, leave types, leave
                          requests, holidays and balances from a data file (YAML or JSON, the
                          format in generated/data-file.schema.json); what it leaves out is
                          generated from --seed. A file with a problem stops the start, one
                          line per problem.
  --rate-limit <n|off>    Requests per API key in any rolling 60 seconds (default ${RATE_LIMIT_DEFAULT}).
  --failure-status <http|200>
                          http: failures carry their HTTP status (default); 200: every
                          failure is answered with HTTP 200 and the same envelope.
  --latency <ms>          Delay every API answer by this many milliseconds (default 0).
  --fail-rate <p>         Answer this share (0 to 1) of API requests with an injected 503,
                          seeded by --seed (default 0).
  --keys <file>           More API keys, a JSON array of
                          {"key", "organisation": 1|2|<id>, "permissions": [...], "label"}.
  --cors-origin <origin>  Let pages of this origin (e.g. http://localhost:5173) call the control
                          API under /_mock/; repeat for more. The read API answers pages of any
                          origin; the control API, by default, none.
  --state <dir>           Keep the mock's state in this directory and restore it at start: data
                          changes from triggers, sandboxes with their keys, webhook endpoints with
                          their secrets, the delivery log, and deliveries waiting for a retry
                          (attempted after a restart at their time, or at once if it has passed).
                          Created owner-only (0700, files 0600); one mock at a time. Refused if
                          made with another --seed, --scale, --today or --data file; without
                          --today, the state's today is used.
  --log                   Print one line per request (off by default; keys are never printed).
  -h, --help              Show this help.

${WEBHOOK_SERVE_HELP}
Requests with a Prefer header (code=404, example=<name>, dynamic=true) are answered by Prism's
mocker after the key, rate limit, permission and parameters are checked. The names are those of
the spec's examples: success on every 200, notFound on every 404 and one such name for each other
failure (the API reference lists them; an unknown name's 404 does too).
The docs site is served at /docs (in a clone of the repository, after npm run docs). Ctrl-C stops.
`;

export const HELP = `Usage: hr-mock <command> [options]

Commands:
  serve      Serve the mock API (the default when no command is given).
  receive    Run a local webhook receiver that verifies signed deliveries.
  trigger    Send a webhook event through a running mock.
  scenario   Run a scenario file's triggers in order through a running mock.
  export     Write the dataset (seeded, from a data file, or a running mock's) as a data file.
  diff       Compare two versions of the contract; exit 1 on an unacknowledged breaking change.

Run "hr-mock <command> --help" for a command's options.
`;

class UsageError extends Error {}

/** Where a command prints what it answers (process.stdout for the bin; a test may pass its own). */
export interface Output {
  write(text: string): unknown;
}
type Command = (argv: string[], stdout: Output) => Promise<void>;

/** Subcommands; a module that is not part of this build yet answers with one line. */
const COMMANDS: Record<string, Command> = {
  serve: serveCommand,
  receive: (argv, stdout) => runModuleCommand("./commands/receive.js", "receiveCommand", "receive", argv, stdout),
  trigger: (argv, stdout) => runModuleCommand("./commands/trigger.js", "triggerCommand", "trigger", argv, stdout),
  scenario: (argv, stdout) => runModuleCommand("./commands/scenario.js", "scenarioCommand", "scenario", argv, stdout),
  export: (argv, stdout) => runModuleCommand("./commands/export.js", "exportCommand", "export", argv, stdout),
  // The contract diff prints its own one-line errors and returns its exit status.
  diff: async (argv) => {
    const { main: diff } = await import("../diff/cli.js");
    process.exitCode = await diff(argv);
  },
};

export async function main(argv: string[], stdout: Output = process.stdout): Promise<void> {
  const [first, ...rest] = argv;
  if (first === "--help" || first === "-h" || first === "help") {
    stdout.write(HELP);
    return;
  }
  const named = first !== undefined && !first.startsWith("-");
  const name = named ? first : "serve";
  const command = COMMANDS[name];
  if (!command) throw new UsageError(`unknown command ${shown(name)} (commands: ${Object.keys(COMMANDS).join(", ")}; see hr-mock --help)`);
  await command(named ? rest : argv, stdout);
}

async function runModuleCommand(path: string, exportName: string, name: string, argv: string[], stdout: Output): Promise<void> {
  let module: Record<string, unknown>;
  try {
    module = (await import(path)) as Record<string, unknown>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ERR_MODULE_NOT_FOUND" && String((error as Error).message).includes(path.slice(2, -3))) {
      throw new UsageError(`the ${name} command is not available in this version`);
    }
    throw error;
  }
  const run = module[exportName];
  if (typeof run !== "function") throw new UsageError(`the ${name} command is not available in this version`);
  try {
    await (run as (argv: string[], io: { stdout: Output }) => Promise<void>)(argv, { stdout });
  } catch (error) {
    if (error instanceof DataFileError) throw error; // one line per problem, printed by run()
    // The subcommand's own one-line errors (bad flags, a port in use) are usage-level mistakes.
    throw new UsageError(`${name}: ${(error as Error).message}`);
  }
}

export interface ServeSettings extends BannerSettings {
  port: number;
  host: string;
  keys?: string;
  data?: string;
  today?: string;
  state?: string;
  log: boolean;
  corsOrigins: string[];
  webhooks: WebhookServeSettings;
}

/** `serve` flags to settings; every mistake is a UsageError with one line. */
export function parseServeArgs(argv: string[]): ServeSettings | "help" {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: "string" },
        host: { type: "string" },
        seed: { type: "string" },
        today: { type: "string" },
        scale: { type: "string" },
        data: { type: "string" },
        "rate-limit": { type: "string" },
        "failure-status": { type: "string" },
        latency: { type: "string" },
        "fail-rate": { type: "string" },
        keys: { type: "string" },
        state: { type: "string" },
        "cors-origin": { type: "string", multiple: true },
        log: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
        ...WEBHOOK_SERVE_OPTIONS,
      },
    }));
  } catch (error) {
    throw new UsageError(`${describeParseError(error as NodeJS.ErrnoException, argv)} (see hr-mock serve --help)`);
  }
  if (values.help) return "help";
  return {
    port: values.port === undefined ? DEFAULT_PORT : wholeNumber("--port", values.port, 0, 65535),
    host: values.host === undefined ? DEFAULT_HOST : nonEmpty("--host", values.host),
    seed: values.seed === undefined ? 1 : wholeNumber("--seed", values.seed, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER),
    scale: values.scale === undefined ? 1 : decimal("--scale", values.scale, (x) => x > 0 && x <= 1000, "a number above 0 and at most 1000"),
    rateLimit:
      values["rate-limit"] === undefined
        ? RATE_LIMIT_DEFAULT
        : values["rate-limit"] === "off"
          ? "off"
          : wholeNumber("--rate-limit", values["rate-limit"], 1, 1_000_000_000, 'a whole number of at least 1, or "off"'),
    failureStatus: failureStatus(values["failure-status"]),
    latencyMs: values.latency === undefined ? 0 : decimal("--latency", values.latency, (x) => x >= 0 && x <= 600_000, "milliseconds from 0 to 600000"),
    failRate: values["fail-rate"] === undefined ? 0 : decimal("--fail-rate", values["fail-rate"], (x) => x >= 0 && x <= 1, "a number from 0 to 1"),
    keys: values.keys === undefined ? undefined : nonEmpty("--keys", values.keys),
    data: values.data === undefined ? undefined : nonEmpty("--data", values.data),
    today: values.today === undefined ? undefined : todayFlag(values.today),
    state: values.state === undefined ? undefined : nonEmpty("--state", values.state),
    log: values.log ?? false,
    corsOrigins: (values["cors-origin"] ?? []).map(corsOrigin),
    webhooks: webhookFlags(values),
  };
}

function corsOrigin(value: string): string {
  const problem = originProblem(value);
  if (problem) throw new UsageError(`--cors-origin: ${problem} (see hr-mock serve --help)`);
  return value;
}

/** The dataset's today: a YYYY-MM-DD date in the calendar and in the range the dataset takes. */
function todayFlag(value: string): string {
  try {
    return normalizeToday(value);
  } catch {
    throw new UsageError(`--today must be a date YYYY-MM-DD from ${TODAY_RANGE.from} to ${TODAY_RANGE.to}, got ${shown(JSON.stringify(value))} (see hr-mock serve --help)`);
  }
}

function webhookFlags(values: Parameters<typeof webhookServeSettings>[0]): WebhookServeSettings {
  try {
    return webhookServeSettings(values);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

async function serveCommand(argv: string[], stdout: Output): Promise<void> {
  const settings = parseServeArgs(argv);
  if (settings === "help") {
    stdout.write(SERVE_HELP);
    return;
  }
  let mock: RunningMock;
  try {
    mock = await startMock({
      port: settings.port,
      host: settings.host,
      seed: settings.seed,
      scale: settings.scale,
      rateLimit: settings.rateLimit,
      failureStatus: settings.failureStatus,
      latencyMs: settings.latencyMs,
      failRate: settings.failRate,
      keys: settings.keys,
      data: settings.data,
      today: settings.today,
      state: settings.state,
      log: settings.log,
      corsOrigins: settings.corsOrigins,
      webhooks: settings.webhooks.options,
    });
  } catch (error) {
    if (error instanceof MockOptionError || error instanceof KeysFileError) throw new StartError(error.message);
    throw error;
  }
  // performance.now() counts from the process's start: the wait a user sees, loading included.
  stdout.write(formatBanner(mock, settings, performance.now()));
  if (mock.state) {
    const { changes, endpoints, waiting } = mock.state.restored;
    stdout.write(`State kept in ${mock.state.dir}: restored ${changes} data changes, ${endpoints} webhook endpoints, ${waiting} waiting deliveries.\n`);
  }
  if (settings.webhooks.endpoint) stdout.write(registerServeEndpoint(mock, settings.webhooks.endpoint));
  await new Promise<void>((resolve) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) process.exit(130); // a second Ctrl-C does not wait
      stopping = true;
      process.stderr.write(`hr-mock: ${signal}, stopping…\n`);
      void mock.close().then(resolve);
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
  process.stderr.write("hr-mock: stopped.\n");
}

class StartError extends Error {}

function wholeNumber(flag: string, text: string, min: number, max: number, what = `a whole number from ${min} to ${max}`): number {
  const value = /^-?\d+$/.test(text.trim()) ? Number(text) : NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) throw new UsageError(`${flag} must be ${what}, got ${shown(JSON.stringify(text))} (see hr-mock serve --help)`);
  return value;
}

function decimal(flag: string, text: string, ok: (x: number) => boolean, what: string): number {
  const value = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(text) ? Number(text) : NaN;
  if (!Number.isFinite(value) || !ok(value)) throw new UsageError(`${flag} must be ${what}, got ${shown(JSON.stringify(text))} (see hr-mock serve --help)`);
  return value;
}

function nonEmpty(flag: string, text: string): string {
  if (text.trim() === "") throw new UsageError(`${flag} needs a value (see hr-mock serve --help)`);
  return text;
}

function failureStatus(text: string | undefined): "http" | 200 {
  if (text === undefined || text === "http") return "http";
  if (text === "200") return 200;
  throw new UsageError(`--failure-status must be http or 200, got ${shown(JSON.stringify(text))} (see hr-mock serve --help)`);
}


function isEntryPoint(): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return pathToFileURL(script).href === import.meta.url;
  }
}

/**
 * Runs a command line as the bin does: every failure is one line on `stderr` (one per problem of
 * a data file), and the answer is the exit status (2 for a usage mistake, 1 for a failure to run).
 */
export async function run(argv: string[], stderr: (text: string) => void = (text) => void process.stderr.write(text), stdout: Output = process.stdout): Promise<number> {
  try {
    await main(argv, stdout);
    return 0;
  } catch (error: unknown) {
    if (error instanceof DataFileError) {
      for (const line of error.lines) stderr(`hr-mock: ${line.replace(/\s+/g, " ").trim()}\n`);
      return 1;
    }
    const message = error instanceof Error ? error.message : String(error);
    stderr(`hr-mock: ${message.replace(/\s+/g, " ").trim()}\n`);
    return error instanceof UsageError ? 2 : 1;
  }
}

if (isEntryPoint()) {
  // A command that sets its own status (diff) keeps it; a failure's status replaces it.
  void run(process.argv.slice(2)).then((status) => {
    if (status !== 0) process.exitCode = status;
  });
}
