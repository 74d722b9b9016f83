// The two outputs of a run: the terminal report (sections, one line each, totals) and the JUnit XML
// (well-formed; one testcase per check and per assumption; failures only for violations).
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { toJUnit, xmlEscape } from "../../src/contract/junit.js";
import { formatReport, redactUrl, resultLine, totalsOf, type SuiteReport } from "../../src/contract/report.js";
import type { AssumptionResult, CheckResult } from "../../src/contract/results.js";

const checks: CheckResult[] = [
  { area: "responses", name: "listLeaveRequests: answer matches the spec", outcome: "passed", detail: "200 matches LeaveRequestListResponse" },
  { area: "responses", name: "listLeaveRequests ?LeaveStatus=Approved: answer matches the spec", outcome: "violation", detail: 'status 200: /data/data/0/days must be integer & <not> "4"' },
  { area: "paging", name: "listDepartments: first page", outcome: "violation", detail: "totalPages is 3 but totalRecords 19 / pageSize 25 gives 1" },
  { area: "filters", name: "listEmployees: Status", outcome: "not checked", detail: "employee items do not show a status\u0001" },
  { area: "paging", name: "listLeaveTypes: first page", outcome: "passed", detail: "page 1 of 1\nsecond line" },
];
const assumptions: AssumptionResult[] = [
  { source: "openapi", scope: "api", pointer: "/components/parameters/PageSize", sentence: "The largest PageSize is 100.", outcome: "held", detail: "8 requests answered 400" },
  { source: "openapi", scope: "api", pointer: "/components/responses/Forbidden", sentence: "A key without … is 403.", outcome: "could not tell", detail: "the key holds both permissions" },
  { source: "openapi", scope: "api", pointer: "/components/responses/Unauthorized", sentence: "Missing key is 401.", outcome: "did not hold", detail: "answered 200" },
  { source: "asyncapi", scope: "webhooks", pointer: "/operations/send", sentence: "Retries 9 times.", outcome: "could not tell", detail: "webhooks" },
];
const report: SuiteReport = {
  baseUrl: "http://127.0.0.1:4010",
  checks,
  assumptions,
  totals: totalsOf(checks, assumptions, 42),
  durationMs: 1234,
  exitCode: 1,
};

describe("JUnit XML", () => {
  const xml = toJUnit(report);
  const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "", isArray: (name) => name === "testsuite" || name === "testcase" }).parse(xml);
  const suites: any[] = parsed.testsuites.testsuite;
  const suite = (name: string) => suites.find((s) => s.name === name);

  it("is well-formed XML, even with &, <, quotes and control characters in the details", () => {
    expect(XMLValidator.validate(xml), "XMLValidator's verdict").toBe(true);
    // The validator lets a raw < in an attribute and control characters pass; XML 1.0 does not.
    expect(xml, "no character XML 1.0 forbids").not.toMatch(/[\x00-\x08\x0B\x0C\x0E-\x1F]/);
    for (const [, value] of xml.matchAll(/\s[a-z]+="([^"]*)"/g)) {
      expect(value, "an attribute value with a raw < or a bare &").toMatch(/^(?:[^<&]|&(?:amp|lt|gt|quot|apos);)*$/);
    }
  });

  it("has one testcase per check and per assumption, and totals that add up", () => {
    expect(parsed.testsuites.tests).toBe(String(checks.length + assumptions.length));
    expect(parsed.testsuites.failures, "violations are the only failures").toBe("2");
    expect(parsed.testsuites.skipped, "1 check not run, 3 assumptions not held").toBe("4");
    expect(suites.map((s) => s.name)).toEqual(["contract.responses", "contract.paging", "contract.filters", "contract.assumptions"]);
    expect(suite("contract.responses").testcase).toHaveLength(2);
    expect(suite("contract.responses").failures).toBe("1");
    expect(suite("contract.assumptions").testcase).toHaveLength(4);
    expect(suite("contract.assumptions").failures, "assumptions never fail the build").toBe("0");
  });

  it.each([
    ["a violation is a failure with its detail", "contract.responses", 1, "failure"],
    ["a check not run is skipped", "contract.filters", 0, "skipped"],
    ["a held assumption passes with system-out", "contract.assumptions", 0, "system-out"],
    ["an assumption that could not be told is skipped with the reason", "contract.assumptions", 1, "skipped"],
    ["an assumption that did not hold is skipped with the reason", "contract.assumptions", 2, "skipped"],
  ] as const)("%s", (_, suiteName, index, element) => {
    const testcase = suite(suiteName).testcase[index];
    expect(testcase[element], `${suiteName}[${index}] has <${element}>`).toBeDefined();
    if (element === "failure") expect(testcase.failure.message).toContain('/data/data/0/days must be integer & <not> "4"');
  });

  it("escapes the five XML characters and drops characters XML forbids", () => {
    expect(xmlEscape(`a&b<c>d"e'f\u0001g`)).toBe("a&amp;b&lt;c&gt;d&quot;e&apos;fg");
  });
});

