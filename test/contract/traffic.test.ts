// The contract suite's checks on traffic it did not choose (src/contract/traffic.ts, what the proxy
// runs on every exchange): recorded answers of the mock pass, and each planted break is reported as
// exactly its rule, at its pointer.
import { describe, expect, it } from "vitest";
import type { Exchange } from "../../src/contract/exchange.js";
import { loadContractSpec, type OperationId } from "../../src/contract/openapi.js";
import type { Problem } from "../../src/contract/results.js";
import { createTrafficChecker } from "../../src/contract/traffic.js";
import { exchangeOf, recorded } from "./support.js";

const spec = loadContractSpec();
type Name = keyof typeof recorded;

/** A checker that has seen `before` (list pages), then the problems of `exchange`. */
function problemsOf(op: OperationId, exchange: Exchange, before: [OperationId, Name][] = []): Problem[] {
  const checker = createTrafficChecker(spec);
  for (const [earlierOp, name] of before) expect(checker.check(earlierOp, exchangeOf(name)), `the recorded ${name} passes`).toEqual([]);
  return checker.check(op, exchange);
}

const rules = (problems: Problem[]) => problems.map((p) => `${p.rule} ${p.pointer}`);

describe("recorded answers of the mock keep the contract", () => {
  const cases: [string, { given: { op: OperationId; name: Name; before?: [OperationId, Name][] } }][] = [
    ["a leave request page", { given: { op: "listLeaveRequests", name: "leaveRequestsPage1" } }],
    ["a second page", { given: { op: "listLeaveRequests", name: "leaveRequestsPage2" } }],
    ["details after their list", { given: { op: "getLeaveRequest", name: "leaveRequestDetails", before: [["listLeaveRequests", "leaveRequestsPage1"]] } }],
    ["a department after its list", { given: { op: "getDepartment", name: "departmentDetails", before: [["listDepartments", "departmentsPage"]] } }],
    ["a leave type page", { given: { op: "listLeaveTypes", name: "leaveTypesPage" } }],
    ["a balance", { given: { op: "getLeaveBalance", name: "leaveBalance" } }],
    ["a documented 400", { given: { op: "listLeaveRequests", name: "pageSizeTooLarge" } }],
    ["a documented 401", { given: { op: "listLeaveRequests", name: "noKey" } }],
    ["a documented 404", { given: { op: "getDepartment", name: "unknownDepartment" } }],
  ];
  it.each(cases)("%s", (_, { given }) => {
    expect(problemsOf(given.op, exchangeOf(given.name), given.before)).toEqual([]);
  });
});

