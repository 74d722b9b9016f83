// The proxy's report as people and CI read it: the JUnit document and the lines printed when it
// stops. In the JUnit, a failing testcase is a distinct violation and nothing else: each operation
// seen is a passing testcase with its counts, what was not checked (by reason, and the answers the
// proxy gave itself) a skipped one, so a CI's tally of failures is the count of distinct violations;
// a run that saw nothing is one testcase in error, as for the contract suite.
import { most } from "../../../src/contract/hints.js";
import { junitDocument, type JUnitCase } from "../../../src/contract/junit.js";
import type { ProxyReport, ViolationEntry } from "./tally.js";

const SUITE = "proxy";

const statuses = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([status, n]) => `${status}: ${n}`)
    .join(", ");

const violationName = (v: ViolationEntry) => `${v.operation} ${v.side} ${v.rule}${v.pointer ? ` ${v.pointer}` : ""}`;
const violationText = (v: ViolationEntry) => `${v.message} (${v.count} time${v.count === 1 ? "" : "s"}; first: ${v.example.method} ${v.example.target} → ${v.example.status ?? "no answer"})`;

export function proxyJUnit(report: ProxyReport): string {
  const durationMs = Date.parse(report.reportedAt) - Date.parse(report.startedAt);
  const name = `${SUITE} ${report.upstream}`;
  if (report.exchanges.total === 0) {
    return junitDocument(name, [{ name: SUITE, failureType: "nothing checked", cases: [{ name: "traffic through the proxy", error: nothingSeen(report) }] }], durationMs);
  }
  const operations: JUnitCase[] = Object.entries(report.exchanges.byOperation).map(([operation, counts]) => {
    const broken = report.violations.listed.filter((v) => v.operation === operation).length;
    const out = `${Object.values(counts).reduce((a, b) => a + b, 0)} exchanges (${statuses(counts)})${broken ? `; ${broken} distinct violation(s), each a testcase of ${SUITE}.violations` : ""}`;
    return { name: operation, out };
  });
  const violations: JUnitCase[] = report.violations.listed.map((v) => ({ name: violationName(v), failure: violationText(v) }));
  if (report.violations.notListed > 0) violations.push({ name: "violations not listed", failure: `${report.violations.notListed} more distinct violations (the report lists ${report.violations.listed.length})` });
  const notChecked: JUnitCase[] = [
    ...Object.entries(report.exchanges.answeredByProxy).map(([status, n]) => ({ name: `answered by the proxy with ${status}`, skipped: `${n} time(s) the upstream gave no answer, so the proxy answered ${status} itself` })),
    ...Object.entries(report.exchanges.notChecked).map(([why, n]) => ({ name: `not checked: ${why}`, skipped: `${n} exchange(s) passed on unchecked: ${why}` })),
  ];
  return junitDocument(name, [
    { name: `${SUITE}.operations`, failureType: "contract violation", cases: operations },
    { name: `${SUITE}.violations`, failureType: "contract violation", cases: violations },
    ...(notChecked.length ? [{ name: `${SUITE}.not-checked`, failureType: "contract violation", cases: notChecked }] : []),
  ], durationMs);
}

function nothingSeen(report: ProxyReport): string {
  const skipped = Object.entries(report.exchanges.notChecked).map(([why, n]) => `${n} ${why}`);
  return `no exchange with ${report.upstream} came through the proxy, so nothing was checked${skipped.length ? ` (passed on unchecked: ${skipped.join("; ")})` : ""}`;
}

/**
 * One cause behind most of the traffic's violations, when the report shows one: the client's paths
 * carry a prefix the contract's do not (its base URL names the upstream's path), or the upstream's
 * answers are not the service's JSON (it is not the HR API).
 */
export function proxyHint(report: ProxyReport): string | undefined {
  const total = Object.values(report.exchanges.byOperation).reduce((sum, counts) => sum + Object.values(counts).reduce((a, b) => a + b, 0), 0);
  // Requests no operation matched are counted under "METHOD /path"; the contract's paths start at /v1/.
  const unrouted = Object.entries(report.exchanges.byOperation).filter(([label]) => label.includes(" "));
  const prefixes = new Set(unrouted.map(([label]) => /^\S+ (\/.*?)\/v1\//.exec(label)?.[1]));
  const unroutedCount = unrouted.reduce((sum, [, counts]) => sum + Object.values(counts).reduce((a, b) => a + b, 0), 0);
  const [prefix] = prefixes;
  if (most(unroutedCount, total) && prefixes.size === 1 && prefix !== undefined) {
    return `${unroutedCount} of ${total} requests named no operation, all under ${prefix}/v1/: give that path in --upstream (…${prefix}) and the client the proxy's address without it`;
  }
  const answered = (rule: string) => report.violations.listed.filter((v) => v.side === "answer" && v.rule === rule).reduce((sum, v) => sum + v.count, 0);
  const notJson = answered("json");
  if (most(notJson, total)) return `${notJson} of ${total} answers were not JSON: --upstream probably points at a web page or another service, not the HR API`;
  const bare = answered("envelope");
  if (most(bare, total)) return `${bare} of ${total} answers were JSON without the service's envelope: --upstream probably points at another API`;
  return undefined;
}

/** The lines printed when the proxy stops: totals, the hint when there is one, then the result. */
export function summaryLines(report: ProxyReport): string[] {
  const { exchanges, violations } = report;
  const lines = [`${exchanges.total} exchanges with ${report.upstream}`];
  for (const [operation, counts] of Object.entries(exchanges.byOperation)) lines.push(`  ${operation}: ${statuses(counts)}`);
  if (Object.keys(exchanges.answeredByProxy).length) lines.push(`  answered by the proxy (no answer from the upstream): ${statuses(exchanges.answeredByProxy)}`);
  for (const [why, n] of Object.entries(exchanges.notChecked)) lines.push(`  not checked: ${n} (${why})`);
  const hint = violations.total > 0 ? proxyHint(report) : undefined;
  if (hint) lines.push(`HINT: ${hint}`);
  if (exchanges.total === 0) lines.push(`RESULT: ${nothingSeen(report)}`);
  else if (violations.total === 0) lines.push("RESULT: no contract violation in the traffic seen");
  else lines.push(`RESULT: ${violations.total} contract violation(s), ${violations.distinct} distinct`);
  return lines;
}
