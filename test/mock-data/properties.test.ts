// Property-based tests over random filter, order and paging combinations: every item matches the
// filters, pages are coherent, and the union of all pages is a direct computation over the
// dataset's records (written here independently of mock/data/filters.ts), in order, no item twice.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { sampleIds } from "../../mock/data/dataset.js";
import { dayOf, isoDate } from "../../mock/data/dates.js";
import type { OperationId } from "../../mock/operations/read/contract.js";
import { canonicalCase, checkParams } from "../../mock/pipeline/params.js";
import { loadSpec, type LoadedSpec } from "../../mock/kernel/spec.js";
import { call, dataOf, freshDataset } from "./fixture.js";

const ds = freshDataset();
const [org, other] = ds.organizations;
const [A, B] = sampleIds(ds);
const NAMES = ["Submitted", "Pending", "Approved", "Rejected", "Abandoned", "Expired"];
const RUNS = 120;

type Query = Record<string, string | string[] | undefined>;

let spec: LoadedSpec;
beforeAll(async () => {
  spec = await loadSpec();
});

/** The query as the HTTP layer hands it to the handler (letter case settled, typed, defaulted); the values are valid by construction. */
function typed(op: OperationId, query: Query) {
  const operation = spec.byOperationId.get(op)!;
  const given = Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined)) as Query;
  canonicalCase([operation], given);
  const checked = checkParams(operation, [], "", given, {});
  if (!checked.ok) throw new Error(`the test built an invalid query: ${checked.violations.map((v) => v.message).join(" ")}`);
  return checked.typed.query as never;
}

/** Every page from 1 to totalPages, plus the one past the end; checks coherence on the way. */
function allPages(op: OperationId, query: Query): any[] {
  const items: any[] = [];
  const first = dataOf(call(ds, op, org.id, typed(op, query)));
  const pageSize = Number(query.PageSize ?? 25);
  for (let page = 1; page <= first.totalPages + 1; page++) {
    const data = page === 1 && query.PageNumber === undefined ? first : dataOf(call(ds, op, org.id, typed(op, { ...query, PageNumber: String(page) })));
    expect(data.pageNumber, "pageNumber echoes the request").toBe(page === 1 && query.PageNumber === undefined ? 1 : page);
    expect(data.pageSize).toBe(pageSize);
    expect(data.totalRecords, "totals are the same on every page").toBe(first.totalRecords);
    expect(data.totalPages, "totalPages = ceil(totalRecords / pageSize)").toBe(Math.ceil(first.totalRecords / pageSize));
    const expectedLength = page <= data.totalPages ? Math.min(pageSize, data.totalRecords - (page - 1) * pageSize) : 0;
    expect(data.data.length, `length of page ${page}`).toBe(expectedLength);
    items.push(...data.data);
  }
  expect(items.length, "the pages hold totalRecords items").toBe(first.totalRecords);
  expect(new Set(items.map((i) => i.id)).size, "no item twice").toBe(items.length);
  return items;
}

const randomCase = (text: string) => fc.constantFrom(text, text.toLowerCase(), text.toUpperCase());
/** A piece of one of the texts, in a random letter case, or a random short string. */
const searchTerm = (texts: string[]) =>
  fc.oneof(
    fc.constantFrom(...texts).chain((t) => fc.tuple(fc.nat({ max: Math.max(0, t.length - 1) }), fc.integer({ min: 1, max: 7 })).chain(([i, n]) => randomCase(t.slice(i, i + n)))),
    fc.string({ maxLength: 3 }),
  );
/** A parameter that is absent two times in three, so that combinations still find records. */
const optional = <T>(arb: fc.Arbitrary<T>) => fc.oneof({ weight: 2, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });
const idOf = (ids: string[], foreign: string) => fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...ids) }, fc.constant(foreign), fc.uuid());
const pageSize = fc.oneof(fc.integer({ min: 5, max: 100 }), fc.constantFrom(25, 100));
const orderBy = optional(fc.constantFrom("0", "1"));
const drop = (q: Query) => Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined)) as Query;

