import { describe, expect, it } from "vitest";
import { statusOf } from "../../mock/pipeline/status.js";
import { computeBalance } from "../../mock/data/balances.js";
import { sampleIds } from "../../mock/data/dataset.js";
import { balanceKey } from "../../mock/data/organization.js";
import type { OperationId } from "../../mock/operations/read/contract.js";
import { handlers } from "../../mock/operations/read/index.js";
import { createDocumentValidator } from "../../scripts/lib/spec-validator.js";
import { deref, flatten, loadOpenApi } from "../../scripts/lib/spec-document.js";
import { TODAY, call, dataOf, freshDataset } from "./fixture.js";

const openapi = loadOpenApi();
const validator = createDocumentValidator(openapi, "openapi");
const ds = freshDataset();
const [A, B] = sampleIds(ds);
const [orgA, orgB] = ds.organizations;

/** Fields of `value` that its schema does not list, all the way down (the spec's fields and no others). */
function extraFields(node: any, value: unknown, at = "data"): string[] {
  const schema = deref(openapi, node);
  const parts = [schema, ...(schema.allOf ?? []).map((p: any) => deref(openapi, p))];
  if (Array.isArray(value)) {
    const items = parts.find((p: any) => p.items)?.items;
    return items ? value.flatMap((v, i) => extraFields(items, v, `${at}[${i}]`)) : [];
  }
  if (value === null || typeof value !== "object") return [];
  const { properties } = flatten(openapi, schema);
  return Object.entries(value).flatMap(([key, v]) => (key in properties ? extraFields(properties[key], v, `${at}.${key}`) : [`${at}.${key}`]));
}

/** Ajv errors and extra fields of a handler's data against a schema of the bundled spec, and of the envelope around it. */
function schemaProblems(schemaName: string, responseName: string, data: unknown): string[] {
  return [
    ...validator.validate(`/components/schemas/${schemaName}`, data),
    ...validator.validate(`/components/schemas/${responseName}`, { isSuccessful: true, code: "00", message: "Success", data }).map((e) => `envelope: ${e}`),
    ...extraFields(openapi.components.schemas[schemaName], data).map((f) => `${f} is not a field of ${schemaName}`),
  ];
}

type Call = [string, { op: OperationId; query?: Record<string, unknown>; path?: Record<string, string>; schema: string; response: string }];

function successCalls(s: typeof A): Call[] {
  return [
    ["leave requests, defaults", { op: "listLeaveRequests", schema: "LeaveRequestPage", response: "LeaveRequestListResponse" }],
    ["leave requests, largest page, oldest first", { op: "listLeaveRequests", query: { PageSize: 100, OrderBy: 0 }, schema: "LeaveRequestPage", response: "LeaveRequestListResponse" }],
    ["leave requests, every filter", { op: "listLeaveRequests", query: { CompanyId: s.companyId, LeaveStatus: "Approved", StartDate: "2025-01-01", EndDate: "2026-12-31", SearchTerm: "a", PageSize: 100 }, schema: "LeaveRequestPage", response: "LeaveRequestListResponse" }],
    ["leave requests, past the end", { op: "listLeaveRequests", query: { PageNumber: 9999 }, schema: "LeaveRequestPage", response: "LeaveRequestListResponse" }],
    ["a leave request", { op: "getLeaveRequest", path: { id: s.leaveRequestId }, schema: "LeaveRequestDetails", response: "LeaveRequestDetailsResponse" }],
    ["a leave request with documents", { op: "getLeaveRequest", path: { id: ds.organizations.find((o) => o.id === s.organizationId)!.leaveRequests.find((r) => r.documents.length > 0)!.id }, schema: "LeaveRequestDetails", response: "LeaveRequestDetailsResponse" }],
    ["a balance", { op: "getLeaveBalance", query: { EmployeeId: s.balance.employeeId, LeaveTypeId: s.balance.leaveTypeId }, schema: "LeaveBalance", response: "LeaveBalanceResponse" }],
    ["a balance never set up", { op: "getLeaveBalance", query: { EmployeeId: s.balanceNeverSetUp.employeeId, LeaveTypeId: s.balanceNeverSetUp.leaveTypeId }, schema: "LeaveBalance", response: "LeaveBalanceResponse" }],
    ...[0, 1, 2, 3, 4].map((k): Call => [`leave types of eligibility ${k}`, { op: "listLeaveTypes", query: { EligibilityCriteria: k }, schema: "LeaveTypePage", response: "LeaveTypeListResponse" }]),
    ["departments, defaults", { op: "listDepartments", schema: "DepartmentPage", response: "DepartmentListResponse" }],
    ["departments, largest page", { op: "listDepartments", query: { PageSize: 100 }, schema: "DepartmentPage", response: "DepartmentListResponse" }],
    ["a department", { op: "getDepartment", path: { id: s.departmentId }, schema: "DepartmentDetails", response: "DepartmentDetailsResponse" }],
    ["an InActive department", { op: "getDepartment", path: { id: s.inactiveDepartmentId }, schema: "DepartmentDetails", response: "DepartmentDetailsResponse" }],
    ["employees", { op: "listEmployees", query: { PageSize: 100 }, schema: "EmployeePage", response: "EmployeeListResponse" }],
    ["terminated employees", { op: "listEmployees", query: { Status: "Terminated" }, schema: "EmployeePage", response: "EmployeeListResponse" }],
  ];
}