describe("one planted break, reported as exactly its rule", () => {
  const lists: [OperationId, Name][] = [["listLeaveRequests", "leaveRequestsPage1"]];
  const cases: [string, { given: { op: OperationId; exchange: Exchange; before?: [OperationId, Name][] }; want: string[]; message?: RegExp }][] = [
    ["a wrong type", { given: { op: "listLeaveRequests", exchange: exchangeOf("leaveRequestsPage1", { change: (b) => void (b.data.data[1].days = "3") }) }, want: ["schema.type /data/data/1/days"], message: /Expected "integer"/ }],
    [
      "the same wrong type on every item, told once",
      { given: { op: "listLeaveRequests", exchange: exchangeOf("leaveRequestsPage1", { change: (b) => b.data.data.forEach((i: any) => (i.days = String(i.days))) }) }, want: ["schema.type /data/data/*/days"], message: /\(4 items\)/ },
    ],
    ["a dropped field", { given: { op: "listLeaveRequests", exchange: exchangeOf("leaveRequestsPage1", { change: (b) => void delete b.data.data[0].leaveStatus }) }, want: ["schema.required /data/data/0/leaveStatus"] }],
    ["a date format", { given: { op: "listLeaveRequests", exchange: exchangeOf("leaveRequestsPage1", { change: (b) => void (b.data.data[2].startDate = b.data.data[2].startDate.slice(0, 10)) }) }, want: ["schema.pattern /data/data/2/startDate"] }],
    ["no envelope", { given: { op: "listLeaveRequests", exchange: exchangeOf("leaveRequestsPage1", { change: (b) => b.data }) }, want: ["envelope "] }],
    ["an undocumented status", { given: { op: "listLeaveRequests", exchange: exchangeOf("pageSizeTooLarge", { status: 422 }) }, want: ["status "] }],
    ["a body that is not JSON", { given: { op: "listLeaveTypes", exchange: { ...exchangeOf("leaveTypesPage"), body: undefined, bodyText: "<html>" } }, want: ["json "] }],
    ["an incoherent page: totalPages", { given: { op: "listLeaveRequests", exchange: exchangeOf("leaveRequestsPage1", { change: (b) => void (b.data.totalPages += 1) }) }, want: ["paging /data/totalPages"] }],
    ["an incoherent page: more items than pageSize", { given: { op: "listLeaveRequests", exchange: exchangeOf("leaveRequestsPage1", { change: (b) => void b.data.data.pop() }) }, want: ["paging /data/data"] }],
    ["a page size other than asked", { given: { op: "listLeaveRequests", exchange: exchangeOf("leaveRequestsPage1", { query: [["PageSize", "5"]] }) }, want: ["paging /data/pageSize"] }],
    [
      "a detail that differs from its list item",
      { given: { op: "getLeaveRequest", before: lists, exchange: exchangeOf("leaveRequestDetails", { change: (b) => void (b.data.comments = "Changed my mind.") }) }, want: ["details /data/comments"], message: /comments is "Visiting my parents." in the list but "Changed my mind." in the details/ },
    ],
    [
      "a department's leader who is not among its leads",
      { given: { op: "getDepartment", before: [["listDepartments", "departmentsPage"]], exchange: exchangeOf("departmentDetails", { change: (b) => void (b.data.leaders[0].name = "Somebody Else") }) }, want: ["details /data/leaders"] },
    ],
    [
      "a filter not honoured",
      { given: { op: "listLeaveRequests", exchange: exchangeOf("leaveRequestsPage1", { query: [["PageSize", "4"], ["LeaveStatus", "Approved"]] }) }, want: ["filters /data/data/0"], message: /LeaveStatus=Approved/ },
    ],
    ["an order not kept", { given: { op: "listLeaveRequests", exchange: exchangeOf("leaveRequestsPage1", { change: (b) => void b.data.data.reverse() }) }, want: ["order /data/data"] }],
    ["a status number and name that disagree", { given: { op: "listLeaveRequests", exchange: exchangeOf("leaveRequestsPage1", { change: (b) => void (b.data.data[0].leaveStatusId = 2) }) }, want: ["records /data/data"] }],
  ];
  it.each(cases)("%s", (_, { given, want, message }) => {
    const problems = problemsOf(given.op, given.exchange, given.before);
    expect(rules(problems), JSON.stringify(problems)).toEqual(want);
    if (message) expect(problems[0].message).toMatch(message);
  });

  it("makes no semantic check when the request itself broke the contract", () => {
    const checker = createTrafficChecker(spec);
    const exchange = exchangeOf("leaveRequestsPage1", { query: [["PageSize", "5"]] });
    expect(checker.check("listLeaveRequests", exchange, { semantic: false })).toEqual([]);
  });

  it("reads parameter names in any letter case, the last value winning, as the service does", () => {
    const exchange = exchangeOf("leaveRequestsPage1", { query: [["pagesize", "9"], ["PAGESIZE", "4"]] });
    expect(problemsOf("listLeaveRequests", exchange)).toEqual([]);
  });
});

