// The proxy's JUnit as a CI's test report reads it: one failing testcase per distinct violation and
// nothing else failing (an operation's testcase passes with its counts, whatever its violations),
// what was not checked a skipped testcase with its reason, a run that saw nothing one testcase in error.
import { describe, expect, it } from "vitest";
import { proxyJUnit } from "../../mock/edges/proxy/report-text.js";
import { createTally, type Violation } from "../../mock/edges/proxy/tally.js";

/** The totals of the testsuites element, and each testcase's name and outcome. */
function read(xml: string) {
  const totals = /<testsuites [^>]*tests="(\d+)" failures="(\d+)" errors="(\d+)" skipped="(\d+)"/.exec(xml)!.slice(1).map(Number);
  const cases = [...xml.matchAll(/<testcase classname="([^"]*)" name="([^"]*)"[^>]*?(\/>|>([\s\S]*?)<\/testcase>)/g)].map((m) => {
    const inner = m[4] ?? "";
    const outcome = inner.includes("<failure") ? "failure" : inner.includes("<error") ? "error" : inner.includes("<skipped") ? "skipped" : "passed";
    return `${m[1]} | ${m[2]} | ${outcome}`;
  });
  return { tests: totals[0], failures: totals[1], errors: totals[2], skipped: totals[3], cases };
}

const example = { method: "GET", target: "/v1/leaverequest/list", status: 200 };
const violation = (operation: string, rule: string, pointer = ""): Violation => ({ operation, side: "answer", rule, pointer, message: `${rule} broken` });

describe("the proxy's JUnit", () => {
  it("fails one testcase per distinct violation and nothing else", () => {
    const tally = createTally({ upstream: "https://hr.example.com", maxListed: 1000, now: () => new Date(0) });
    const operations = ["listLeaveRequests", "getLeaveRequest", "listDepartments", "getDepartment", "listLeaveTypes", "listEmployees"];
    for (const op of operations) tally.exchange(op, 200);
    const broken = [violation("listLeaveRequests", "paging", "/data/totalPages"), violation("listLeaveRequests", "schema.type", "/data/data/1/days"), violation("getLeaveRequest", "details", "/data/comments"), violation("listDepartments", "security.no-key"), violation("getDepartment", "security.organisation")];
    // Each seen twice: a repeat is counted, not a testcase of its own.
    for (const v of [...broken, ...broken]) tally.violation(v, example);
    tally.answeredByProxy(504);
    tally.notChecked("answers whose body stalled for 30 seconds (--timeout) and was cut off");

    const junit = read(proxyJUnit(tally.report()));
    expect(junit, junit.cases.join("\n")).toMatchObject({ tests: operations.length + broken.length + 2, failures: broken.length, errors: 0, skipped: 2 });
    expect(junit.cases.filter((c) => c.endsWith("| failure"))).toEqual(broken.map((v) => `proxy.violations | ${v.operation} answer ${v.rule}${v.pointer ? ` ${v.pointer}` : ""} | failure`));
    expect(junit.cases.filter((c) => c.startsWith("proxy.operations"))).toEqual(operations.sort().map((op) => `proxy.operations | ${op} | passed`));
    expect(junit.cases.filter((c) => c.endsWith("| skipped"))).toEqual([
      "proxy.not-checked | answered by the proxy with 504 | skipped",
      "proxy.not-checked | not checked: answers whose body stalled for 30 seconds (--timeout) and was cut off | skipped",
    ]);
  });

  it("is one testcase in error when nothing came through", () => {
    const tally = createTally({ upstream: "https://hr.example.com", maxListed: 1000, now: () => new Date(0) });
    expect(read(proxyJUnit(tally.report()))).toMatchObject({ tests: 1, failures: 0, errors: 1, cases: ["proxy | traffic through the proxy | error"] });
  });
});
