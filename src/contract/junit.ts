// JUnit XML for CI, of the API suite and of the receiver check. The API suite: one testsuite per
// area of checks and one for the assumptions; one testcase per check (a violation is a failure, a
// check that could not run is skipped) and per assumption (held passes; did not hold and could not
// tell are skipped with the reason, so only contract violations fail the build). A run that could
// check nothing is one testcase in error naming the cause, so a report publisher shows the cause
// rather than a missing file.
import type { AssumptionResult, CheckResult } from "./results.js";
import type { SuiteReport } from "./report.js";

/** Text safe inside XML attributes and elements; characters XML 1.0 forbids are dropped. */
export function xmlEscape(text: string): string {
  return text
    .replace(/[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

export interface JUnitCase {
  name: string;
  /** A failed testcase: the message. */
  failure?: string;
  /** A testcase that could not run at all: the cause. */
  error?: string;
  skipped?: string;
  out?: string;
  ms?: number;
}

export interface JUnitSuite {
  name: string;
  cases: readonly JUnitCase[];
  /** The type attribute of its failure elements. */
  failureType: string;
}

const seconds = (ms = 0) => (ms / 1000).toFixed(3);
const count = (cases: readonly JUnitCase[], key: "failure" | "error" | "skipped") => cases.filter((c) => c[key] !== undefined).length;

function suiteXml({ name, cases, failureType }: JUnitSuite): string {
  const body = cases.map((c) => {
    const inner = [
      c.failure !== undefined ? `      <failure message="${xmlEscape(c.failure)}" type="${xmlEscape(failureType)}">${xmlEscape(c.failure)}</failure>` : "",
      c.error !== undefined ? `      <error message="${xmlEscape(c.error)}" type="nothing checked">${xmlEscape(c.error)}</error>` : "",
      c.skipped !== undefined ? `      <skipped message="${xmlEscape(c.skipped)}"/>` : "",
      c.out !== undefined ? `      <system-out>${xmlEscape(c.out)}</system-out>` : "",
    ].filter(Boolean);
    const open = `    <testcase classname="${xmlEscape(name)}" name="${xmlEscape(c.name)}" time="${seconds(c.ms)}"`;
    return inner.length ? `${open}>\n${inner.join("\n")}\n    </testcase>` : `${open}/>`;
  });
  const time = seconds(cases.reduce((sum, c) => sum + (c.ms ?? 0), 0));
  return [
    `  <testsuite name="${xmlEscape(name)}" tests="${cases.length}" failures="${count(cases, "failure")}" errors="${count(cases, "error")}" skipped="${count(cases, "skipped")}" time="${time}">`,
    ...body,
    "  </testsuite>",
  ].join("\n");
}

/** A whole JUnit document: the suites under one testsuites element with their totals. */
export function junitDocument(name: string, suites: readonly JUnitSuite[], durationMs: number): string {
  const all = suites.flatMap((s) => s.cases);
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="${xmlEscape(name)}" tests="${all.length}" failures="${count(all, "failure")}" errors="${count(all, "error")}" skipped="${count(all, "skipped")}" time="${seconds(durationMs)}">`,
    ...suites.map(suiteXml),
    `</testsuites>`,
    "",
  ].join("\n");
}

/** The report of a run that checked nothing: one testcase in error naming the cause. */
export function junitNothingChecked(name: string, testcase: string, cause: string): string {
  return junitDocument(name, [{ name, failureType: "nothing checked", cases: [{ name: testcase, error: cause }] }], 0);
}

const checkCase = (c: CheckResult): JUnitCase =>
  c.outcome === "violation" ? { name: c.name, failure: c.detail } : c.outcome === "not checked" ? { name: c.name, skipped: c.detail } : { name: c.name, out: c.detail };

const assumptionCase = (a: AssumptionResult): JUnitCase => {
  const name = `${a.source === "asyncapi" ? "asyncapi " : ""}${a.pointer}: ${a.sentence}`;
  return a.outcome === "held" ? { name, out: `held: ${a.detail}` } : { name, skipped: `${a.outcome}: ${a.detail}`, out: `${a.outcome}: ${a.detail}` };
};

export function toJUnit(report: SuiteReport): string {
  const areas = [...new Set(report.checks.map((c) => c.area))];
  const suites: JUnitSuite[] = areas.map((area) => ({
    name: `contract.${area}`,
    failureType: "contract violation",
    cases: report.checks.filter((c) => c.area === area).map(checkCase),
  }));
  suites.push({ name: "contract.assumptions", failureType: "contract violation", cases: report.assumptions.map(assumptionCase) });
  return junitDocument(`contract ${report.baseUrl}`, suites, report.durationMs);
}
