// The proxy's report as CI and people read it. The JUnit: one failing testcase per distinct violation
// and nothing else failing (an operation's testcase passes with its counts, whatever its violations),
// what was not checked a skipped testcase with its reason, a run that saw nothing one testcase in
// error. The lines at stop: a hint, once, when one cause explains most of the violations.
import { describe, expect, it } from "vitest";
import { proxyJUnit, summaryLines } from "../../mock/edges/proxy/report-text.js";
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

describe("the hint at stop", () => {
  type Seen = [label: string, status: number, rule?: string];
  const cases: [string, { given: Seen[]; want: RegExp | undefined }][] = [
    [
      "the client's base URL carries the upstream's path",
      { given: [["GET /api/v1/leavetype/list", 404, "operation"], ["GET /api/v1/leaverequest/list", 404, "operation"], ["listLeaveTypes", 200]], want: /^HINT: 2 of 3 requests named no operation, all under \/api\/v1\/: give that path in --upstream \(…\/api\) and the client the proxy's address without it$/ },
    ],
    ["an upstream that answers a web page", { given: [["listLeaveTypes", 200, "json"], ["listDepartments", 200, "json"], ["listEmployees", 200, "json"]], want: /^HINT: 3 of 3 answers were not JSON: --upstream probably points at a web page/ }],
    ["an upstream of another JSON API", { given: [["listLeaveTypes", 200, "envelope"], ["listDepartments", 200, "envelope"]], want: /^HINT: 2 of 2 answers were JSON without the service's envelope/ }],
    ["one answer not JSON among many", { given: [["listLeaveTypes", 200, "json"], ["listDepartments", 200], ["listEmployees", 200], ["listLeaveRequests", 200]], want: undefined }],
    ["unrouted requests under several paths", { given: [["GET /a/v1/leavetype/list", 404, "operation"], ["GET /b/v1/leavetype/list", 404, "operation"]], want: undefined }],
    ["violations of many kinds", { given: [["listLeaveRequests", 200, "paging"], ["listLeaveRequests", 200, "schema.type"], ["getLeaveRequest", 200, "details"]], want: undefined }],
  ];
  it.each(cases)("%s", (_, { given, want }) => {
    const tally = createTally({ upstream: "https://hr.example.com", maxListed: 1000, now: () => new Date(0) });
    for (const [label, status, rule] of given) {
      tally.exchange(label, status);
      if (rule) tally.violation({ operation: label, side: rule === "operation" ? "request" : "answer", rule, pointer: "", message: `${rule} broken` }, { ...example, status });
    }
    const hints = summaryLines(tally.report()).filter((line) => line.startsWith("HINT: "));
    if (want === undefined) expect(hints).toEqual([]);
    else {
      expect(hints).toHaveLength(1);
      expect(hints[0]).toMatch(want);
    }
  });
});
