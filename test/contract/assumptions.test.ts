// The assumptions: every x-assumption of the specs is reported, and each evaluator answers held,
// did not hold or could not tell from what a run saw (observations built from recorded answers).
import { describe, expect, it } from "vitest";
import { evaluateAssumptions, openapiEvaluators } from "../../src/contract/assumptions.js";
import { probe, type Observations, type Probe } from "../../src/contract/observations.js";
import type { Exchange } from "../../src/contract/exchange.js";
import { collectAssumptions, loadContractSpec } from "../../src/contract/openapi.js";
import type { AssumptionOutcome } from "../../src/contract/results.js";
import { loadAsyncApi, loadOpenApi } from "../../scripts/lib/spec-document.js";
import { bodyOf, exchangeOf } from "./support.js";

const spec = loadContractSpec();
const evaluators = openapiEvaluators(spec.validate, spec.rateLimit, spec.assumptions);

function observations(parts: Partial<Observations> & { probeList?: [string, Exchange, string[]?][] } = {}): Observations {
  const { probeList = [], ...rest } = parts;
  const probes = new Map<string, Probe>(probeList.map(([name, exchange, parameters]) => [name, { exchange, parameters }]));
  return {
    now: Date.parse("2026-11-20T12:00:00Z"),
    exchanges: probeList.map(([, e]) => e),
    probes,
    access: { leave: { state: "granted" }, employeeManagement: { state: "granted" }, employees: { state: "granted" } },
    leaveRequests: [],
    documents: [],
    balances: [],
    limits: [],
    foreignIdsGiven: false,
    ...rest,
  };
}

const status = (name: Parameters<typeof exchangeOf>[0], s: number, change?: (b: any) => any) => exchangeOf(name, { status: s, change });
const failure = (s: number, message = "Invalid parameter PageSize.") =>
  exchangeOf("pageSizeTooLarge", { status: s, change: (b) => ({ ...b, code: String(s), message }) });

describe("every x-assumption of the specs is in the report", () => {
  const marks = spec.assumptions;

  it("the report lists each mark of generated/openapi.json once, by pointer and sentence", () => {
    const results = evaluateAssumptions(marks, observations(), spec.validate);
    const inSpec = collectAssumptions(loadOpenApi(), "openapi");
    expect(inSpec.length, "the spec has assumptions to report").toBeGreaterThan(10);
    for (const mark of inSpec) {
      const found = results.filter((r) => r.pointer === mark.pointer && r.sentence === mark.sentence);
      expect(found, `${mark.pointer} "${mark.sentence}" reported once`).toHaveLength(1);
      expect(found[0].detail, `${mark.pointer} has a reason`).not.toBe("");
    }
  });

  it("the marks of the events document are reported too, as could not tell (a GET-only suite receives no events)", () => {
    let asyncapi: any;
    try {
      asyncapi = loadAsyncApi();
    } catch {
      asyncapi = undefined;
    }
    const results = evaluateAssumptions(marks, observations(), spec.validate);
    const sentences = new Set(results.map((r) => r.sentence));
    for (const mark of asyncapi ? collectAssumptions(asyncapi, "asyncapi") : []) {
      expect(sentences.has(mark.sentence), `asyncapi ${mark.pointer} reported`).toBe(true);
    }
    for (const r of results.filter((x) => x.scope === "webhooks")) expect(r.outcome, r.pointer).toBe("could not tell");
  });

  it("every mark the API uses has an automatic evaluator, and no evaluator points at a mark that is gone", () => {
    const apiMarks = marks.filter((m) => m.scope === "api").map((m) => m.pointer);
    expect(apiMarks.filter((p) => !(p in evaluators)), "API marks without an evaluator").toEqual([]);
    expect(Object.keys(evaluators).filter((p) => !apiMarks.includes(p)), "evaluators of marks no longer in the spec").toEqual([]);
  });

  it("with nothing observed every API assumption is could not tell, never held", () => {
    const results = evaluateAssumptions(marks, observations(), spec.validate);
    for (const r of results) expect(r.outcome, `${r.pointer}: ${r.detail}`).toBe("could not tell");
  });
});

