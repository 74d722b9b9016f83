// The terminal report: violations first, then the assumptions, the checks that could not run and
// the passed checks, one line each, and the totals at the end (with the hint, when one cause
// explains most violations, just before the result).
import type { AssumptionOutcome, AssumptionResult, CheckOutcome, CheckResult } from "./results.js";
import type { CoverageReport } from "../coverage/report.js";

export interface SuiteTotals {
  checks: Record<CheckOutcome, number>;
  assumptions: Record<AssumptionOutcome, number>;
  requests: number;
}

export interface SuiteReport {
  /** The base URL without any credentials it might carry. */
  baseUrl: string;
  checks: CheckResult[];
  assumptions: AssumptionResult[];
  totals: SuiteTotals;
  durationMs: number;
  /** 1 when the contract was violated, else 0 (assumptions that differ do not count). */
  exitCode: 0 | 1;
  /** What the suite's requests covered of the read API (runContractSuite always sets it; --coverage writes it). */
  coverage?: CoverageReport;
  /** One cause behind most violations, when the answers show one (the base URL is not the API). */
  hint?: string;
  /** The first line, when the report is not of a deployment (hr-contract pact: the files checked). */
  heading?: string;
  /** The last line when nothing was violated and everything was checked, in place of the deployment's. */
  keptLine?: string;
}

export function totalsOf(checks: readonly CheckResult[], assumptions: readonly AssumptionResult[], requests: number): SuiteTotals {
  const count = <K extends string>(keys: readonly K[], values: readonly K[]) =>
    Object.fromEntries(keys.map((k) => [k, values.filter((v) => v === k).length])) as Record<K, number>;
  return {
    checks: count(["passed", "violation", "not checked"], checks.map((c) => c.outcome)),
    assumptions: count(["held", "did not hold", "could not tell"], assumptions.map((a) => a.outcome)),
    requests,
  };
}

/** A URL safe to print: no user name or password. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = "";
    parsed.password = "";
    return parsed.toString().replace(/\/$/, "");
  } catch {
    return url;
  }
}

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

const checkLine = (c: CheckResult) => `  [${c.area}] ${oneLine(c.name)} — ${oneLine(c.detail)}`;

const ASSUMPTION_ORDER: AssumptionOutcome[] = ["did not hold", "could not tell", "held"];

/** The last line: a pass is claimed only for what was checked. */
export function resultLine(report: Pick<SuiteReport, "exitCode" | "totals" | "keptLine">): string {
  const { violation, "not checked": notChecked } = report.totals.checks;
  if (report.exitCode !== 0) return `RESULT: ${violation} contract violation(s)`;
  if (notChecked === 0) return report.keptLine ?? "RESULT: the deployment keeps the contract";
  return `RESULT: no contract violation in what was checked; ${notChecked} check(s) could not run (see NOT CHECKED)`;
}

export function formatReport(report: SuiteReport): string {
  const { checks, assumptions, totals } = report;
  const lines: string[] = [];
  lines.push(report.heading ?? `Contract suite against ${report.baseUrl}: ${totals.requests} requests in ${(report.durationMs / 1000).toFixed(1)} s`, "");

  const violations = checks.filter((c) => c.outcome === "violation");
  lines.push(`VIOLATIONS (${violations.length})`);
  lines.push(...(violations.length ? violations.map(checkLine) : ["  none"]), "");

  lines.push(`ASSUMPTIONS (${assumptions.length}): ${totals.assumptions.held} held, ${totals.assumptions["did not hold"]} did not hold, ${totals.assumptions["could not tell"]} could not tell`);
  for (const outcome of ASSUMPTION_ORDER) {
    for (const a of assumptions.filter((x) => x.outcome === outcome)) {
      lines.push(`  ${outcome.toUpperCase().padEnd(14)} ${a.source === "asyncapi" ? "asyncapi " : ""}${a.pointer} "${oneLine(a.sentence)}" — ${oneLine(a.detail)}`);
    }
  }
  lines.push("");

  const skipped = checks.filter((c) => c.outcome === "not checked");
  lines.push(`NOT CHECKED (${skipped.length})`);
  lines.push(...(skipped.length ? skipped.map(checkLine) : ["  none"]), "");

  const passedChecks = checks.filter((c) => c.outcome === "passed");
  lines.push(`PASSED CHECKS (${passedChecks.length})`);
  lines.push(...passedChecks.map(checkLine), "");

  lines.push(
    `TOTALS: ${totals.checks.passed} passed, ${totals.checks.violation} violations, ${totals.checks["not checked"]} not checked; ` +
      `assumptions ${totals.assumptions.held} held, ${totals.assumptions["did not hold"]} did not hold, ${totals.assumptions["could not tell"]} could not tell; ` +
      `${totals.requests} requests`,
  );
  if (report.hint) lines.push(`HINT: ${report.hint}`);
  lines.push(resultLine(report));
  return lines.join("\n");
}