describe("listLeaveRequests", () => {
  const employeeTexts = org.employees.flatMap((e) => [e.fullName, e.email]);
  const typeNames = org.leaveTypes.map((t) => t.name);
  const day = fc.integer({ min: dayOf("2024-12-01"), max: dayOf("2026-12-31") }).map(isoDate);
  const query = fc
    .record({
      CompanyId: optional(idOf(org.companies.map((c) => c.id), B.companyId)),
      DepartmentId: optional(idOf(org.departments.map((d) => d.id), B.departmentId)),
      LeaveTypeId: optional(idOf(org.leaveTypes.map((t) => t.id), B.leaveTypeIdByEligibility[0])),
      LeaveStatus: optional(fc.oneof(fc.integer({ min: 0, max: 5 }).map(String), fc.constantFrom(...NAMES).chain(randomCase))),
      dates: optional(fc.tuple(day, day).map(([a, b]) => (a <= b ? [a, b] : [b, a]))),
      SearchTerm: optional(searchTerm([...employeeTexts, ...typeNames])),
      OrderBy: orderBy,
      PageSize: optional(pageSize.map(String)),
    })
    .map(({ dates, ...q }) => drop({ ...q, StartDate: dates?.[0], EndDate: dates?.[1] }));

  /** The expected ids, computed from the records directly. */
  function expected(q: Query): string[] {
    const status = q.LeaveStatus === undefined ? undefined : /^\d$/.test(String(q.LeaveStatus)) ? Number(q.LeaveStatus) : NAMES.findIndex((n) => n.toLowerCase() === String(q.LeaveStatus).toLowerCase());
    const term = typeof q.SearchTerm === "string" ? q.SearchTerm.trim().toLowerCase() : "";
    const matches = org.leaveRequests.filter((r) => {
      const e = org.employees.find((x) => x.id === r.employeeId)!;
      const t = org.leaveTypes.find((x) => x.id === r.leaveTypeId)!;
      if (q.CompanyId !== undefined && e.companyId !== q.CompanyId) return false;
      if (q.DepartmentId !== undefined && e.departmentId !== q.DepartmentId) return false;
      if (q.LeaveTypeId !== undefined && t.id !== q.LeaveTypeId) return false;
      if (status !== undefined && r.statusId !== status) return false;
      if (q.StartDate !== undefined && (r.startDate < q.StartDate || r.startDate > q.EndDate!)) return false;
      if (term !== "" && ![e.fullName, e.email, t.name].some((s) => s.toLowerCase().includes(term))) return false;
      return true;
    });
    matches.sort((a, b) => (a.requestedOn === b.requestedOn ? (a.id < b.id ? -1 : 1) : a.requestedOn < b.requestedOn ? -1 : 1));
    if (q.OrderBy !== "0") matches.reverse();
    return matches.map((r) => r.id);
  }

  it("every item matches the filters; the union of the pages is the direct computation, in order", () => {
    const sizes: number[] = [];
    fc.assert(
      fc.property(query, (q) => {
        const items = allPages("listLeaveRequests", q);
        sizes.push(items.length);
        for (const item of items) {
          const e = org.index.employeeById.get(item.employeeId)!;
          if (q.CompanyId) expect(e.companyId, "CompanyId").toBe(q.CompanyId);
          if (q.DepartmentId) expect(e.departmentId, "DepartmentId").toBe(q.DepartmentId);
          if (q.LeaveTypeId) expect(item.leaveTypeName, "LeaveTypeId").toBe(org.index.leaveTypeById.get(String(q.LeaveTypeId))?.name);
          if (q.LeaveStatus !== undefined) expect([String(item.leaveStatusId), item.leaveStatus.toLowerCase()], "LeaveStatus").toContain(String(q.LeaveStatus).toLowerCase());
          if (q.StartDate) expect(item.startDate >= `${q.StartDate}` && item.startDate.slice(0, 10) <= `${q.EndDate}`, "starts between the dates").toBe(true);
          if (typeof q.SearchTerm === "string" && q.SearchTerm.trim() !== "") {
            const term = q.SearchTerm.trim().toLowerCase();
            expect([item.employeeName, e.email, item.leaveTypeName].some((s: string) => s.toLowerCase().includes(term)), `"${term}" in name, email or type`).toBe(true);
          }
        }
        const order = items.map((i) => i.requestedOn);
        const sorted = [...order].sort();
        expect(order, "ordered by requestedOn").toEqual(q.OrderBy === "0" ? sorted : sorted.reverse());
        expect(items.map((i) => i.id)).toEqual(expected(q));
      }),
      { numRuns: RUNS },
    );
    // The property says little if most random queries find nothing.
    expect(sizes.filter((n) => n > 0).length / sizes.length, "share of random queries that found something").toBeGreaterThan(0.3);
    expect(sizes.some((n) => n > 100), "some query spans several pages").toBe(true);
  });
});