type Case = [string, { given: { pointer: string; obs: Observations }; want: { outcome: AssumptionOutcome; detail?: RegExp } }];

const page = (change: (p: any) => void) => (b: any) => void change(b.data);
const lr = "listLeaveRequests" as const;

const cases: Case[] = [
  [
    "PageSize: 101 and 0 refused with 400, 100 accepted",
    {
      given: {
        pointer: "/components/parameters/PageSize",
        obs: observations({
          probeList: [
            [probe.pageSizeAbove(lr), failure(400)],
            [probe.pageSizeZero(lr), failure(400)],
            [probe.pageSizeMax(lr), status("leaveRequestsPage1", 200, page((p) => (p.pageSize = 100)))],
          ],
        }),
      },
      want: { outcome: "held" },
    },
  ],
  [
    "PageSize: 101 accepted",
    { given: { pointer: "/components/parameters/PageSize", obs: observations({ probeList: [[probe.pageSizeAbove(lr), status("leaveRequestsPage1", 200)]] }) }, want: { outcome: "did not hold", detail: /1 of 1 answered other than 400: .* → 200/ } },
  ],
  [
    "PageNumber: a page past the end is empty with true totals",
    {
      given: {
        pointer: "/components/parameters/PageNumber",
        obs: observations({
          probeList: [
            [probe.firstPage(lr), status("leaveRequestsPage1", 200)],
            [probe.pastEnd(lr), status("leaveRequestsPage1", 200, page((p) => Object.assign(p, { pageNumber: p.totalPages + 1, data: [] })))],
            [probe.pageNumberZero(lr), failure(400, "Invalid parameter PageNumber.")],
          ],
        }),
      },
      want: { outcome: "held" },
    },
  ],
  [
    "PageNumber: a page past the end repeats items",
    {
      given: {
        pointer: "/components/parameters/PageNumber",
        obs: observations({ probeList: [[probe.firstPage(lr), status("leaveRequestsPage1", 200)], [probe.pastEnd(lr), status("leaveRequestsPage1", 200)]] }),
      },
      want: { outcome: "did not hold", detail: /returned 4 items/ },
    },
  ],
  [
    "Unauthorized: no key answered 401",
    { given: { pointer: "/components/responses/Unauthorized", obs: observations({ probeList: [[probe.noKey(lr), { ...status("noKey", 401), auth: "none" }]] }) }, want: { outcome: "held" } },
  ],
  [
    "Unauthorized: failures answered with 200",
    { given: { pointer: "/components/responses/Unauthorized", obs: observations({ probeList: [[probe.noKey(lr), { ...status("noKey", 200), auth: "none" }]] }) }, want: { outcome: "did not hold", detail: /→ 200/ } },
  ],
  ["Forbidden: a key holding both permissions", { given: { pointer: "/components/responses/Forbidden", obs: observations() }, want: { outcome: "could not tell", detail: /holds both/ } }],
  [
    "Forbidden: a key lacking Leave: View got 403",
    {
      given: {
        pointer: "/components/responses/Forbidden",
        obs: observations({ access: { leave: { state: "forbidden", exchange: failure(403) }, employeeManagement: { state: "granted" }, employees: { state: "granted" } } }),
      },
      want: { outcome: "held", detail: /^a missing permission was answered 403 \(Leave: View\)$/ },
    },
  ],
  [
    "Forbidden: a key lacking Leave: View got 401",
    {
      given: {
        pointer: "/components/responses/Forbidden",
        obs: observations({ access: { leave: { state: "forbidden", exchange: failure(401) }, employeeManagement: { state: "granted" }, employees: { state: "granted" } } }),
      },
      want: { outcome: "did not hold" },
    },
  ],
  [
    "employee list permission: a full key cannot tell",
    { given: { pointer: "/paths/~1v1~1employee~1list/get", obs: observations() }, want: { outcome: "could not tell" } },
  ],
  [
    "employee list permission: refused with Employee Management refused",
    {
      given: {
        pointer: "/paths/~1v1~1employee~1list/get",
        obs: observations({ access: { leave: { state: "granted" }, employeeManagement: { state: "forbidden", exchange: failure(403) }, employees: { state: "forbidden", exchange: failure(403) } } }),
      },
      want: { outcome: "held" },
    },
  ],
  [
    "employee list permission: refused though Employee Management is granted",
    {
      given: {
        pointer: "/paths/~1v1~1employee~1list/get",
        obs: observations({ access: { leave: { state: "forbidden", exchange: failure(403) }, employeeManagement: { state: "granted" }, employees: { state: "forbidden", exchange: failure(403) } } }),
      },
      want: { outcome: "did not hold" },
    },
  ],
  [
    "daysRemaining: the recorded balance",
    { given: { pointer: "/components/schemas/LeaveBalance/properties/daysRemaining", obs: observations({ balances: [{ balance: bodyOf("leaveBalance").data }] }) }, want: { outcome: "held" } },
  ],
  [
    "daysRemaining: floored at 0",
    {
      given: { pointer: "/components/schemas/LeaveBalance/properties/daysRemaining", obs: observations({ balances: [{ balance: { totalDays: 5, daysTaken: 4, leavePending: 3, daysRemaining: 0 } }] }) },
      want: { outcome: "held" },
    },
  ],
  [
    "daysRemaining: pending days not deducted",
    {
      given: { pointer: "/components/schemas/LeaveBalance/properties/daysRemaining", obs: observations({ balances: [{ balance: { totalDays: 20, daysTaken: 4, leavePending: 3, daysRemaining: 16 } }] }) },
      want: { outcome: "did not hold", detail: /gives 13/ },
    },
  ],
  [
    "totalDays: within the carry-forward bound before the expiry month",
    {
      given: {
        pointer: "/components/schemas/LeaveBalance/properties/totalDays",
        obs: observations({ balances: [{ balance: { totalDays: 23 }, leaveType: { name: "Annual", maxLeaveDays: 20, carryForward: { maxCarryForwardLimit: 5, expirationDate: 11 } } }] }),
      },
      want: { outcome: "held" },
    },
  ],
  [
    "totalDays: carried days after the expiry month",
    {
      given: {
        pointer: "/components/schemas/LeaveBalance/properties/totalDays",
        obs: observations({ balances: [{ balance: { totalDays: 23 }, leaveType: { name: "Annual", maxLeaveDays: 20, carryForward: { maxCarryForwardLimit: 5, expirationDate: 2 } } }] }),
      },
      want: { outcome: "did not hold", detail: /expired/ },
    },
  ],
  [
    "days: more days than weekdays in the range",
    {
      given: { pointer: "/components/schemas/LeaveRequestSummary/properties/days", obs: observations({ leaveRequests: [{ id: "x", startDate: "2026-12-12T00:00:00", endDate: "2026-12-13T00:00:00", days: 2 }] }) },
      want: { outcome: "did not hold", detail: /0 weekdays/ },
    },
  ],
  [
    "days: consistent, but holidays are not shown",
    { given: { pointer: "/components/schemas/LeaveRequestSummary/properties/days", obs: observations({ leaveRequests: bodyOf("leaveRequestsPage1").data.data }) }, want: { outcome: "could not tell", detail: /consistent on 4/ } },
  ],
  [
    "Retry-After: whole seconds on a 429",
    { given: { pointer: "/components/headers/Retry-After", obs: observations({ exchanges: [{ ...failure(429), headers: { "retry-after": "12" } }] }) }, want: { outcome: "held" } },
  ],
  [
    "Retry-After: a fraction",
    { given: { pointer: "/components/headers/Retry-After", obs: observations({ exchanges: [{ ...failure(429), headers: { "retry-after": "1.5" } }] }) }, want: { outcome: "did not hold" } },
  ],
  [
    "the rate limit: a 429 after more requests in 60 s than the limit",
    {
      given: {
        pointer: "/components/responses/TooManyRequests",
        obs: observations({ exchanges: [...Array.from({ length: 300 }, (_, i) => ({ ...exchangeOf("leaveTypesPage"), at: i * 100 })), { ...failure(429), at: 30_000, headers: { "retry-after": "30" } }] }),
      },
      want: { outcome: "held", detail: /after 301 requests/ },
    },
  ],
  [
    "the rate limit: a 429 after 40 requests in 60 s",
    {
      given: {
        pointer: "/components/responses/TooManyRequests",
        obs: observations({ exchanges: [...Array.from({ length: 39 }, (_, i) => ({ ...exchangeOf("leaveTypesPage"), at: i * 100 })), { ...failure(429), at: 4_000, headers: { "retry-after": "56" } }] }),
      },
      want: { outcome: "did not hold", detail: /after 40 requests of this run in 60 s, fewer than the 300 assumed/ },
    },
  ],
  [
    "the rate limit answered with 200: a failure envelope with Retry-After",
    {
      given: { pointer: "/components/responses/TooManyRequests", obs: observations({ exchanges: [{ ...failure(200, "Too many requests."), at: 4_000, headers: { "retry-after": "56" } }] }) },
      want: { outcome: "did not hold", detail: /the rate limit was answered with HTTP 200, not 429/ },
    },
  ],
  [
    "Retry-After: whole seconds on a rate-limit failure answered with 200",
    { given: { pointer: "/components/headers/Retry-After", obs: observations({ exchanges: [{ ...failure(200, "Too many requests."), headers: { "retry-after": "56" } }] }) }, want: { outcome: "held" } },
  ],
  [
    "BadRequest: a probe that met the rate limit (answered with 200) tells nothing",
    {
      given: { pointer: "/components/responses/BadRequest", obs: observations({ probeList: [[probe.pageSizeAbove(lr), { ...failure(200, "Too many requests."), headers: { "retry-after": "9" } }]] }) },
      want: { outcome: "could not tell" },
    },
  ],
  ["Retry-After: no 429 seen", { given: { pointer: "/components/headers/Retry-After", obs: observations() }, want: { outcome: "could not tell", detail: /never pushes/ } }],
  [
    "FailureEnvelope: the recorded failures",
    { given: { pointer: "/components/schemas/FailureEnvelope", obs: observations({ probeList: [[probe.pageSizeAbove(lr), status("pageSizeTooLarge", 400), ["PageSize"]], ["x", status("noKey", 401)]] }) }, want: { outcome: "held" } },
  ],
  [
    "FailureEnvelope: a message that does not name the parameter",
    { given: { pointer: "/components/schemas/FailureEnvelope", obs: observations({ probeList: [[probe.pageSizeAbove(lr), failure(400, "Bad request."), ["PageSize"]]] }) }, want: { outcome: "did not hold", detail: /names no PageSize/ } },
  ],
  [
    "FailureEnvelope: data missing on a failure",
    { given: { pointer: "/components/schemas/FailureEnvelope", obs: observations({ probeList: [["x", status("noKey", 401, (b) => void delete b.data)]] }) }, want: { outcome: "did not hold", detail: /data is absent/ } },
  ],
  [
    "EligibilityCriteria default: organisation-wide types only",
    {
      given: {
        pointer: "/components/parameters/EligibilityCriteriaFilter",
        obs: observations({ probeList: [[probe.firstPage("listLeaveTypes"), status("leaveTypesPage", 200, page((p) => p.data.forEach((t: any) => (t.eligibilityCriteria = 0))))]] }),
      },
      want: { outcome: "held" },
    },
  ],
  [
    "EligibilityCriteria default: a company type listed",
    {
      given: {
        pointer: "/components/parameters/EligibilityCriteriaFilter",
        obs: observations({ probeList: [[probe.firstPage("listLeaveTypes"), status("leaveTypesPage", 200, page((p) => (p.data[0].eligibilityCriteria = 1)))]] }),
      },
      want: { outcome: "did not hold" },
    },
  ],
  [
    "LeaveStatus: lower case and numbers accepted, unknown names refused",
    {
      given: {
        pointer: "/components/parameters/LeaveStatus",
        obs: observations({
          probeList: [
            [probe.statusLower, status("leaveRequestsPage1", 200)],
            [probe.statusNumber, status("leaveRequestsPage1", 200)],
            [probe.statusUnknownName, failure(400, "Invalid parameter LeaveStatus.")],
          ],
        }),
      },
      want: { outcome: "held" },
    },
  ],
  [
    "LeaveStatus: lower case refused",
    { given: { pointer: "/components/parameters/LeaveStatus", obs: observations({ probeList: [[probe.statusLower, failure(400, "Invalid parameter LeaveStatus.")]] }) }, want: { outcome: "did not hold" } },
  ],
  [
    "SearchTerm: the same total in both letter cases",
    {
      given: {
        pointer: "/components/parameters/DepartmentSearchTerm",
        obs: observations({ probeList: [[probe.search("departments", "lower"), status("departmentsPage", 200)], [probe.search("departments", "swapped"), status("departmentsPage", 200)]] }),
      },
      want: { outcome: "held" },
    },
  ],
  [
    "SearchTerm: letter case matters",
    {
      given: {
        pointer: "/components/parameters/DepartmentSearchTerm",
        obs: observations({
          probeList: [
            [probe.search("departments", "lower"), status("departmentsPage", 200)],
            [probe.search("departments", "swapped"), status("departmentsPage", 200, page((p) => Object.assign(p, { totalRecords: 0, totalPages: 0, data: [] })))],
          ],
        }),
      },
      want: { outcome: "did not hold", detail: /letter case matters/ },
    },
  ],
  [
    "NotFound: unknown ids 404, no other organisation's ids given",
    { given: { pointer: "/components/responses/NotFound", obs: observations({ probeList: [[probe.unknownId("getDepartment"), status("unknownDepartment", 404)]] }) }, want: { outcome: "could not tell", detail: /otherOrganization/ } },
  ],
  [
    "NotFound: unknown and foreign ids 404",
    {
      given: {
        pointer: "/components/responses/NotFound",
        obs: observations({ foreignIdsGiven: true, probeList: [[probe.unknownId("getDepartment"), status("unknownDepartment", 404)], [probe.foreignId("getDepartment"), status("unknownDepartment", 404)]] }),
      },
      want: { outcome: "held" },
    },
  ],
  [
    "documents: a private one as app://documents/<id>",
    { given: { pointer: "/components/schemas/LeaveDocument/properties/document", obs: observations({ documents: [{ id: "d1", document: "app://documents/d1" }, { id: "d2", document: "https://x.test/a.pdf" }] }) }, want: { outcome: "held" } },
  ],
  [
    "documents: only links",
    { given: { pointer: "/components/schemas/LeaveDocument/properties/document", obs: observations({ documents: [{ id: "d2", document: "https://x.test/a.pdf" }] }) }, want: { outcome: "could not tell" } },
  ],
  [
    "documents: neither a link nor the opaque reference",
    { given: { pointer: "/components/schemas/LeaveDocument/properties/document", obs: observations({ documents: [{ id: "d3", document: "s3://bucket/key" }] }) }, want: { outcome: "did not hold" } },
  ],
];

describe("each assumption judged from what a run saw", () => {
  it.each(cases)("%s", (_, { given, want }) => {
    const verdict = evaluators[given.pointer](given.obs);
    expect(verdict.outcome, verdict.detail).toBe(want.outcome);
    if (want.detail) expect(verdict.detail).toMatch(want.detail);
  });
});