describe("the security rules, from what the deployment's own answers showed about each key", () => {
  type Step = [OperationId, Exchange, string | undefined];
  const refused = (status: 401 | 403, answerStatus: number = status) => exchangeOf("noKey", { status: answerStatus, change: (b) => void (b.code = String(status)) });
  /** A whole department list (one page holds every record); `org` 2 has other ids. */
  const wholeDepartments = (org: 1 | 2, query: [string, string][] = [["PageSize", "3"]]) =>
    exchangeOf("departmentsPage", {
      query,
      change: (b) => {
        Object.assign(b.data, { totalRecords: 3, totalPages: 1 });
        if (org === 2) b.data.data.forEach((d: any, i: number) => (d.id = `00000000-0000-4000-8000-00000000020${i}`));
      },
    });
  const org1Requests: Step = ["listLeaveRequests", exchangeOf("leaveRequestsPage1"), "org1"];
  const bothWhole: Step[] = [["listDepartments", wholeDepartments(1), "org1"], ["listDepartments", wholeDepartments(2), "org2"]];

  const cases: [string, { given: Step[]; want: string[]; message?: RegExp }][] = [
    ["a request without a key answered 200", { given: [["listLeaveRequests", exchangeOf("leaveRequestsPage1", { auth: "none" }), undefined]], want: ["security.no-key "], message: /^answered 200 to a request without a key \(no Authorization header\): the contract refuses it with 401$/ }],
    ["an Authorization that is not Bearer, answered 200", { given: [["listLeaveTypes", exchangeOf("leaveTypesPage", { auth: "malformed" }), "basic"]], want: ["security.no-key "], message: /whose Authorization is not a Bearer key/ }],
    ["a request without a key refused", { given: [["listLeaveRequests", exchangeOf("noKey", { auth: "none" }), undefined]], want: [] }],
    ["a key refused as unknown, then let in", { given: [["listLeaveRequests", refused(401), "k"], ["listDepartments", exchangeOf("departmentsPage"), "k"]], want: ["security.unknown-key "], message: /refused as unknown \(401 on listLeaveRequests\)/ }],
    ["a key refused with the failure envelope at 200, then let in", { given: [["listLeaveRequests", refused(401, 200), "k"], ["listLeaveTypes", exchangeOf("leaveTypesPage"), "k"]], want: ["security.unknown-key "] }],
    ["a key let in, then refused (revoked)", { given: [["listDepartments", exchangeOf("departmentsPage"), "k"], ["listLeaveRequests", refused(401), "k"]], want: [] }],
    ["another key refused as unknown", { given: [["listLeaveRequests", refused(401), "k1"], ["listDepartments", exchangeOf("departmentsPage"), "k2"]], want: [] }],
    ["a key refused a permission, then let in to an operation that needs it", { given: [["listLeaveTypes", refused(403), "k"], ["getLeaveBalance", exchangeOf("leaveBalance"), "k"]], want: ["security.permission "], message: /refused the permission Leave: View \(403 on listLeaveTypes\)/ }],
    ["a key refused a permission, let in to one it was not refused", { given: [["listLeaveTypes", refused(403), "k"], ["listDepartments", exchangeOf("departmentsPage"), "k"]], want: [] }],
    [
      "another organisation's record answered with data",
      { given: [...bothWhole, org1Requests, ["getLeaveRequest", exchangeOf("leaveRequestDetails"), "org2"]], want: ["security.organisation "], message: /the id of a record shown to a key of another organisation \(the two keys' whole listDepartments answers share no record\)/ },
    ],
    ["another organisation's record refused with 404", { given: [...bothWhole, org1Requests, ["getLeaveRequest", exchangeOf("unknownDepartment"), "org2"]], want: [] }],
    ["a record of the key's own organisation (whole lists in common)", { given: [["listDepartments", wholeDepartments(1), "org1"], ["listDepartments", wholeDepartments(1), "org1b"], org1Requests, ["getLeaveRequest", exchangeOf("leaveRequestDetails"), "org1b"]], want: [] }],
    ["no whole list to tell the organisations apart", { given: [["listDepartments", wholeDepartments(1), "org1"], org1Requests, ["getLeaveRequest", exchangeOf("leaveRequestDetails"), "org2"]], want: [] }],
    [
      "a filtered list is not whole",
      { given: [["listDepartments", wholeDepartments(1), "org1"], ["listDepartments", wholeDepartments(2, [["PageSize", "3"], ["Companies", "00000000-0000-4000-8000-0000000c0002"]]), "org2"], org1Requests, ["getLeaveRequest", exchangeOf("leaveRequestDetails"), "org2"]], want: [] },
    ],
  ];
  it.each(cases)("%s", (_, { given, want, message }) => {
    const checker = createTrafficChecker(spec);
    const steps = given.map(([op, exchange, caller]) => checker.check(op, exchange, { caller }));
    for (const [i, problems] of steps.slice(0, -1).entries()) expect(problems, `step ${i + 1} passes`).toEqual([]);
    const last = steps.at(-1)!;
    expect(rules(last), JSON.stringify(last)).toEqual(want);
    if (message) expect(last[0].message).toMatch(message);
  });
});

describe("memory", () => {
  it("keeps at most rememberItems list items of a kind, the oldest going first", () => {
    const checker = createTrafficChecker(spec, { rememberItems: 2 });
    checker.check("listLeaveRequests", exchangeOf("leaveRequestsPage1"));
    expect(checker.remembered).toBe(2);
    // The details' list item (the page's first) was forgotten: nothing to compare, no problem.
    expect(checker.check("getLeaveRequest", exchangeOf("leaveRequestDetails", { change: (b) => void (b.data.comments = "changed") }))).toEqual([]);
  });

  it("caps the problems told of one answer", () => {
    const checker = createTrafficChecker(spec, { maxProblemsPerAnswer: 3 });
    const exchange = exchangeOf("leaveRequestsPage1", { change: (b) => b.data.data.forEach((i: any, n: number) => (i[`extra${n}`] = 1, delete i.id, delete i.days, delete i.comments, (i.leaveStatus = n))) });
    const problems = checker.check("listLeaveRequests", exchange);
    expect(problems).toHaveLength(3);
    expect(problems[2]).toMatchObject({ rule: "more", message: expect.stringMatching(/^and \d+ more problems/) });
  });
});
