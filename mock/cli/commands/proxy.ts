// `hr-mock proxy`: the proxy (app/start-proxy.ts) in front of a deployment, for a frontend's or an
// integration's own traffic: one line per violation as it is seen, the report files written when it
// stops (SIGINT, SIGTERM) and on POST /_proxy/report, exit status 1 when the traffic broke the
// contract. Report paths are made sure of before it starts, so a path that cannot be written is a
// usage mistake told at once. The proxy's module (and Prism with it) loads only once the flags are good.
import fs from "node:fs";
import path from "node:path";
import { junitNothingChecked } from "../../../src/contract/junit.js";
import { errorCode, makeFolders, prepareReportFile, writeReportFile } from "../../../src/contract/report-files.js";
import { PROXY_DEFAULTS, PROXY_PREFIX, upstreamProblem } from "../../app/proxy-options.js";
import { command, readFlags, usage, wholeNumber, nonEmpty, type CommandLine } from "../command.js";

export const PROXY_HELP = `Usage: hr-mock proxy --upstream <url> [options]

Passes every request on to a deployment of the HR service, and its answer back, unchanged (the
key included), and holds each exchange to the contract: the request (a known operation, its
parameters, the key header) and the answer (a documented status, the envelope, headers, the
schema, paging, the filters asked for, details against the list items seen, and the security
rules as far as the deployment's own answers show each key: no key, an unknown key, a missing
permission or another organisation's id let in). One line per
violation as it is seen, naming the operation, request or answer, the rule and the JSON pointer.
The report is written when the proxy stops (Ctrl-C, SIGTERM) and on POST ${PROXY_PREFIX}report;
GET ${PROXY_PREFIX}report answers it. Exit status 1 when a violation was seen or nothing came
through, 0 otherwise. The key and secrets never appear in a line or the report; bodies are
checked and dropped.

Options:
  --upstream <url>        The deployment: http:// or https://, with the path its API sits under.
  --port <n>              Port to listen on, 0 for any free port (default ${PROXY_DEFAULTS.port}).
  --host <h>              Address to bind (default ${PROXY_DEFAULTS.host}).
  --report <file>         The report as JSON: exchanges per operation and status, each distinct
                          violation with its rule, pointer, count and an example request.
  --junit <file>          The report as JUnit XML, for CI.
  --record <file>         The records the answers carried as a data file (YAML, or JSON for a
                          .json file) that "hr-mock serve --data <file>" loads: the same ids and
                          fields; derived values the mock computes otherwise are listed.
  --timeout <ms>          The upstream's answer must start within this, and its body not stall
                          longer (default ${PROXY_DEFAULTS.timeoutMs}); a 504 envelope otherwise.
  --max-body <bytes>      The largest request body passed on (default ${PROXY_DEFAULTS.maxBodyBytes}); a 413 otherwise.
  -h, --help              Show this help.

In CI: start it in the background, run the tests with the proxy's address as the API's base URL,
then stop it with SIGTERM and fail on its exit status (docs: "Check your real traffic").
`;

const FLAGS = {
  upstream: { type: "string" },
  port: { type: "string" },
  host: { type: "string" },
  report: { type: "string" },
  junit: { type: "string" },
  record: { type: "string" },
  timeout: { type: "string" },
  "max-body": { type: "string" },
} as const;

/** The proxy's settings from its flags; every mistake is a UsageError naming the flag. */
function proxyFlags({ values }: CommandLine<typeof FLAGS>) {
  if (values.upstream === undefined) throw usage("proxy", "--upstream is required: the deployment's base URL, such as https://hr.staging.example.com");
  const problem = upstreamProblem(values.upstream);
  if (problem) throw usage("proxy", `--upstream ${problem}`);
  return {
    upstream: values.upstream,
    port: values.port === undefined ? PROXY_DEFAULTS.port : wholeNumber("proxy", "--port", values.port, 0, 65535),
    host: values.host === undefined ? PROXY_DEFAULTS.host : nonEmpty("proxy", "--host", values.host),
    report: values.report === undefined ? undefined : nonEmpty("proxy", "--report", values.report),
    junit: values.junit === undefined ? undefined : nonEmpty("proxy", "--junit", values.junit),
    record: values.record === undefined ? undefined : nonEmpty("proxy", "--record", values.record),
    timeoutMs: values.timeout === undefined ? PROXY_DEFAULTS.timeoutMs : wholeNumber("proxy", "--timeout", values.timeout, 1, 600_000, "milliseconds from 1 to 600000"),
    maxBodyBytes: values["max-body"] === undefined ? PROXY_DEFAULTS.maxBodyBytes : wholeNumber("proxy", "--max-body", values["max-body"], 0, 1024 * 1024 * 1024, "bytes from 0 to 1073741824"),
  };
}