describe("listLeaveTypes", () => {
  const query = fc
    .record({
      CompanyId: optional(idOf(org.companies.map((c) => c.id), B.companyId)),
      SearchTerm: optional(searchTerm(org.leaveTypes.map((t) => t.name))),
      IsActive: optional(fc.constantFrom("true", "false")),
      EligibilityCriteria: optional(fc.integer({ min: 0, max: 4 }).map(String)),
      PageSize: optional(fc.integer({ min: 1, max: 4 }).map(String)),
    })
    .map(drop);

  /**
   * A type applies to one of the organisation's companies when organisation-wide, or when what it
   * names belongs to the company; another organisation's or an unknown company gets nothing.
   */
  function appliesTo(t: (typeof org.leaveTypes)[number], companyId: string): boolean {
    if (!org.companies.some((c) => c.id === companyId)) return false;
    const departmentCompany = (id: string) => org.departments.find((d) => d.id === id)?.companyId;
    switch (t.eligibilityCriteria) {
      case 0: return true;
      case 1: return t.eligibleIds.includes(companyId);
      case 2: return t.eligibleIds.some((id) => departmentCompany(id) === companyId);
      case 3: return t.eligibleIds.some((id) => departmentCompany(org.departments.find((d) => d.units.some((u) => u.id === id))!.id) === companyId);
      case 4: return t.eligibleIds.some((id) => org.employees.find((e) => e.id === id)?.companyId === companyId);
    }
  }

  it("every item matches; the union of the pages is the direct computation, in creation order", () => {
    fc.assert(
      fc.property(query, (q) => {
        const items = allPages("listLeaveTypes", q);
        const kind = Number(q.EligibilityCriteria ?? 0);
        const term = typeof q.SearchTerm === "string" ? q.SearchTerm.trim().toLowerCase() : "";
        const want = [...org.leaveTypes]
          .sort((a, b) => (a.created < b.created ? -1 : 1))
          .filter((t) => t.eligibilityCriteria === kind)
          .filter((t) => q.IsActive === undefined || String(t.isActive) === q.IsActive)
          .filter((t) => q.CompanyId === undefined || appliesTo(t, String(q.CompanyId)))
          .filter((t) => term === "" || t.name.toLowerCase().includes(term));
        for (const item of items) {
          expect(item.eligibilityCriteria, "EligibilityCriteria (default 0)").toBe(kind);
          if (q.IsActive) expect(String(item.isActive), "IsActive").toBe(q.IsActive);
        }
        expect(items.map((t) => t.id)).toEqual(want.map((t) => t.id));
      }),
      { numRuns: RUNS },
    );
  });
});

describe("listDepartments", () => {
  const companies = fc.subarray([...org.companies.map((c) => c.id), B.companyId]).map((ids) => (ids.length === 1 ? ids[0] : ids));
  const query = fc
    .record({
      SearchTerm: optional(searchTerm(org.departments.map((d) => d.name))),
      Companies: optional(companies),
      OrderBy: orderBy,
      PageSize: optional(fc.integer({ min: 1, max: 30 }).map(String)),
    })
    .map(drop);

  it("every item matches; the union of the pages is the direct computation, in created order", () => {
    fc.assert(
      fc.property(query, (q) => {
        const items = allPages("listDepartments", q);
        const wanted = q.Companies === undefined ? [] : Array.isArray(q.Companies) ? q.Companies : [q.Companies];
        const term = typeof q.SearchTerm === "string" ? q.SearchTerm.trim().toLowerCase() : "";
        const want = [...org.departments]
          .sort((a, b) => (a.created < b.created ? -1 : 1))
          .filter((d) => wanted.length === 0 || wanted.includes(d.companyId))
          .filter((d) => term === "" || d.name.toLowerCase().includes(term));
        if (q.OrderBy !== "0") want.reverse();
        for (const item of items) if (term) expect(item.name.toLowerCase(), "SearchTerm").toContain(term);
        expect(items.map((d) => d.id)).toEqual(want.map((d) => d.id));
        const created = items.map((d) => d.created);
        expect(created).toEqual(q.OrderBy === "0" ? [...created].sort() : [...created].sort().reverse());
      }),
      { numRuns: RUNS },
    );
  });
});

describe("listEmployees", () => {
  it("Status and paging: the union of the pages is the employees of that status in code order", () => {
    fc.assert(
      fc.property(optional(fc.constantFrom("Active", "Inactive", "Terminated")), fc.integer({ min: 7, max: 100 }), (status, size) => {
        const items = allPages("listEmployees", drop({ Status: status, PageSize: String(size) }));
        const want = org.employees.filter((e) => status === undefined || e.status === status).map((e) => e.code).sort();
        expect(items.map((e) => e.employeeId)).toEqual(want);
      }),
      { numRuns: 30 },
    );
  });
});

it("the other organisation stays out of every list (a sanity check of the fixtures)", () => {
  expect(other.id).not.toBe(org.id);
  expect(A.organizationId).toBe(org.id);
});
