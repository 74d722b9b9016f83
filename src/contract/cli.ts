#!/usr/bin/env node
// hr-contract (npm run contract in a clone): the live contract suite against any deployment. The
// work is in the modules beside this file; this one reads the command line and files, prints the
// report, writes the JUnit XML and sets the exit status.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Unreachable } from "./network.js";
import { parseIdsFile, type KnownIds } from "./ids-file.js";
import { toJUnit } from "./junit.js";
import { parseArgs, USAGE } from "./options.js";
import { formatReport } from "./report.js";
import { KeyRefused, runContractSuite } from "./suite.js";


/** Where the CLI prints: the process's streams for the bin, a test's own writers in-process. */
export interface CliIO {
  stdout?: { write(text: string): unknown };
  stderr?: { write(text: string): unknown };
}

export async function main(argv: readonly string[], env: NodeJS.ProcessEnv = process.env, io: CliIO = {}): Promise<number> {
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  const fail = (message: string, code: number) => {
    stderr.write(`hr-contract: ${message}\n`);
    return code;
  };
  const parsed = parseArgs(argv, env);
  if (parsed.kind === "help") {
    stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (parsed.kind === "error") return fail(parsed.message, 2);
  const { options } = parsed;

  let ids: KnownIds = {};
  if (options.idsFile) {
    let text: string;
    try {
      text = fs.readFileSync(options.idsFile, "utf8");
    } catch (error) {
      return fail(`--ids ${options.idsFile}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, 2);
    }
    try {
      ids = parseIdsFile(text);
    } catch (error) {
      return fail(`--ids ${options.idsFile}: ${(error as Error).message}`, 2);
    }
  }

  // A JUnit path that cannot be written is bad usage, told before a run of minutes rather than after.
  try {
    const dir = path.dirname(path.resolve(options.junitFile));
    fs.mkdirSync(dir, { recursive: true });
    fs.accessSync(dir, fs.constants.W_OK);
  } catch (error) {
    return fail(`--junit ${options.junitFile}: cannot write there (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, 2);
  }

  let report;
  try {
    report = await runContractSuite({
      baseUrl: options.baseUrl,
      apiKey: options.apiKey,
      ids,
      maxRequests: options.maxRequests,
      requestsPerSecond: options.requestsPerSecond,
      onProgress: (line) => stderr.write(`hr-contract: ${line}\n`),
    });
  } catch (error) {
    if (error instanceof Unreachable || error instanceof KeyRefused) return fail(error.message, 1);
    return fail(`internal error: ${(error as Error).message}`, 1);
  }

  stdout.write(`${formatReport(report)}\n`);
  try {
    fs.writeFileSync(options.junitFile, toJUnit(report));
    stderr.write(`hr-contract: JUnit XML written to ${options.junitFile}\n`);
  } catch (error) {
    return fail(`cannot write --junit ${options.junitFile} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, 1);
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