describe("every handler's output validates against the bundled spec, with no field beyond it", () => {
  for (const s of [A, B]) {
    describe(s.organizationName, () => {
      it.each(successCalls(s))("%s", (_name, c) => {
        const data = dataOf(call(ds, c.op, s.organizationId, c.query, c.path));
        expect(schemaProblems(c.schema, c.response, data)).toEqual([]);
      });
    });
  }

  it("every page of every list of every organisation validates", () => {
    const problems: string[] = [];
    for (const s of [A, B]) {
      for (const [op, schema, response] of [
        ["listLeaveRequests", "LeaveRequestPage", "LeaveRequestListResponse"],
        ["listDepartments", "DepartmentPage", "DepartmentListResponse"],
        ["listEmployees", "EmployeePage", "EmployeeListResponse"],
      ] as const) {
        for (let page = 1; ; page++) {
          const data = dataOf(call(ds, op, s.organizationId, { PageSize: 100, PageNumber: page }));
          problems.push(...schemaProblems(schema, response, data).map((p) => `${op} page ${page}: ${p}`));
          if (page >= data.totalPages) break;
        }
      }
    }
    expect(problems.slice(0, 10)).toEqual([]);
  });

  it("every leave request's and department's details validate", () => {
    const problems: string[] = [];
    for (const org of ds.organizations) {
      for (const r of org.leaveRequests) problems.push(...schemaProblems("LeaveRequestDetails", "LeaveRequestDetailsResponse", dataOf(call(ds, "getLeaveRequest", org.id, {}, { id: r.id }))));
      for (const d of org.departments) problems.push(...schemaProblems("DepartmentDetails", "DepartmentDetailsResponse", dataOf(call(ds, "getDepartment", org.id, {}, { id: d.id }))));
    }
    expect(problems.slice(0, 10)).toEqual([]);
  });

  it("the field check itself sees fields the spec does not list, nested ones too", () => {
    const page = { data: [{ id: "x", companyId: "leak" }], pageNumber: 1, internal: true };
    expect(extraFields(openapi.components.schemas.LeaveRequestPage, page)).toEqual(["data.data[0].companyId", "data.internal"]);
    expect(extraFields(openapi.components.schemas.LeaveRequestDetails, { relievers: [{ id: "x", sex: "female" }] })).toEqual(["data.relievers[0].sex"]);
  });

  it("handlers exist for exactly the spec's operations", () => {
    const ids = Object.values<any>(openapi.paths).flatMap((item) => Object.values<any>(item).map((op) => op.operationId));
    expect(Object.keys(handlers).sort()).toEqual(ids.sort());
  });
});

describe("details agree with list items", () => {
  it.each([
    ["A", orgA],
    ["B", orgB],
  ])("leave requests of organisation %s: details hold the list item field for field", (_n, org) => {
    const all = dataOf(call(ds, "listLeaveRequests", org.id, { PageSize: 100 })).data as any[];
    for (const item of all) {
      const details = dataOf(call(ds, "getLeaveRequest", org.id, {}, { id: item.id }));
      expect(Object.fromEntries(Object.keys(item).map((k) => [k, details[k]])), item.id).toEqual(item);
      expect(`${details.firstName} ${details.lastName}`).toBe(item.employeeName);
    }
  });

  it.each([
    ["A", orgA],
    ["B", orgB],
  ])("departments of organisation %s: same fields, leads with first names where details give leaders with full names", (_n, org) => {
    const all = dataOf(call(ds, "listDepartments", org.id, { PageSize: 100 })).data as any[];
    expect(all.length).toBe(org.departments.length);
    for (const item of all) {
      const { leads, ...rest } = item;
      const details = dataOf(call(ds, "getDepartment", org.id, {}, { id: item.id }));
      expect(Object.fromEntries(Object.keys(rest).map((k) => [k, details[k]])), item.name).toEqual(rest);
      expect(details.leaders.map((l: any) => l.id)).toEqual(leads.map((l: any) => l.id));
      details.leaders.forEach((l: any, i: number) => expect(l.name.startsWith(`${leads[i].name} `), `${l.name} starts with ${leads[i].name}`).toBe(true));
      expect(details.companyId).toBe(org.index.departmentById.get(item.id)!.companyId);
    }
  });
});

