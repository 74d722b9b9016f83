// The pure checks of the contract suite, fed recorded answers of the mock and broken copies of them.
import { describe, expect, it } from "vitest";
import { checkDepartmentDetails, checkLeaveRequestDetails, firstWord } from "../../src/contract/checks/details.js";
import {
  checkItemsMatch,
  checkOrder,
  checkRepeatedParameter,
  containsTerm,
  fieldEquals,
  leaveStatusPredicate,
  searchTermFrom,
  startsBetween,
  swapCase,
  type ItemPredicate,
} from "../../src/contract/checks/filters.js";
import { checkPageCoherence, checkPagesAgree, secondPagePlan, type PageAsked } from "../../src/contract/checks/paging.js";
import { calendarDays, checkLeaveDates, checkStatusAgreement, weekdays } from "../../src/contract/checks/records.js";
import { checkRefused, checkResponseAgainstSpec } from "../../src/contract/checks/responses.js";
import type { Exchange } from "../../src/contract/exchange.js";
import { loadContractSpec, type OperationId } from "../../src/contract/openapi.js";
import type { CheckOutcome } from "../../src/contract/results.js";
import { bodyOf, exchangeOf, recorded } from "./support.js";

const spec = loadContractSpec();
const leaveItems = () => bodyOf("leaveRequestsPage1").data.data as any[];

describe("each answer is validated against the bundled OpenAPI", () => {
  const cases: [string, { given: { op: OperationId; exchange: Exchange }; want: { outcome: CheckOutcome; detail?: RegExp } }][] = [
    ["a recorded leave request page", { given: { op: "listLeaveRequests", exchange: exchangeOf("leaveRequestsPage1") }, want: { outcome: "passed", detail: /LeaveRequestListResponse/ } }],
    ["recorded details", { given: { op: "getLeaveRequest", exchange: exchangeOf("leaveRequestDetails") }, want: { outcome: "passed" } }],
    ["a recorded 400 failure", { given: { op: "listLeaveRequests", exchange: exchangeOf("pageSizeTooLarge") }, want: { outcome: "passed", detail: /400 matches FailureEnvelope/ } }],
    [
      "days as a string",
      {
        given: { op: "listLeaveRequests", exchange: exchangeOf("leaveRequestsPage1", { change: (b) => void (b.data.data[0].days = "4") }) },
        want: { outcome: "violation", detail: /\/data\/data\/0\/days Instance type "string" is invalid\. Expected "integer"\./ },
      },
    ],
    [
      "days as a string on every item, told once",
      {
        given: {
          op: "listLeaveRequests",
          exchange: exchangeOf("leaveRequestsPage1", { change: (b) => b.data.data.forEach((i: any) => (i.days = String(i.days))) }),
        },
        want: { outcome: "violation", detail: /\/data\/data\/\*\/days Instance type "string" is invalid\. Expected "integer"\. \(4 items\)/ },
      },
    ],
    [
      "bare data without the envelope",
      { given: { op: "listLeaveRequests", exchange: exchangeOf("leaveRequestsPage1", { change: (b) => b.data }) }, want: { outcome: "violation", detail: /missing envelope/ } },
    ],
    [
      "an undocumented status",
      { given: { op: "listLeaveRequests", exchange: exchangeOf("pageSizeTooLarge", { status: 422 }) }, want: { outcome: "violation", detail: /status 422 is not documented/ } },
    ],
    [
      "a failure answered with 200 is held to FailureEnvelope, not the success schema",
      { given: { op: "listLeaveRequests", exchange: exchangeOf("pageSizeTooLarge", { status: 200 }) }, want: { outcome: "passed", detail: /FailureEnvelope/ } },
    ],
    [
      "a failure whose code is 00",
      {
        given: { op: "getDepartment", exchange: exchangeOf("unknownDepartment", { change: (b) => void (b.code = "00") }) },
        want: { outcome: "violation", detail: /code/ },
      },
    ],
    [
      "a body that is not JSON",
      { given: { op: "listLeaveTypes", exchange: { ...exchangeOf("leaveTypesPage"), body: undefined, bodyText: "<html>oops</html>" } }, want: { outcome: "violation", detail: /not JSON/ } },
    ],
    [
      "a 429 without the required Retry-After",
      {
        given: { op: "listLeaveTypes", exchange: exchangeOf("pageSizeTooLarge", { status: 429, change: (b) => ({ ...b, code: "429", message: "Too many requests" }) }) },
        want: { outcome: "violation", detail: /header Retry-After is missing/ },
      },
    ],
    [
      "a 429 with Retry-After in whole seconds",
      {
        given: {
          op: "listLeaveTypes",
          exchange: exchangeOf("pageSizeTooLarge", { status: 429, headers: { "content-type": "application/json", "retry-after": "12" }, change: (b) => ({ ...b, code: "429" }) }),
        },
        want: { outcome: "passed" },
      },
    ],
    [
      "a 429 with Retry-After as an HTTP date",
      {
        given: {
          op: "listLeaveTypes",
          exchange: exchangeOf("pageSizeTooLarge", { status: 429, headers: { "content-type": "application/json", "retry-after": "Wed, 21 Oct 2026 07:28:00 GMT" } }),
        },
        want: { outcome: "violation", detail: /Retry-After/ },
      },
    ],
    ["no answer at all", { given: { op: "listLeaveTypes", exchange: { ...exchangeOf("leaveTypesPage"), status: undefined, error: "ECONNRESET" } }, want: { outcome: "violation", detail: /no answer: ECONNRESET/ } }],
  ];
  it.each(cases)("%s", (_, { given, want }) => {
    const finding = checkResponseAgainstSpec(spec, given.op, given.exchange);
    expect(finding.outcome, finding.detail).toBe(want.outcome);
    if (want.detail) expect(finding.detail).toMatch(want.detail);
  });
});

