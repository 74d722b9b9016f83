// hr-contract receiver: reads its options, makes sure of the report files, runs checkReceiver
// against the URL, prints the table and writes the reports; the exit status says how it went.
import { printer, type CliIO } from "../cli-io.js";
import { Unreachable } from "../network.js";
import { redactUrl } from "../report.js";
import { prepareReportFile, writeReportFile } from "../report-files.js";
import { checkReceiver } from "./check.js";
import { parseReceiverArgs, RECEIVER_USAGE } from "./options.js";
import { formatReceiverReport, receiverJson, receiverJUnit, receiverNothingChecked } from "./report.js";

export async function receiverMain(argv: readonly string[], env: NodeJS.ProcessEnv, io: CliIO): Promise<number> {
  const print = printer(io, "hr-contract receiver");
  const parsed = parseReceiverArgs(argv, env);
  if (parsed.kind === "help") {
    print.out(`${RECEIVER_USAGE}\n`);
    return 0;
  }
  if (parsed.kind === "error") return print.fail(parsed.message, 2);
  const { url, secret, junitFile, jsonFile } = parsed.options;
  const target = redactUrl(url);

  const files = [{ flag: "--junit", file: junitFile, kind: "junit" as const }, ...(jsonFile ? [{ flag: "--json", file: jsonFile, kind: "json" as const }] : [])];
  const unfinished = receiverNothingChecked(target, "the run did not finish: it was stopped before it wrote its report");
  for (const { flag, file, kind } of files) {
    const unwritable = prepareReportFile(flag, file, unfinished[kind]);
    if (unwritable) return print.fail(`${unwritable}`, 2);
  }
  const writeAll = (texts: { junit: string; json: string }) => {
    for (const { flag, file, kind } of files) {
      const failed = writeReportFile(flag, file, texts[kind]);
      if (failed) return failed;
    }
    return undefined;
  };

  let report;
  try {
    report = await checkReceiver({ url }, { secret });
  } catch (error) {
    const cause = error instanceof Unreachable ? `cannot reach ${target}: ${error.reason}` : `internal error: ${(error as Error).message}`;
    const failed = writeAll(receiverNothingChecked(target, cause));
    print.note(`${cause}`);
    if (failed) print.note(`${failed}`);
    return error instanceof Unreachable || failed ? 2 : 1;
  }

  print.out(`${formatReceiverReport(report)}\n`);
  const failed = writeAll({ junit: receiverJUnit(report), json: receiverJson(report) });
  if (failed) return print.fail(`${failed}`, 2);
  print.note(`${files.map((f) => `${f.flag === "--junit" ? "JUnit XML" : "JSON"} written to ${f.file}`).join(", ")}`);
  return report.ok ? 0 : 1;
}
