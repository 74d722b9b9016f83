// The suite end to end, programmatically: against the mock it finds no violation; against a proxy
// that breaks the contract in one way it exits non-zero and names that break; with failures
// answered 200 only assumptions differ; with a key lacking a permission it says what it could not check.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startMock, type RunningMock } from "../../mock/index.js";
import { KeyRefused, runContractSuite, type SuiteOptions, type SuiteReport } from "../../src/contract/index.js";
import { formatReport } from "../../src/contract/report.js";
import { loadOpenApi } from "../../scripts/lib/spec-document.js";
import { collectAssumptions } from "../../src/contract/openapi.js";
import { startBreakingProxy, type Breaker } from "./support.js";

const FULL_KEY = "demo_org1_full";
// Unpaced for tests: a run is about 100 requests, one at a time, so the bucket never empties and
// no request waits for a token. The default pace (4 a second) is for real deployments; pacing itself
// is checked with an injected clock in http.test.ts.
const FAST = { requestsPerSecond: 100_000, burst: 1_000 } satisfies Partial<SuiteOptions>;

const violations = (report: SuiteReport) => report.checks.filter((c) => c.outcome === "violation");
const outcomeOf = (report: SuiteReport, pointer: string) => report.assumptions.find((a) => a.pointer === pointer)?.outcome;

function otherOrganization(mock: RunningMock): NonNullable<SuiteOptions["ids"]>["otherOrganization"] {
  const other = mock.ids[1];
  return { leaveRequestId: other.leaveRequestId, departmentId: other.departmentId, employeeId: other.employeeId, leaveTypeId: other.leaveTypeIdByEligibility[0] };
}

describe("against the mock", () => {
  let mock: RunningMock;
  let report: SuiteReport;
  beforeAll(async () => {
    // The mock's own rate limit stays on: the suite must get through under it.
    mock = await startMock({ port: 0 });
    report = await runContractSuite({ baseUrl: mock.url, apiKey: FULL_KEY, ids: { otherOrganization: otherOrganization(mock) }, ...FAST });
  }, 120_000);
  afterAll(() => mock?.close());

  it("finds no contract violation and exits 0", () => {
    expect(violations(report), formatReport(report)).toEqual([]);
    expect(report.exitCode).toBe(0);
  });

  it("reports every x-assumption of the spec, and none of them fails against the mock", () => {
    for (const mark of collectAssumptions(loadOpenApi(), "openapi")) {
      expect(outcomeOf(report, mark.pointer), `${mark.pointer} in the report`).toBeDefined();
    }
    const failed = report.assumptions.filter((a) => a.outcome === "did not hold");
    expect(failed.map((a) => `${a.pointer}: ${a.detail}`)).toEqual([]);
    expect(report.totals.assumptions.held, "most API assumptions can be told against the mock").toBeGreaterThanOrEqual(15);
  });

  it.each([
    "/components/parameters/PageSize",
    "/components/parameters/PageNumber",
    "/components/parameters/LeaveStatus",
    "/components/parameters/StartDate",
    "/components/parameters/EligibilityCriteriaFilter",
    "/components/schemas/LeaveBalance/properties/daysRemaining",
    "/components/responses/BadRequest",
    "/components/responses/Unauthorized",
    "/components/responses/NotFound",
  ])("the assumption %s held", (pointer) => {
    expect(outcomeOf(report, pointer)).toBe("held");
  });

  it("checked every documented operation, paging, filters, details and auth", () => {
    const areas = new Set(report.checks.filter((c) => c.outcome === "passed").map((c) => c.area));
    expect([...areas].sort()).toEqual(["auth", "details", "filters", "order", "paging", "records", "responses"]);
    for (const op of ["listLeaveRequests", "getLeaveRequest", "getLeaveBalance", "listLeaveTypes", "listDepartments", "getDepartment", "listEmployees"]) {
      expect(report.checks.some((c) => c.area === "responses" && c.name.startsWith(op) && c.outcome === "passed"), `${op} answered and validated`).toBe(true);
    }
    expect(report.checks.filter((c) => c.name.includes("two pages share no item") && c.outcome === "passed").length, "two pages of every list").toBe(4);
  });

  it("stays well under the mock's 300 requests a minute", () => {
    expect(report.totals.requests).toBeLessThan(200);
    expect(report.assumptions.find((a) => a.pointer === "/components/responses/TooManyRequests")?.detail).toMatch(/no rate-limit failure was seen/);
  });
});