describe("a request without a usable key or with an outside id must be refused with no data", () => {
  const cases: [string, { given: Exchange; want: CheckOutcome }][] = [
    ["401 with the failure envelope", { given: exchangeOf("noKey"), want: "passed" }],
    ["200 with isSuccessful false and data null", { given: exchangeOf("noKey", { status: 200 }), want: "passed" }],
    ["answered with data", { given: exchangeOf("leaveRequestsPage1"), want: "violation" }],
    ["isSuccessful false but data present", { given: exchangeOf("noKey", { change: (b) => void (b.data = { data: [] }) }), want: "violation" }],
    ["no envelope", { given: exchangeOf("noKey", { change: () => ({ error: "unauthorized" }) }), want: "violation" }],
  ];
  it.each(cases)("%s", (_, { given, want }) => {
    const finding = checkRefused(given, "no key");
    expect(finding.outcome, finding.detail).toBe(want);
  });
});

describe("paging coherence", () => {
  const page = (change?: (p: any) => void) => bodyOf("leaveRequestsPage1", (b) => void change?.(b.data));
  const cases: [string, { given: { body: any; asked: PageAsked }; want: { outcome: CheckOutcome; detail?: RegExp } }][] = [
    ["the recorded page with PageSize=4", { given: { body: page(), asked: { pageSize: 4 } }, want: { outcome: "passed" } }],
    ["totalPages wrong", { given: { body: page((p) => (p.totalPages += 1)), asked: { pageSize: 4 } }, want: { outcome: "violation", detail: /totalPages is \d+ but totalRecords/ } }],
    ["PageSize not honoured", { given: { body: page(), asked: { pageSize: 10 } }, want: { outcome: "violation", detail: /pageSize is 4, asked for 10/ } }],
    ["the default page size missing when PageSize is absent", { given: { body: page(), asked: {} }, want: { outcome: "violation", detail: /default 25 expected/ } }],
    ["an item too few on a full page", { given: { body: page((p) => p.data.pop()), asked: { pageSize: 4 } }, want: { outcome: "violation", detail: /holds 3 items/ } }],
    ["the wrong page number", { given: { body: page(), asked: { pageSize: 4, pageNumber: 2 } }, want: { outcome: "violation", detail: /pageNumber is 1, asked for 2/ } }],
    ["a count that is not a whole number", { given: { body: page((p) => (p.totalRecords = "9")), asked: { pageSize: 4 } }, want: { outcome: "violation", detail: /totalRecords is "9"/ } }],
    ["no page wrapper", { given: { body: bodyOf("leaveRequestDetails"), asked: {} }, want: { outcome: "violation", detail: /no page wrapper/ } }],
    [
      "an empty page past the end with true totals",
      { given: { body: page((p) => Object.assign(p, { pageNumber: p.totalPages + 1, data: [] })), asked: { pageSize: 4, pageNumber: Math.ceil(bodyOf("leaveRequestsPage1").data.totalRecords / 4) + 1 } }, want: { outcome: "passed" } },
    ],
  ];
  it.each(cases)("%s", (_, { given, want }) => {
    const finding = checkPageCoherence(given.body, given.asked, spec.defaultPageSize);
    expect(finding.outcome, finding.detail).toBe(want.outcome);
    if (want.detail) expect(finding.detail).toMatch(want.detail);
  });

  it("two recorded pages share no item; a repeated item is named", () => {
    expect(checkPagesAgree(bodyOf("leaveRequestsPage1"), bodyOf("leaveRequestsPage2")).outcome).toBe("passed");
    const repeated = bodyOf("leaveRequestsPage2", (b) => void (b.data.data[1] = bodyOf("leaveRequestsPage1").data.data[0]));
    const finding = checkPagesAgree(bodyOf("leaveRequestsPage1"), repeated);
    expect(finding.outcome).toBe("violation");
    expect(finding.detail).toMatch(/repeats 1 item/);
  });

  it.each([
    [0, undefined],
    [1, undefined],
    [5, { pageSize: 3 }],
    [25, { pageSize: 13 }],
    [26, {}],
  ] as const)("a list of %i items reaches a second page with %j", (total, want) => {
    expect(secondPagePlan(total, 25)).toEqual(want);
  });
});

