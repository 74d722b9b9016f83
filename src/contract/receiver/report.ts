// The receiver check's outputs: a table for the terminal (every case with its status and time; a
// failed case also says the rule and what came back; the hint, when one cause explains most
// failures, once before the result), JUnit XML (one testcase per case, a failure naming the rule
// and the answer), and JSON.
import { junitDocument, junitNothingChecked } from "../junit.js";
import type { ReceiverCaseResult, ReceiverReport } from "./check.js";

const SUITE = "receiver";
const mark = (c: ReceiverCaseResult) => (c.kind === "information" ? "info" : c.ok ? "pass" : "FAIL");
const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

/** The line that sums a run up. */
export function receiverResultLine(report: ReceiverReport): string {
  const rules = report.cases.filter((c) => c.kind === "rule");
  const failed = rules.filter((c) => !c.ok).length;
  return failed === 0
    ? `RESULT: the receiver follows the provider's rules in all ${rules.length} cases`
    : `RESULT: ${failed} of ${rules.length} rule cases failed`;
}

export function formatReceiverReport(report: ReceiverReport): string {
  const nameWidth = Math.max(4, ...report.cases.map((c) => c.name.length));
  const lines = [`Receiver check of ${report.target}: ${report.cases.length} cases in ${(report.durationMs / 1000).toFixed(1)} s`, ""];
  lines.push(`${"RESULT".padEnd(6)}  ${"STATUS".padStart(6)}  ${"TIME".padStart(8)}  ${"CASE".padEnd(nameWidth)}  WHAT CAME BACK`);
  for (const c of report.cases) {
    lines.push(`${mark(c).padEnd(6)}  ${String(c.status ?? "-").padStart(6)}  ${`${c.ms} ms`.padStart(8)}  ${c.name.padEnd(nameWidth)}  ${oneLine(c.reason)}`);
    if (!c.ok) lines.push(`${" ".repeat(30)}rule: ${oneLine(c.rule)}`);
  }
  lines.push("");
  if (report.hint) lines.push(`HINT: ${report.hint}`);
  lines.push(receiverResultLine(report));
  return lines.join("\n");
}

export function receiverJUnit(report: ReceiverReport): string {
  const cases = report.cases.map((c) => ({
    name: c.name,
    ms: c.ms,
    ...(c.ok ? { out: `${c.kind === "information" ? "information: " : ""}${c.reason}` } : { failure: `${c.reason} (rule: ${c.rule})` }),
  }));
  return junitDocument(`${SUITE} ${report.target}`, [{ name: SUITE, failureType: "receiver rule", cases }], report.durationMs);
}

export function receiverJson(report: ReceiverReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

/** The reports of a run that checked nothing (or has not finished): the cause in each. */
export function receiverNothingChecked(target: string, cause: string): { junit: string; json: string } {
  return {
    junit: junitNothingChecked(`${SUITE} ${target}`, "the receiver check ran", cause),
    json: `${JSON.stringify({ ok: false, target, error: cause, cases: [] }, null, 2)}\n`,
  };
}
