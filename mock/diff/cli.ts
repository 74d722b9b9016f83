// `hr-mock diff [<base> [<head>]]` (npm run diff -- ... in a clone): compares two versions of the bundled
// contract and fails on a breaking change nobody acknowledged (exit codes: USAGE).
import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { describeParseError } from "../kernel/parse-error.js";
import { AcknowledgementsError, applyAcknowledgements, parseAcknowledgements, type Acknowledgement } from "./acknowledgements.js";
import { formatJson, formatText } from "./format.js";
import { LoadError, loadContract, loadFolder, loadOwnContract } from "./load.js";
import { ACKNOWLEDGEMENTS_FILE, listReleases, RELEASES_DIR } from "./releases.js";

export const USAGE = `Usage: hr-mock diff [<base> [<head>]] [--ack FILE] [--format text|json]
       (in a clone of the repository: npm run diff -- [<base> [<head>]] [options])

Compares the bundled contract (OpenAPI read API and webhooks, AsyncAPI events, x-assumption marks)
of <base> with <head> and lists every change as breaking, non-breaking or info.

  <base>, <head>   a git ref (v0.1.0, origin/main, HEAD~1), a packed tarball (npm pack's .tgz) or a
                   folder holding openapi.json and asyncapi.json (or generated/, dist/generated/).
                   <head> defaults to this package's own bundles (in the repository: generated/).
                   <base> defaults to $CONTRACT_BASE, else the last release recorded in
                   ${RELEASES_DIR}/<version>/ of the current folder.
  --ack FILE       acknowledged breaking changes: {"acknowledged": [{"change": "<id>", "reason": "..."}]}
                   (default ${RELEASES_DIR}/${ACKNOWLEDGEMENTS_FILE} when it exists). An id is the text
                   a change line prints between its kind and " — ".
  --format         text (default) or json.

In a clone, <head>'s default is generated/ as npm run generate last wrote it: when a document under
openapi/ or asyncapi/ changed since, the diff refuses, naming the stale bundle and the changed files.

Exit codes: 0 no breaking change that is not acknowledged; 1 one or more; 2 bad usage, a contract
or acknowledgements file that cannot be read, or bundles in generated/ older than the documents.`;

export interface CliIo {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Where this package's own bundles are (<head>'s default); the package's generated/ unless a test says otherwise. */
  ownGenerated?: string;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

const defaultIo = (): CliIo => ({
  cwd: process.cwd(),
  env: process.env,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});

class UsageError extends Error {}

async function baseSource(positional: string | undefined, io: CliIo) {
  if (positional) return loadContract(positional, io.cwd);
  if (io.env.CONTRACT_BASE) return loadContract(io.env.CONTRACT_BASE, io.cwd);
  const last = (await listReleases(path.join(io.cwd, RELEASES_DIR))).at(-1);
  if (!last) throw new UsageError(`no <base> given, no $CONTRACT_BASE, and no release recorded in ${RELEASES_DIR}/`);
  return loadFolder(last.dir, `release ${last.version}`);
}

async function readAcknowledgements(file: string | undefined, io: CliIo): Promise<Acknowledgement[]> {
  const target = path.resolve(io.cwd, file ?? path.join(RELEASES_DIR, ACKNOWLEDGEMENTS_FILE));
  let text: string;
  try {
    text = await fs.readFile(target, "utf8");
  } catch (error) {
    if (!file && (error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw new AcknowledgementsError(`--ack ${file ?? target}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  return parseAcknowledgements(text, file ?? path.relative(io.cwd, target));
}

export async function main(argv: string[], io: CliIo = defaultIo()): Promise<number> {
  try {
    let parsed;
    try {
      parsed = parseArgs({
        args: argv,
        allowPositionals: true,
        options: { ack: { type: "string" }, format: { type: "string", default: "text" }, help: { type: "boolean", short: "h" } },
      });
    } catch (error) {
      throw new UsageError(describeParseError(error as NodeJS.ErrnoException, argv));
    }
    const { values, positionals } = parsed;
    if (values.help) {
      io.stdout(`${USAGE}\n`);
      return 0;
    }
    if (positionals.length > 2) throw new UsageError(`at most two contracts, <base> and <head>; got ${positionals.length}`);
    if (values.format !== "text" && values.format !== "json") throw new UsageError(`--format must be text or json, not ${values.format}`);
    const [base, head, acknowledgements] = await Promise.all([
      baseSource(positionals[0], io),
      positionals[1] ? loadContract(positionals[1], io.cwd) : loadOwnContract(io.ownGenerated),
      readAcknowledgements(values.ack, io),
    ]);
    // The diff libraries (api-smart-diff, @asyncapi/diff) load once there is something to compare: not for --help.
    const { compareContracts } = await import("./compare.js");
    const diff = compareContracts(base, head);
    const gate = applyAcknowledgements(diff.changes, acknowledgements);
    io.stdout(`${values.format === "json" ? formatJson(diff, gate) : formatText(diff, gate)}\n`);
    return gate.unacknowledged.length ? 1 : 0;
  } catch (error) {
    if (error instanceof UsageError || error instanceof LoadError || error instanceof AcknowledgementsError) {
      io.stderr(`hr-mock diff: ${error.message}${error instanceof UsageError ? " (see hr-mock diff --help)" : ""}\n`);
      return 2;
    }
    // Anything else is a defect, still reported as one line rather than a stack trace.
    io.stderr(`hr-mock diff: unexpected failure: ${error instanceof Error ? error.message : String(error)}`.split("\n")[0] + "\n");
    return 2;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