describe("filter semantics, item by item", () => {
  const items = leaveItems();
  const first = items[0];
  const other = items.find((i) => i.leaveStatusId !== first.leaveStatusId);
  const cases: [string, { given: { label: string; items: any[]; predicate: ItemPredicate }; want: { outcome: CheckOutcome; detail?: RegExp } }][] = [
    ["LeaveStatus by name, all match", { given: { label: "LeaveStatus", items: [first], predicate: leaveStatusPredicate(first.leaveStatus, spec.statusNames) }, want: { outcome: "passed" } }],
    ["LeaveStatus by number, all match", { given: { label: "LeaveStatus", items: [first], predicate: leaveStatusPredicate(String(first.leaveStatusId), spec.statusNames) }, want: { outcome: "passed" } }],
    ["LeaveStatus in lower case", { given: { label: "LeaveStatus", items: [first], predicate: leaveStatusPredicate(first.leaveStatus.toLowerCase(), spec.statusNames) }, want: { outcome: "passed" } }],
    [
      "LeaveStatus ignored by the server",
      { given: { label: "LeaveStatus=X", items: [first, other], predicate: leaveStatusPredicate(first.leaveStatus, spec.statusNames) }, want: { outcome: "violation", detail: /LeaveStatus=X: 1 of 2 items do not match/ } },
    ],
    ["an empty answer", { given: { label: "LeaveStatus", items: [], predicate: leaveStatusPredicate("Approved", spec.statusNames) }, want: { outcome: "not checked" } }],
    ["a field equal", { given: { label: "LeaveTypeId", items, predicate: fieldEquals("leaveTypeName", first.leaveTypeName) }, want: { outcome: items.every((i) => i.leaveTypeName === first.leaveTypeName) ? "passed" : "violation" } }],
    ["starting inside the range", { given: { label: "dates", items: [first], predicate: startsBetween(first.startDate.slice(0, 10), first.startDate.slice(0, 10)) }, want: { outcome: "passed" } }],
    ["starting after the range", { given: { label: "dates", items: [first], predicate: startsBetween("1999-01-01", "1999-12-31") }, want: { outcome: "violation", detail: /startDate/ } }],
    ["a search term in the name, another letter case", { given: { label: "SearchTerm", items: [first], predicate: containsTerm(swapCase(first.employeeName.slice(1, 4)), ["employeeName"]) }, want: { outcome: "passed" } }],
    ["a search term nowhere", { given: { label: "SearchTerm", items: [first], predicate: containsTerm("zzqx", ["employeeName"]) }, want: { outcome: "violation" } }],
    [
      "a search term that may match a hidden email",
      { given: { label: "SearchTerm", items: [first], predicate: containsTerm("zzqx", ["employeeName"], true) }, want: { outcome: "not checked", detail: /could not tell/ } },
    ],
  ];
  it.each(cases)("%s", (_, { given, want }) => {
    const finding = checkItemsMatch(given.label, given.items, given.predicate);
    expect(finding.outcome, finding.detail).toBe(want.outcome);
    if (want.detail) expect(finding.detail).toMatch(want.detail);
  });

  const A = "aaaaaaaa-0000-4000-8000-000000000001";
  const B = "bbbbbbbb-0000-4000-8000-000000000002";
  it.each([
    ["both values read: the lists add up", { given: { alone: [5, 6], together: 11 }, want: { outcome: "passed", detail: /gives 11 items, the 11 of each value alone/ } }],
    ["only the first value read", { given: { alone: [5, 6], together: 5 }, want: { outcome: "violation", detail: /gives 5 items but aaaaaaaa… alone 5, bbbbbbbb… alone 6 add up to 11: the repeated Companies parameter was not read in full/ } }],
    ["only the last value read", { given: { alone: [5, 6], together: 6 }, want: { outcome: "violation", detail: /not read in full/ } }],
    ["one value known", { given: { alone: [5], together: 5 }, want: { outcome: "not checked", detail: /fewer than two values/ } }],
  ] as [string, { given: { alone: number[]; together: number }; want: { outcome: CheckOutcome; detail: RegExp } }][])("Companies repeated: %s", (_, { given, want }) => {
    const alone = given.alone.map((totalRecords, i) => ({ value: [A, B][i], totalRecords }));
    const finding = checkRepeatedParameter("Companies", alone, given.together);
    expect(finding.outcome, finding.detail).toBe(want.outcome);
    expect(finding.detail, "the finding's reason").toMatch(want.detail);
  });

  it.each([
    ["Amara Okafor", "kaf"],
    ["Annual Leave", "nnu"],
    ["Al Bo", undefined],
  ])("a search term from inside %j is %j", (name, want) => {
    expect(searchTermFrom(name)).toBe(want);
  });

  const ordered = [...items].sort((a, b) => Date.parse(b.requestedOn) - Date.parse(a.requestedOn));
  it.each([
    ["newest first, as sorted", ordered, "newest first", "passed"],
    ["oldest first, reversed", [...ordered].reverse(), "oldest first", "passed"],
    ["newest first, but reversed", [...ordered].reverse(), "newest first", "violation"],
    ["a single item", ordered.slice(0, 1), "newest first", "not checked"],
  ] as const)("order: %s", (_, given, direction, want) => {
    expect(checkOrder("OrderBy", given, "requestedOn", direction).outcome).toBe(want);
  });
});