describe("semantics", () => {
  it("defaults: page 1 of 25, newest first (by requestedOn)", () => {
    const page = dataOf(call(ds, "listLeaveRequests", A.organizationId));
    expect([page.pageNumber, page.pageSize, page.totalRecords, page.data.length]).toEqual([1, 25, orgA.leaveRequests.length, 25]);
    const newest = [...orgA.leaveRequests].sort((a, b) => (a.requestedOn < b.requestedOn ? 1 : -1)).slice(0, 25);
    expect(page.data.map((r: any) => r.requestedOn)).toEqual(newest.map((r) => r.requestedOn));
    const oldest = dataOf(call(ds, "listLeaveRequests", A.organizationId, { OrderBy: 0, PageSize: 3 }));
    expect(oldest.data.map((r: any) => r.id)).toEqual(orgA.leaveRequests.slice(0, 3).map((r) => r.id));
  });

  it.each([
    ["listLeaveRequests", "OrderBy"],
    ["listDepartments", "OrderBy"],
    ["listLeaveTypes", "EligibilityCriteria"],
    ["listEmployees", "PageNumber"],
    ["listLeaveRequests", "PageSize"],
  ] as const)("%s without %s answers as with the spec's default", (op, name) => {
    const path = Object.values<any>(openapi.paths).find((item) => item.get?.operationId === op).get;
    const param = path.parameters.map((p: any) => deref(openapi, p)).find((p: any) => p.name === name);
    const fallback = deref(openapi, param.schema).default ?? param.schema.default;
    expect(fallback, `${name} has a default in the spec`).toBeDefined();
    expect(call(ds, op, A.organizationId, {})).toEqual(call(ds, op, A.organizationId, { [name]: fallback }));
  });

  it("dates are written as the spec says", () => {
    const r = dataOf(call(ds, "getLeaveRequest", A.organizationId, {}, { id: A.leaveRequestId }));
    expect(r.startDate).toMatch(/^\d{4}-\d{2}-\d{2}T00:00:00$/);
    expect(r.endDate).toMatch(/^\d{4}-\d{2}-\d{2}T00:00:00$/);
    expect(r.requestedOn).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{7}Z$/);
  });

  it("leave types: without EligibilityCriteria only organisation-wide types", () => {
    const page = dataOf(call(ds, "listLeaveTypes", A.organizationId, { PageSize: 100 }));
    expect(page.data.length).toBeGreaterThan(0);
    expect(page.data.every((t: any) => t.eligibilityCriteria === 0)).toBe(true);
    expect(page.totalRecords).toBe(orgA.leaveTypes.filter((t) => t.eligibilityCriteria === 0).length);
  });

  it("leave types: IsActive false gives the inactive ones only", () => {
    const page = dataOf(call(ds, "listLeaveTypes", A.organizationId, { IsActive: false }));
    expect(page.data.map((t: any) => t.id)).toEqual(orgA.leaveTypes.filter((t) => t.eligibilityCriteria === 0 && !t.isActive).map((t) => t.id));
  });

  it("leave types: CompanyId keeps company-eligible types naming that company, and drops those naming only others", () => {
    const maternity = orgA.leaveTypes.find((t) => t.eligibilityCriteria === 1)!;
    const inside = maternity.eligibleIds[0];
    const outside = orgA.companies.find((c) => !maternity.eligibleIds.includes(c.id));
    const ids = (companyId: string) => dataOf(call(ds, "listLeaveTypes", A.organizationId, { EligibilityCriteria: 1, CompanyId: companyId })).data.map((t: any) => t.id);
    expect(ids(inside)).toContain(maternity.id);
    expect(outside, "a company the company-eligible type does not name (else the second half tests nothing)").toBeDefined();
    expect(ids(outside!.id)).not.toContain(maternity.id);
  });

  it("departments: Companies as one value or repeated", () => {
    const [c1, c2] = orgA.companies;
    const one = dataOf(call(ds, "listDepartments", A.organizationId, { Companies: [c1.id], PageSize: 100 }));
    const two = dataOf(call(ds, "listDepartments", A.organizationId, { Companies: [c1.id, c2.id], PageSize: 100 }));
    expect(one.totalRecords).toBe(orgA.departments.filter((d) => d.companyId === c1.id).length);
    expect(two.totalRecords).toBe(orgA.departments.filter((d) => d.companyId === c1.id || d.companyId === c2.id).length);
  });

  it("employees: Status filters, the list is in code order", () => {
    const page = dataOf(call(ds, "listEmployees", A.organizationId, { Status: "Active", PageSize: 100 }));
    const active = orgA.employees.filter((e) => e.status === "Active");
    expect(page.totalRecords).toBe(active.length);
    expect(page.data.map((e: any) => e.employeeId)).toEqual(active.slice(0, 100).map((e) => e.code));
  });

  it("balances agree with the requests of this year", () => {
    let checked = 0;
    for (const org of [orgA, orgB]) {
      for (const b of org.balanceSetUps.slice(0, 300)) {
        const requests = org.index.requestsByEmployee.get(b.employeeId)!.filter((r) => r.leaveTypeId === b.leaveTypeId && r.startDate.startsWith(TODAY.slice(0, 4)));
        const sum = (ids: number[]) => requests.filter((r) => ids.includes(r.statusId)).reduce((n, r) => n + r.days, 0);
        const got = dataOf(call(ds, "getLeaveBalance", org.id, { EmployeeId: b.employeeId, LeaveTypeId: b.leaveTypeId }));
        const type = org.index.leaveTypeById.get(b.leaveTypeId)!;
        const carried = Number(TODAY.slice(5, 7)) - 1 <= type.carryForward.expirationDate ? Math.min(b.carriedForwardDays, type.carryForward.maxCarryForwardLimit) : 0;
        const want = { daysTaken: sum([2]), leavePending: sum([0, 1]), leaveRejected: sum([3]), totalDays: type.maxLeaveDays + carried };
        expect(got, `${b.employeeId} / ${type.name}`).toEqual({ ...want, daysRemaining: Math.max(0, want.totalDays - want.daysTaken - want.leavePending) });
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it("rule 1: a balance never set up is the full allowance with nothing taken", () => {
    const type = orgA.index.leaveTypeById.get(A.balanceNeverSetUp.leaveTypeId)!;
    const got = dataOf(call(ds, "getLeaveBalance", A.organizationId, { EmployeeId: A.balanceNeverSetUp.employeeId, LeaveTypeId: type.id }));
    expect(got).toEqual({ totalDays: type.maxLeaveDays, daysTaken: 0, daysRemaining: type.maxLeaveDays, leavePending: 0, leaveRejected: 0 });
    expect(orgA.index.balanceSetUpByKey.has(balanceKey(A.balanceNeverSetUp.employeeId, type.id))).toBe(false);
  });

  it("the balance handler is the balance rule over the index", () => {
    const b = A.balance;
    const setUp = orgA.index.balanceSetUpByKey.get(balanceKey(b.employeeId, b.leaveTypeId))!;
    const want = computeBalance({
      leaveType: orgA.index.leaveTypeById.get(b.leaveTypeId)!,
      setUp: true,
      carriedForwardDays: setUp.carriedForwardDays,
      requests: orgA.leaveRequests.filter((r) => r.employeeId === b.employeeId && r.leaveTypeId === b.leaveTypeId),
      today: TODAY,
    });
    expect(dataOf(call(ds, "getLeaveBalance", A.organizationId, { EmployeeId: b.employeeId, LeaveTypeId: b.leaveTypeId }))).toEqual(want);
  });
});

type Failure = [string, { op: OperationId; query?: Record<string, unknown>; path?: Record<string, string>; status: 400 | 404; mentions: string[] }];

// A 400 starts as the HTTP layer's messages do, "Invalid parameter X: " or "Missing parameter X: ",
// X being the first word of `mentions`; a 404 starts "Not found: ". What the spec expresses (types,
// bounds, enums, formats, required) is refused before a handler runs: test/mock-server/request-checks.test.ts.
const failures: Failure[] = [
  ["StartDate without EndDate", { op: "listLeaveRequests", query: { StartDate: "2026-01-01" }, status: 400, mentions: ["EndDate", "StartDate", "both or neither"] }],
  ["EndDate without StartDate", { op: "listLeaveRequests", query: { EndDate: "2026-01-01" }, status: 400, mentions: ["StartDate", "EndDate", "both or neither"] }],
  ["EndDate before StartDate", { op: "listLeaveRequests", query: { StartDate: "2026-02-01", EndDate: "2026-01-31" }, status: 400, mentions: ["EndDate", "before", "StartDate (2026-02-01)", '"2026-01-31"'] }],
  ["unknown leave request", { op: "getLeaveRequest", path: { id: "0b7e5c3e-8d2f-4c1a-9a57-2f1f0c6b9d12" }, status: 404, mentions: ["leave request", "0b7e5c3e-8d2f-4c1a-9a57-2f1f0c6b9d12"] }],
  ["another organisation's leave request", { op: "getLeaveRequest", path: { id: B.leaveRequestId }, status: 404, mentions: ["leave request", B.leaveRequestId] }],
  ["unknown department", { op: "getDepartment", path: { id: "6f7a8b9c-0d1e-4f2a-b3c4-d5e6f7a8b9c1" }, status: 404, mentions: ["department"] }],
  ["another organisation's department", { op: "getDepartment", path: { id: B.departmentId }, status: 404, mentions: ["department", B.departmentId] }],
  ["balance of another organisation's employee", { op: "getLeaveBalance", query: { EmployeeId: B.employeeId, LeaveTypeId: A.leaveTypeIdByEligibility[0] }, status: 404, mentions: ["employee", "EmployeeId", B.employeeId] }],
  ["balance of another organisation's leave type", { op: "getLeaveBalance", query: { EmployeeId: A.employeeId, LeaveTypeId: B.leaveTypeIdByEligibility[0] }, status: 404, mentions: ["leave type", "LeaveTypeId", B.leaveTypeIdByEligibility[0]] }],
];

describe("failures the spec cannot express name their cause and parameter", () => {
  it.each(failures)("%s", (_name, f) => {
    const result = call(ds, f.op, A.organizationId, f.query, f.path);
    expect(result.ok, "a failure").toBe(false);
    if (result.ok) return;
    expect(statusOf(result.kind), result.kind).toBe(f.status);
    const start = f.status === 404 ? /^Not found: / : new RegExp(`^(Invalid|Missing) parameter ${f.mentions[0]}: `);
    expect(result.message, "worded as the HTTP layer's messages").toMatch(start);
    for (const word of f.mentions) expect(result.message, `message names ${word}`).toContain(word);
  });

  it("an unknown caller organisation is a 404, not a crash", () => {
    const result = call(ds, "listLeaveRequests", "00000000-0000-4000-8000-000000000000");
    expect(result).toMatchObject({ ok: false, kind: "not-found" });
  });
});

describe("organisation isolation", () => {
  it("another organisation's id answers exactly as an unknown id", () => {
    const unknown = "0b7e5c3e-8d2f-4c1a-9a57-2f1f0c6b9d12";
    const theirs = call(ds, "getLeaveRequest", A.organizationId, {}, { id: B.leaveRequestId });
    const none = call(ds, "getLeaveRequest", A.organizationId, {}, { id: unknown });
    expect(theirs).toEqual({ ...none, message: (none as any).message.replace(unknown, B.leaveRequestId) });
  });

  it.each([
    ["CompanyId", { CompanyId: B.companyId }],
    ["DepartmentId", { DepartmentId: B.departmentId }],
    ["LeaveTypeId", { LeaveTypeId: B.leaveTypeIdByEligibility[0] }],
  ])("filtering leave requests by another organisation's %s finds nothing", (_name, query) => {
    const page = dataOf(call(ds, "listLeaveRequests", A.organizationId, query));
    expect([page.totalRecords, page.totalPages, page.data]).toEqual([0, 0, []]);
  });

  it("lists hold only the caller's records", () => {
    const idsOf = (op: OperationId) => {
      const out: string[] = [];
      for (let page = 1; ; page++) {
        const d = dataOf(call(ds, op, A.organizationId, { PageSize: 100, PageNumber: page }));
        out.push(...d.data.map((x: any) => x.id));
        if (page >= d.totalPages) return out;
      }
    };
    expect(idsOf("listLeaveRequests").every((id) => orgA.index.leaveRequestById.has(id))).toBe(true);
    expect(idsOf("listDepartments").every((id) => orgA.index.departmentById.has(id))).toBe(true);
    expect(idsOf("listEmployees").every((id) => orgA.index.employeeById.has(id))).toBe(true);
  });
});