/** The command line as the proxy's settings, or "help" (the guide's test parses its commands with it). */
export function parseProxyArgs(argv: string[]): ReturnType<typeof proxyFlags> | "help" {
  const line = readFlags("proxy", FLAGS, argv);
  return line === "help" ? "help" : proxyFlags(line);
}

/** `stopped` resolves when the proxy should stop; default the first SIGINT or SIGTERM. */
export const proxyCommand = command<typeof FLAGS, { stopped?: Promise<string> }>({ name: "proxy", flags: FLAGS, help: PROXY_HELP }, async (line, io) => {
  const flags = proxyFlags(line);
  // The report files exist before any traffic: a run stopped by a CI timeout still leaves them.
  const placeholder = { report: `${JSON.stringify({ note: "hr-mock proxy was running; it writes its report here when it stops" })}\n`, junit: junitNothingChecked("proxy", "traffic through the proxy", "the proxy did not stop normally, so it wrote no report") };
  for (const [flag, file] of [["--report", flags.report], ["--junit", flags.junit]] as const) {
    const problem = file === undefined ? undefined : prepareReportFile(flag, file, placeholder[flag === "--report" ? "report" : "junit"]);
    if (problem) throw usage("proxy", problem);
  }
  if (flags.record !== undefined) {
    const problem = writableFolder(flags.record);
    if (problem) throw usage("proxy", `--record ${flags.record}: cannot write there (${problem})`);
  }

  const { startProxy } = await import("../../app/start-proxy.js");
  const { formatDataFile } = await import("../../data/format-data-file.js");
  const { summaryLines, proxyJUnit } = await import("../../edges/proxy/report-text.js");
  let writeFailed = false;
  const writeFiles = () => {
    const report = proxy.report();
    const recording = flags.record === undefined ? undefined : proxy.recording();
    const failures = [
      flags.report && writeReportFile("--report", flags.report, `${JSON.stringify(recording ? { ...report, recording: { file: flags.record, records: recording.records, notes: recording.notes, disagreements: recording.disagreements } } : report, null, 2)}\n`),
      flags.junit && writeReportFile("--junit", flags.junit, proxyJUnit(report)),
      recording && flags.record && writeReportFile("--record", flags.record, formatDataFile(recording.file, flags.record.toLowerCase().endsWith(".json") ? "json" : "yaml")),
    ].filter((f): f is string => typeof f === "string" && f !== "");
    for (const failure of failures) io.stderr.write(`hr-mock proxy: ${failure}\n`);
    if (failures.length) writeFailed = true;
    return { report, recording };
  };
  const proxy = await startProxy({
    upstream: flags.upstream,
    port: flags.port,
    host: flags.host,
    timeoutMs: flags.timeoutMs,
    maxBodyBytes: flags.maxBodyBytes,
    record: flags.record !== undefined,
    log: (line) => io.stdout.write(`VIOLATION ${line}\n`),
    onError: (line) => io.stderr.write(`${line}\n`),
    onReportRequest: () => void writeFiles(),
  });
  io.stdout.write(
    [
      `hr-mock proxy: ${proxy.url} -> ${proxy.upstream}, every exchange held to the contract`,
      `  Give your client ${proxy.url} as the API's base URL. Report: GET ${proxy.url}${PROXY_PREFIX}report; Ctrl-C stops.`,
      "",
    ].join("\n"),
  );
  const signal = await (io.stopped ?? untilSignal());
  io.stderr.write(`hr-mock proxy: ${signal}, stopping…\n`);
  await proxy.close();
  const { report, recording } = writeFiles();
  io.stdout.write(`${summaryLines(report).join("\n")}\n`);
  if (recording) {
    io.stdout.write(`Recorded ${Object.entries(recording.records).map(([kind, n]) => `${n} ${kind}`).join(", ")} into ${flags.record}; ${recording.disagreements.length} disagreement(s) with the data file's rules${recording.disagreements.length ? (flags.report ? ` (listed in ${flags.report})` : ":") : ""}\n`);
    const shown = flags.report ? [] : recording.disagreements;
    for (const line of [...recording.notes, ...shown]) io.stdout.write(`  ${line}\n`);
  }
  return writeFailed ? 1 : report.exitCode;
});

function untilSignal(): Promise<string> {
  return new Promise((resolve) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) process.exit(130); // a second Ctrl-C does not wait
      stopping = true;
      resolve(signal);
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}

/** Why a file cannot be written at `file`, or undefined (its folders are made). */
function writableFolder(file: string): string | undefined {
  try {
    const dir = path.dirname(path.resolve(file));
    makeFolders(dir);
    fs.accessSync(dir, fs.constants.W_OK);
    return undefined;
  } catch (error) {
    return errorCode(error);
  }
}
