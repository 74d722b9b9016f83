// JUnit XML of a run, for CI: one testsuite per area of checks and one for the assumptions; one
// testcase per check (a violation is a failure, a check that could not run is skipped) and per
// assumption (held passes; did not hold and could not tell are skipped with the reason, so only
// contract violations fail the build).
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

interface Case {
  name: string;
  failure?: string;
  skipped?: string;
  out?: string;
}

function suite(name: string, cases: readonly Case[]): string {
  const failures = cases.filter((c) => c.failure !== undefined).length;
  const skipped = cases.filter((c) => c.skipped !== undefined).length;
  const body = cases.map((c) => {
    const inner = [
      c.failure !== undefined ? `      <failure message="${xmlEscape(c.failure)}" type="contract violation">${xmlEscape(c.failure)}</failure>` : "",
      c.skipped !== undefined ? `      <skipped message="${xmlEscape(c.skipped)}"/>` : "",
      c.out !== undefined ? `      <system-out>${xmlEscape(c.out)}</system-out>` : "",
    ].filter(Boolean);
    const open = `    <testcase classname="${xmlEscape(name)}" name="${xmlEscape(c.name)}" time="0"`;
    return inner.length ? `${open}>\n${inner.join("\n")}\n    </testcase>` : `${open}/>`;
  });
  return [`  <testsuite name="${xmlEscape(name)}" tests="${cases.length}" failures="${failures}" errors="0" skipped="${skipped}" time="0">`, ...body, "  </testsuite>"].join("\n");
}

const checkCase = (c: CheckResult): Case =>
  c.outcome === "violation" ? { name: c.name, failure: c.detail } : c.outcome === "not checked" ? { name: c.name, skipped: c.detail } : { name: c.name, out: c.detail };

const assumptionCase = (a: AssumptionResult): Case => {
  const name = `${a.source === "asyncapi" ? "asyncapi " : ""}${a.pointer}: ${a.sentence}`;
  return a.outcome === "held" ? { name, out: `held: ${a.detail}` } : { name, skipped: `${a.outcome}: ${a.detail}`, out: `${a.outcome}: ${a.detail}` };
};

export function toJUnit(report: SuiteReport): string {
  const areas = [...new Set(report.checks.map((c) => c.area))];
  const suites = areas.map((area) => suite(`contract.${area}`, report.checks.filter((c) => c.area === area).map(checkCase)));
  suites.push(suite("contract.assumptions", report.assumptions.map(assumptionCase)));
  const tests = report.checks.length + report.assumptions.length;
  const failures = report.checks.filter((c) => c.outcome === "violation").length;
  const skipped = report.checks.filter((c) => c.outcome === "not checked").length + report.assumptions.filter((a) => a.outcome !== "held").length;
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="${xmlEscape(`contract ${report.baseUrl}`)}" tests="${tests}" failures="${failures}" errors="0" skipped="${skipped}" time="${(report.durationMs / 1000).toFixed(3)}">`,
    ...suites,
    `</testsuites>`,
    "",
  ].join("\n");
}