describe("details agree with list items", () => {
  const listItem = leaveItems()[0];
  it.each([
    ["the recorded details", bodyOf("leaveRequestDetails"), "passed", undefined],
    ["a field with another value", bodyOf("leaveRequestDetails", (b) => void (b.data.days += 1)), "violation", /days is \d+ in the list but \d+ in the details/],
    ["a list field missing", bodyOf("leaveRequestDetails", (b) => void delete b.data.comments), "violation", /details lack comments/],
  ] as const)("leave request: %s", (_, details, want, detail) => {
    const finding = checkLeaveRequestDetails(listItem, details, spec.leaveRequestListFields);
    expect(finding.outcome, finding.detail).toBe(want);
    if (detail) expect(finding.detail).toMatch(detail);
  });

  const department = bodyOf("departmentsPage").data.data[0];
  it.each([
    ["the recorded details", bodyOf("departmentDetails"), "passed", undefined],
    ["a shared field differs", bodyOf("departmentDetails", (b) => void (b.data.membersCount += 1)), "violation", /membersCount/],
    ["a leader whose full name does not start with the lead's first name", bodyOf("departmentDetails", (b) => void (b.data.leaders[0].name = `X${b.data.leaders[0].name}`)), "violation", /first word/],
    ["a lead missing from the leaders", bodyOf("departmentDetails", (b) => void (b.data.leaders = [])), "violation", /not among the details' leaders/],
  ] as const)("department: %s", (_, details, want, detail) => {
    const finding = checkDepartmentDetails(department, details, spec.departmentSharedFields);
    expect(finding.outcome, finding.detail).toBe(want);
    if (detail) expect(finding.detail).toMatch(detail);
  });

  it("department fields shared by list and details come from the spec, leads and leaders aside", () => {
    expect(spec.departmentSharedFields).toContain("membersCount");
    expect(spec.departmentSharedFields).not.toContain("leads");
    expect(spec.departmentSharedFields).not.toContain("leaders");
    expect(firstWord("  Amara Okafor ")).toBe("Amara");
  });
});

describe("rules of single records", () => {
  const items = leaveItems();
  it.each([
    ["recorded items", items, "passed"],
    ["status number and name disagree", [{ ...items[0], leaveStatusId: 0, leaveStatus: "Approved" }], "violation"],
    ["no item", [], "not checked"],
  ] as const)("status agreement: %s", (_, given, want) => {
    expect(checkStatusAgreement(given, spec.statusNames).outcome).toBe(want);
  });

  it.each([
    ["recorded items", items, "passed"],
    ["an end before the start", [{ ...items[0], startDate: "2026-12-10T00:00:00", endDate: "2026-12-09T00:00:00" }], "violation"],
    ["more days than calendar days", [{ ...items[0], startDate: "2026-12-07T00:00:00", endDate: "2026-12-08T00:00:00", days: 3 }], "violation"],
    ["negative days", [{ ...items[0], days: -1 }], "violation"],
  ] as const)("dates and days: %s", (_, given, want) => {
    expect(checkLeaveDates(given).outcome).toBe(want);
  });

  it.each([
    ["2026-12-07", "2026-12-13", 7, 5],
    ["2026-12-12", "2026-12-13", 2, 0],
    ["2026-12-31", "2027-01-01", 2, 2],
  ])("from %s to %s: %i calendar days, %i weekdays", (start, end, calendar, work) => {
    expect(calendarDays(start, end)).toBe(calendar);
    expect(weekdays(start, end)).toBe(work);
  });

  it("the recorded fixtures are the mock's answers", () => {
    expect(recorded.leaveRequestsPage1.status).toBe(200);
    expect(recorded.pageSizeTooLarge.status).toBe(400);
  });
});
