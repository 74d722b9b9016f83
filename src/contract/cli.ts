#!/usr/bin/env node
// hr-contract (npm run contract in a clone): the live contract suite against any deployment, and
// `hr-contract receiver` (receiver/cli.ts), the check of a webhook receiver. The work is in the
// modules beside this file; this one reads the command line and files, prints the report, writes
// the JUnit XML and sets the exit status.
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { printer, type CliIO } from "./cli-io.js";
import { parseIdsFile, type KnownIds } from "./ids-file.js";
import { junitNothingChecked, toJUnit } from "./junit.js";
import { Unreachable } from "./network.js";
import { parseArgs, USAGE } from "./options.js";
import { receiverMain } from "./receiver/cli.js";
import { pactMain } from "./pact/cli.js";
import { formatReport, redactUrl } from "./report.js";
import { errorCode, prepareReportFile, writeReportFile } from "./report-files.js";
import { KeyRefused, runContractSuite, WrongBaseUrl } from "./suite.js";

export type { CliIO };

const SUITE_NAME = "contract";

/** hr-contract's commands beside the suite itself (`hr-contract --base-url …`): a first word naming one runs it. */
export const COMMANDS: Readonly<Record<string, (argv: readonly string[], env: NodeJS.ProcessEnv, io: CliIO) => Promise<number>>> = { receiver: receiverMain, pact: pactMain };

export async function main(argv: readonly string[], env: NodeJS.ProcessEnv = process.env, io: CliIO = {}): Promise<number> {
  const command = argv[0] !== undefined && Object.hasOwn(COMMANDS, argv[0]) ? COMMANDS[argv[0]] : undefined;
  if (command) return command(argv.slice(1), env, io);
  const print = printer(io);
  const parsed = parseArgs(argv, env);
  if (parsed.kind === "help") {
    print.out(`${USAGE}\n`);
    return 0;
  }
  if (parsed.kind === "error") return print.fail(parsed.message, 2);
  const { options } = parsed;

  // A JUnit path that cannot be written is bad usage, told before a run of minutes rather than after.
  const nothing = (cause: string) => junitNothingChecked(`${SUITE_NAME} ${redactUrl(options.baseUrl)}`, "the contract suite ran", cause);
  const unwritable = prepareReportFile("--junit", options.junitFile, nothing("the run did not finish: it was stopped before it wrote its report"));
  if (unwritable) return print.fail(unwritable, 2);
  // The coverage file is made sure of too, then left empty until the run has a report to write.
  const coverageUnwritable = options.coverageFile === undefined ? undefined : prepareReportFile("--coverage", options.coverageFile, "");
  if (coverageUnwritable) return print.fail(coverageUnwritable, 2);
  // From here on every outcome is in the JUnit file, a run that checked nothing as an error naming the cause.
  const nothingChecked = (cause: string, code: number) => {
    // Nothing was covered: no coverage file rather than an empty one.
    if (options.coverageFile !== undefined) fs.rmSync(options.coverageFile, { force: true });
    const failed = writeReportFile("--junit", options.junitFile, nothing(cause));
    print.note(cause);
    return failed ? print.fail(failed, 2) : code;
  };

  let ids: KnownIds = {};
  if (options.idsFile) {
    let text: string;
    try {
      text = fs.readFileSync(options.idsFile, "utf8");
    } catch (error) {
      return nothingChecked(`--ids ${options.idsFile}: cannot read it (${errorCode(error)})`, 2);
    }
    try {
      ids = parseIdsFile(text);
    } catch (error) {
      return nothingChecked(`--ids ${options.idsFile}: ${(error as Error).message}`, 2);
    }
  }

  let report;
  try {
    report = await runContractSuite({
      baseUrl: options.baseUrl,
      apiKey: options.apiKey,
      ids,
      maxRequests: options.maxRequests,
      requestsPerSecond: options.requestsPerSecond,
      clock: io.clock,
      onProgress: (line) => print.note(line),
    });
  } catch (error) {
    if (error instanceof Unreachable || error instanceof KeyRefused || error instanceof WrongBaseUrl) return nothingChecked(error.message, 1);
    return nothingChecked(`internal error: ${(error as Error).message}`, 1);
  }

  print.out(`${formatReport(report)}\n`);
  const failed = writeReportFile("--junit", options.junitFile, toJUnit(report));
  if (failed) return print.fail(failed, 1);
  print.note(`JUnit XML written to ${options.junitFile}`);
  if (options.coverageFile !== undefined && report.coverage) {
    const failedCoverage = writeReportFile("--coverage", options.coverageFile, `${JSON.stringify(report.coverage, null, 2)}\n`);
    if (failedCoverage) return print.fail(failedCoverage, 1);
    print.note(`coverage written to ${options.coverageFile}: ${report.coverage.api.exercised} of ${report.coverage.api.total} operations (${report.coverage.api.percent}%)`);
  }
  return report.exitCode;
}

/** True when this file is the program (npm's bin links are symlinks, so paths are compared resolved). */
function invokedDirectly(): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return fs.realpathSync(script) === fs.realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (invokedDirectly()) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error) => {
      process.stderr.write(`hr-contract: internal error: ${(error as Error).message}\n`);
      process.exitCode = 1;
    },
  );
}
