// `hr-mock`: the mock's command line. Each command is a module of commands/, loaded only when it
// runs (so `hr-mock --help` and a command that serves nothing never load Prism or the dataset); the
// scaffold they share is command.ts. Every mistake is one line on stderr and exit status 2, every
// failure to run one line and exit status 1: "hr-mock <command>: <what>".
import { DataFileError } from "../data/data-file.js";
import { JSON_LINES, UsageError, type CommandIO, type Output } from "./command.js";
import { jsonLine } from "../kernel/operator-log.js";
import { shown } from "../kernel/parse-error.js";

/** A command: one line for hr-mock --help, and how to run it (its module, loaded then). */
interface CommandEntry {
  summary: string;
  run: () => Promise<(argv: string[], io: CommandIO) => Promise<number | void>>;
}

const COMMANDS: Record<string, CommandEntry> = {
  serve: { summary: "Serve the mock API (the default when no command is given).", run: async () => (await import("./commands/serve.js")).serveCommand },
  receive: { summary: "Run a local webhook receiver that verifies signed deliveries.", run: async () => (await import("./commands/receive.js")).receiveCommand },
  trigger: { summary: "Send a webhook event through a running mock.", run: async () => (await import("./commands/trigger.js")).triggerCommand },
  resend: { summary: "Send events of a running mock's delivery log again, by id or by filter.", run: async () => (await import("./commands/resend.js")).resendCommand },
  scenario: { summary: "Run a scenario file's triggers in order through a running mock.", run: async () => (await import("./commands/scenario.js")).scenarioCommand },
  export: { summary: "Write the dataset (seeded, from a data file, or a running mock's) as a data file.", run: async () => (await import("./commands/export.js")).exportCommand },
  proxy: { summary: "Pass traffic on to a deployment, checking every exchange against the contract.", run: async () => (await import("./commands/proxy.js")).proxyCommand },
  coverage: { summary: "Report what a running mock's requests covered of the contract; exit 1 below --min.", run: async () => (await import("./commands/coverage.js")).coverageCommand },
  diff: { summary: "Compare two versions of the contract; exit 1 on an unacknowledged breaking change.", run: async () => (await import("./commands/diff.js")).diffCommand },
};

/** The commands, in the order --help lists them. */
export const COMMAND_NAMES: readonly string[] = Object.keys(COMMANDS);

export const HELP = `Usage: hr-mock <command> [options]

Commands:
${Object.entries(COMMANDS)
  .map(([name, { summary }]) => `  ${name.padEnd(10)} ${summary}`)
  .join("\n")}

Run "hr-mock <command> --help" for a command's options.
`;

/** The command a command line names ("serve" when it names none), and the rest of it. */
function commandOf(argv: string[]): { name: string; rest: string[] } {
  const [first, ...rest] = argv;
  const named = first !== undefined && !first.startsWith("-");
  return named ? { name: first, rest } : { name: "serve", rest: argv };
}

/** Runs a command line; answers the exit status. Mistakes and failures are thrown as one-line errors. */
export async function main(argv: string[], io: CommandIO): Promise<number> {
  const [first] = argv;
  if (first === "--help" || first === "-h" || first === "help") {
    io.stdout.write(HELP);
    return 0;
  }
  const { name, rest } = commandOf(argv);
  const entry = COMMANDS[name];
  if (!entry) throw new TopLevelError(`unknown command ${shown(name)} (commands: ${Object.keys(COMMANDS).join(", ")}; see hr-mock --help)`);
  const command = await entry.run();
  return (await command(rest, io)) ?? 0;
}

/** A mistake before any command runs (an unknown command): "hr-mock: …", exit status 2. */
class TopLevelError extends UsageError {}

/**
 * Runs a command line as the bin does: every failure is one line on `stderr` (one per problem of a
 * data file), and the answer is the exit status (2 for a usage mistake, 1 for a failure to run).
 */
export async function run(
  argv: string[],
  stderr: (text: string) => void = (text) => void process.stderr.write(text),
  stdout: Output = process.stdout,
  fetchImpl: typeof fetch = fetch,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<number> {
  const prefix = (error: unknown) => (error instanceof TopLevelError ? "hr-mock" : `hr-mock ${commandOf(argv).name}`);
  try {
    return await main(argv, { stdout, stderr: { write: stderr }, fetch: fetchImpl, env });
  } catch (error: unknown) {
    const json = (error as { [JSON_LINES]?: boolean })?.[JSON_LINES] === true;
    const say = (text: string) => {
      const line = `${prefix(error)}: ${text.replace(/\s+/g, " ").trim()}`;
      stderr(`${json ? jsonLine("error", "error", line, {}, Date.now()) : line}\n`);
    };
    if (error instanceof DataFileError) {
      for (const line of error.lines) say(line);
      return 1;
    }
    say(missingLibrary(error) ?? (error instanceof Error ? error.message : String(error)));
    return error instanceof UsageError ? 2 : 1;
  }
}

/** What to install when a command's module cannot load a library the mock depends on. */
function missingLibrary(error: unknown): string | undefined {
  if ((error as NodeJS.ErrnoException)?.code !== "ERR_MODULE_NOT_FOUND") return undefined;
  const name = /Cannot find package '([^']+)'/.exec(String((error as Error).message))?.[1];
  return name
    ? `the library ${name} is missing; install it with "npm install ${name}", or reinstall hr-service-mock, which depends on it`
    : `this installation of hr-service-mock is incomplete (${String((error as Error).message).split("\n")[0]}); reinstall it`;
}