describe("terminal report", () => {
  const text = formatReport(report);
  const lines = text.split("\n");

  it("puts the sections in order: violations, assumptions, not checked, passed, then totals", () => {
    const at = (heading: string) => lines.findIndex((l) => l.startsWith(heading));
    const order = ["VIOLATIONS (2)", "ASSUMPTIONS (4)", "NOT CHECKED (1)", "PASSED CHECKS (2)", "TOTALS:"].map(at);
    expect(order.every((i) => i >= 0), `headings found at ${order}`).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it("gives each check and assumption one line, line breaks in details folded", () => {
    expect(lines.filter((l) => l.startsWith("  [")), "5 check lines").toHaveLength(5);
    expect(lines.some((l) => l.includes("page 1 of 1 second line"))).toBe(true);
    expect(lines.filter((l) => /^ {2}(HELD|DID NOT HOLD|COULD NOT TELL)/.test(l))).toHaveLength(4);
  });

  it("lists assumptions that did not hold first, by pointer and sentence", () => {
    const first = lines.find((l) => /^ {2}(HELD|DID NOT HOLD|COULD NOT TELL)/.test(l));
    expect(first).toContain('DID NOT HOLD   /components/responses/Unauthorized "Missing key is 401." — answered 200');
  });

  it("ends with the totals and the result", () => {
    expect(lines.at(-2)).toBe(
      "TOTALS: 2 passed, 2 violations, 1 not checked; assumptions 1 held, 1 did not hold, 2 could not tell; 42 requests",
    );
    expect(lines.at(-1)).toBe("RESULT: 2 contract violation(s)");
  });

  const totals = (violation: number, notChecked: number) => ({ ...report.totals, checks: { passed: 10, violation, "not checked": notChecked } });
  it.each([
    ["violations", { given: { exitCode: 1, totals: totals(2, 3) }, want: "RESULT: 2 contract violation(s)" }],
    ["everything checked, nothing broken", { given: { exitCode: 0, totals: totals(0, 0) }, want: "RESULT: the deployment keeps the contract" }],
    [
      "nothing broken, but checks that could not run (a permission missing, the request budget): no claim beyond what was checked",
      { given: { exitCode: 0, totals: totals(0, 9) }, want: "RESULT: no contract violation in what was checked; 9 check(s) could not run (see NOT CHECKED)" },
    ],
  ] as [string, { given: Pick<SuiteReport, "exitCode" | "totals">; want: string }][])("the result line with %s", (_, { given, want }) => {
    expect(resultLine(given), "the RESULT line").toBe(want);
  });

  it.each([
    ["http://user:secret@host.test:8080/api/", "http://host.test:8080/api"],
    ["https://host.test", "https://host.test"],
  ])("prints %s as %s, without credentials", (given, want) => {
    expect(redactUrl(given)).toBe(want);
  });
});