describe("against a server that breaks the contract", () => {
  // The run's shared mock (test/global-setup.ts: default data, rate limit off); these cases only read.
  const mock = inject("mock");

  const onLeaveList = (change: (body: any) => any): Breaker => ({
    response: (url, body) => (url.pathname === "/v1/leaverequest/list" && body?.isSuccessful === true ? change(body) : body),
  });

  const cases: [string, { given: Breaker; want: { name?: RegExp; detail: RegExp } }][] = [
    [
      "a wrong field type: days as a string",
      {
        given: onLeaveList((b) => {
          for (const item of b.data.data) item.days = String(item.days);
          return b;
        }),
        want: { name: /^listLeaveRequests.*answer matches the spec$/, detail: /\/data\/data\/\*\/days Instance type "string" is invalid\. Expected "integer"\. \(\d+ items\)/ },
      },
    ],
    [
      "an incoherent page: totalPages one too many",
      { given: onLeaveList((b) => ((b.data.totalPages += 1), b)), want: { name: /^listLeaveRequests/, detail: /totalPages is \d+ but totalRecords \d+ \/ pageSize \d+ gives \d+/ } },
    ],
    ["a missing envelope: bare data", { given: onLeaveList((b) => b.data), want: { name: /^listLeaveRequests/, detail: /missing envelope/ } }],
    [
      "a filter ignored: LeaveStatus",
      {
        given: {
          request: (url) => {
            if (url.pathname === "/v1/leaverequest/list") url.searchParams.delete("LeaveStatus");
            return url;
          },
        },
        want: { name: /LeaveStatus/, detail: /LeaveStatus=\w+: \d+ of \d+ items do not match/ },
      },
    ],
    [
      "a repeated parameter read once: only the first Companies value",
      {
        given: {
          request: (url) => {
            const companies = url.searchParams.getAll("Companies");
            url.searchParams.delete("Companies");
            if (companies.length) url.searchParams.append("Companies", companies[0]);
            return url;
          },
        },
        want: { name: /^listDepartments: Companies repeated, every value read$/, detail: /the repeated Companies parameter was not read in full/ },
      },
    ],
  ];

  it.each(cases)("%s: exit 1 and the break named", async (_, { given, want }) => {
    const proxy = await startBreakingProxy(mock.url, given);
    try {
      const report = await runContractSuite({ baseUrl: proxy.url, apiKey: FULL_KEY, ...FAST });
      expect(report.exitCode, "a violation exits non-zero").toBe(1);
      const named = violations(report).filter((c) => want.detail.test(c.detail) && (!want.name || want.name.test(c.name)));
      expect(named.length, `a violation naming the break in:\n${violations(report).map((c) => `${c.name}: ${c.detail}`).join("\n")}`).toBeGreaterThan(0);
      expect(formatReport(report)).toMatch(want.detail);
    } finally {
      await proxy.close();
    }
  });

  it("the same proxy without a break finds nothing, so the cases above fail for their break alone", async () => {
    const proxy = await startBreakingProxy(mock.url, {});
    try {
      const report = await runContractSuite({ baseUrl: proxy.url, apiKey: FULL_KEY, ...FAST });
      expect(violations(report), formatReport(report)).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  it("a key lacking Employee Management: View: those checks could not tell, Forbidden held, exit 0", async () => {
    const report = await runContractSuite({ baseUrl: mock.url, apiKey: "demo_org1_leave_view", ...FAST });
    expect(violations(report), formatReport(report)).toEqual([]);
    expect(report.exitCode).toBe(0);
    const skipped = report.checks.filter((c) => c.outcome === "not checked" && /lacks Employee Management: View/.test(c.detail)).map((c) => c.name);
    expect(skipped).toEqual(expect.arrayContaining(["listDepartments: every check", "getDepartment: every check"]));
    expect(outcomeOf(report, "/components/responses/Forbidden")).toBe("held");
    expect(outcomeOf(report, "/paths/~1v1~1employee~1list/get")).toBe("held");
  });

  it("a key holding neither permission reads nothing: the run stops with KeyRefused naming both answers", async () => {
    const error = await runContractSuite({ baseUrl: mock.url, apiKey: "demo_org1_no_permissions", ...FAST }).catch((e: unknown) => e);
    expect(error, "a run that could check nothing is not a pass").toBeInstanceOf(KeyRefused);
    expect((error as Error).message, "the message names both lists' answers").toMatch(
      /read nothing at .*\/v1\/leaverequest\/list → 403 isSuccessful false: .*; \/v1\/department\/list → 403 isSuccessful false: .*use a key with Leave: View and Employee Management: View$/,
    );
  });

  it("--max-requests caps the run; what was not run is reported as not checked", async () => {
    const report = await runContractSuite({ baseUrl: mock.url, apiKey: FULL_KEY, maxRequests: 15, ...FAST });
    expect(report.totals.requests).toBe(15);
    expect(report.checks.some((c) => c.outcome === "not checked" && /request budget of 15 requests is used up/.test(c.detail))).toBe(true);
    expect(report.exitCode).toBe(0);
  });
});

describe("against a mock that answers every failure with 200", () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock({ port: 0, rateLimit: "off", failureStatus: 200 });
  });
  afterAll(() => mock?.close());

  it("only assumptions differ: exit 0, the status assumptions did not hold", async () => {
    const report = await runContractSuite({ baseUrl: mock.url, apiKey: FULL_KEY, ...FAST });
    expect(violations(report), formatReport(report)).toEqual([]);
    expect(report.exitCode).toBe(0);
    for (const pointer of ["/components/responses/BadRequest", "/components/responses/Unauthorized", "/components/responses/NotFound"]) {
      expect(outcomeOf(report, pointer), pointer).toBe("did not hold");
    }
    expect(outcomeOf(report, "/components/schemas/FailureEnvelope"), "the envelope itself still holds").toBe("held");
  });

  it("an unknown key, refused with 200: the run stops with KeyRefused, not a pass", async () => {
    const error = await runContractSuite({ baseUrl: mock.url, apiKey: "not_a_key", ...FAST }).catch((e: unknown) => e);
    expect(error, "the thrown value").toBeInstanceOf(KeyRefused);
    expect((error as Error).message, "the service's answer is named").toMatch(/\/v1\/leaverequest\/list → 200 isSuccessful false: Unauthorized/);
  });
});

describe("against a mock that answers failures with 200 and has a small rate limit", () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock({ port: 0, rateLimit: 20, failureStatus: 200 });
  });
  afterAll(() => mock?.close());

  it("its rate-limit failures (200 with Retry-After) are backed off and never reported as violations", async () => {
    // The waits are not slept (the mock's window is real time), so retries run out and the limited checks are not run.
    const clock = { now: () => Date.now(), sleep: async () => {} };
    const report = await runContractSuite({ baseUrl: mock.url, apiKey: FULL_KEY, clock, ...FAST });
    expect(violations(report), formatReport(report)).toEqual([]);
    expect(report.exitCode, "exit status").toBe(0);
    expect(report.checks.filter((c) => c.outcome === "not checked" && /^rate limited: 200 isSuccessful false/.test(c.detail)).length, "checks not run for the rate limit").toBeGreaterThan(0);
    expect(report.assumptions.find((a) => a.pointer === "/components/responses/TooManyRequests")?.detail, "the 429 assumption").toMatch(/answered with HTTP 200, not 429/);
  });
});
