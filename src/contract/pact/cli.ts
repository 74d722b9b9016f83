// hr-contract pact <file…>: reads Pact files (V2, V3, V4), prints which interactions the contract
// cannot satisfy in the suite's report, writes the suite's JUnit XML and, with --json, the findings
// as JSON; exit 1 on any finding, 2 on bad usage.
import fs from "node:fs";
import { parseArgs } from "node:util";
import { printer, type CliIO } from "../cli-io.js";
import { jsonOf, parseIdsFile } from "../ids-file.js";
import { toJUnit } from "../junit.js";
import { formatReport } from "../report.js";
import { errorCode, prepareReportFile, writeReportFile } from "../report-files.js";
import { checkPact, type PactKey, type PactReport } from "./check.js";
import { keysFileProblem, readKeyEntry } from "../keys-form.js";

export const DEFAULT_PACT_JUNIT = "test-artifacts/pact-junit.xml";

export const PACT_USAGE = `Usage: hr-contract pact <pact-file…> [options]

Checks Pact files (specification V2, V3 or V4) against the bundled OpenAPI contract and reports
every interaction the contract cannot satisfy: an unknown path or method; a query parameter, value
or required parameter the operation does not take; no key where a success is expected; a status
the operation never answers; a body field, type or enum value the schema does not have; and the
rules only this contract knows: a key without the operation's permission expected to succeed, a
record of another organisation expected to be found, a PageSize over the largest page size.
Exit status: 0 nothing found, 1 findings, 2 bad usage or an unreadable file.

Options:
  --junit FILE   where to write JUnit XML (default ${DEFAULT_PACT_JUNIT})
  --json FILE    also write the findings as JSON: { findings: [{ pact, interaction, code, message }], … }
  --keys FILE    the keys the pacts send and their permissions, the mock's keys file form:
                 [{ "key": "...", "label": "...", "permissions": ["Leave: View"] }] (a provider
                 state's params.permissions, as hr-mock export --pact writes, is read without it)
  --ids FILE     the ids file of hr-contract --ids: otherOrganization ids expected to be found are findings
  -h, --help     show this help`;

export async function pactMain(argv: readonly string[], _env: NodeJS.ProcessEnv, io: CliIO): Promise<number> {
  const print = printer(io, "hr-contract pact");
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], allowPositionals: true, options: { junit: { type: "string" }, json: { type: "string" }, keys: { type: "string" }, ids: { type: "string" }, help: { type: "boolean", short: "h" } } });
  } catch (error) {
    return print.fail(`${(error as Error).message} (see --help)`, 2);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    print.out(`${PACT_USAGE}\n`);
    return 0;
  }
  if (positionals.length === 0) return print.fail("name at least one Pact file (see --help)", 2);
  const read = (flag: string, file: string): string | number => {
    try {
      return fs.readFileSync(file, "utf8");
    } catch (error) {
      return print.fail(`${flag}${file}: cannot read it (${errorCode(error)})`, 2);
    }
  };
  const sources = [];
  for (const file of positionals) {
    const text = read("", file);
    if (typeof text === "number") return text;
    sources.push({ name: file, text });
  }
  // The optional files, each parsed, or the one line that says why not.
  const optional = <T>(flag: string, file: string | undefined, parse: (text: string) => T): T | undefined | number => {
    if (file === undefined) return undefined;
    const text = read(`${flag} `, file);
    if (typeof text === "number") return text;
    try {
      return parse(text);
    } catch (error) {
      return print.fail(`${flag} ${file}: ${(error as Error).message}`, 2);
    }
  };
  const keys = optional("--keys", values.keys, parseKeys);
  if (typeof keys === "number") return keys;
  const ids = optional("--ids", values.ids, parseIdsFile);
  if (typeof ids === "number") return ids;
  const report = checkPact(sources, { keys, ids });
  print.out(`${formatReport(report)}\n`);
  const junitFile = values.junit ?? DEFAULT_PACT_JUNIT;
  const outputs = [{ flag: "--junit", file: junitFile, text: toJUnit(report) }, ...(values.json ? [{ flag: "--json", file: values.json, text: pactJson(report) }] : [])];
  for (const { flag, file, text } of outputs) {
    const failed = prepareReportFile(flag, file, "") ?? writeReportFile(flag, file, text);
    if (failed) return print.fail(failed, 2);
  }
  print.note(outputs.map((o) => `${o.flag === "--junit" ? "JUnit XML" : "JSON"} written to ${o.file}`).join(", "));
  return report.exitCode;
}

/** The JSON report: the findings, and the totals. */
export function pactJson(report: PactReport): string {
  const { findings, interactions, exitCode, baseUrl } = report;
  return `${JSON.stringify({ pacts: baseUrl, interactions, findings, exitCode }, null, 2)}\n`;
}

function parseKeys(text: string): PactKey[] {
  const json = jsonOf(text);
  const notAFile = keysFileProblem(json);
  if (notAFile !== undefined) throw new Error(notAFile);
  return (json as unknown[]).map((given, index) => {
    const entry = readKeyEntry(given, "pact");
    if ("problem" in entry) throw new Error(`entry ${index + 1}: ${entry.problem}`);
    return { key: entry.key, label: entry.label, permissions: entry.permissions };
  });
}
