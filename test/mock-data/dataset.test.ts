import { describe, expect, it } from "vitest";
import { createDataset, sampleIds, type OrganizationData } from "../../mock/data/dataset.js";
import { isEligible } from "../../mock/data/eligibility.js";
import { balanceKey, workCalendarOf } from "../../mock/data/organization.js";
import { workingDays } from "../../mock/data/working-days.js";
import { TODAY, freshDataset } from "./fixture.js";

const ds = freshDataset();
const orgs = ds.organizations.map((o) => [o.name, o] as const);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{7}Z$/;
const isSorted = (keys: string[]) => keys.every((k, i) => i === 0 || keys[i - 1] <= k);

describe("reproducibility", () => {
  it("the same seed and today give the same bytes", () => {
    const a = JSON.stringify(createDataset({ seed: 7, today: TODAY }));
    const b = JSON.stringify(createDataset({ seed: 7, today: TODAY }));
    expect(a.length, "the JSON holds the records, not just empty maps").toBeGreaterThan(500_000);
    expect(a === b, "two datasets of seed 7 serialise identically").toBe(true);
  });

  it("a dataset does not depend on datasets made before it (a new Faker per dataset)", () => {
    const first = JSON.stringify(createDataset({ seed: 3, today: TODAY }));
    createDataset({ seed: 4, today: TODAY });
    expect(JSON.stringify(createDataset({ seed: 3, today: TODAY })) === first).toBe(true);
  });

  it("another seed gives other data", () => {
    const a = createDataset({ seed: 1, today: TODAY });
    const b = createDataset({ seed: 2, today: TODAY });
    expect(JSON.stringify(a) === JSON.stringify(b), "seeds 1 and 2 serialise differently").toBe(false);
    expect(a.organizations[0].id).not.toBe(b.organizations[0].id);
  });

  it("another today gives other data (dates follow today)", () => {
    expect(JSON.stringify(createDataset({ seed: 1, today: "2027-02-01" })) === JSON.stringify(ds)).toBe(false);
  });

  it("today defaults to the real current UTC date", () => {
    const before = new Date().toISOString().slice(0, 10);
    const today = createDataset({ seed: 1 }).today;
    const after = new Date().toISOString().slice(0, 10);
    expect([before, after]).toContain(today);
  });

  it.each([
    ["seed not an integer", { seed: 1.5 }],
    ["scale 0", { scale: 0 }],
    ["scale negative", { scale: -1 }],
    ["today not a date", { today: "2026-02-30" }],
    ["today an invalid Date", { today: new Date("nope") }],
    ["today before 1900 (timestamps six years back)", { today: "0001-06-01" }],
    ["today after 9000 (five-digit years a year ahead)", { today: "9999-12-31" }],
  ])("refuses bad options: %s", (_name, options) => {
    expect(() => createDataset(options)).toThrow(RangeError);
  });

  it("starts at version 0 and carries today", () => {
    expect(ds.version).toBe(0);
    expect(ds.today).toBe(TODAY);
  });
});

describe("counts and coverage", () => {
  it("has at least two organisations, each with its own domain", () => {
    expect(ds.organizations.length).toBeGreaterThanOrEqual(2);
    expect(new Set(ds.organizations.map((o) => o.domain)).size).toBe(ds.organizations.length);
  });

  it("every id in the dataset is a distinct uuid", () => {
    const ids: string[] = [];
    for (const o of ds.organizations) {
      ids.push(o.id, ...o.companies.map((c) => c.id), ...o.employees.map((e) => e.id), ...o.leaveTypes.map((t) => t.id));
      for (const d of o.departments) ids.push(d.id, ...d.units.map((u) => u.id));
      for (const t of o.leaveTypes) ids.push(...t.requiredDocument.map((d) => d.id));
      for (const r of o.leaveRequests) ids.push(r.id, ...r.documents.map((d) => d.id));
    }
    expect(ids.filter((id) => !UUID.test(id)), "ids that are not v4 uuids").toEqual([]);
    expect(new Set(ids).size, "distinct ids").toBe(ids.length);
  });

  describe.each(orgs)("%s", (_name, org) => {
    const types = org.leaveTypes;
    const requests = org.leaveRequests;
    const documents = requests.flatMap((r) => r.documents);

    it("has 3+ companies, 150+ employees, 6+ leave types and 1,000+ leave requests", () => {
      expect(org.companies.length).toBeGreaterThanOrEqual(3);
      expect(org.employees.length).toBeGreaterThanOrEqual(150);
      expect(types.length).toBeGreaterThanOrEqual(6);
      expect(requests.length).toBeGreaterThanOrEqual(1000);
    });

    it("has several departments per company, Active and InActive", () => {
      for (const c of org.companies) expect(org.departments.filter((d) => d.companyId === c.id).length, c.name).toBeGreaterThanOrEqual(3);
      expect(new Set(org.departments.map((d) => d.status))).toEqual(new Set(["Active", "InActive"]));
    });

    it("has requests in every status 0 to 5", () => {
      expect(new Set(requests.map((r) => r.statusId))).toEqual(new Set([0, 1, 2, 3, 4, 5]));
    });

    it("has requests over last year, this year and the coming months", () => {
      const years = new Set(requests.map((r) => r.startDate.slice(0, 4)));
      expect(years).toContain("2025");
      expect(years).toContain("2026");
      expect(requests.some((r) => r.startDate > TODAY), "a request starting after today").toBe(true);
    });

    it("has leave types of every eligibility kind, active and inactive, with and without documents and carry-forward", () => {
      expect(new Set(types.map((t) => t.eligibilityCriteria))).toEqual(new Set([0, 1, 2, 3, 4]));
      expect(new Set(types.map((t) => t.isActive))).toEqual(new Set([true, false]));
      expect(new Set(types.map((t) => t.requiresDocument))).toEqual(new Set([true, false]));
      expect(new Set(types.map((t) => t.carryForward.maxCarryForwardLimit > 0))).toEqual(new Set([true, false]));
      for (const t of types) {
        expect(t.requiredDocument.length > 0, `${t.name}: requiredDocument agrees with requiresDocument`).toBe(t.requiresDocument);
        expect(t.eligibleIds.length === 0, `${t.name}: eligible ids recorded unless organisation-wide`).toBe(t.eligibilityCriteria === 0);
      }
    });

    it("has realistic leave type names", () => {
      const names = types.map((t) => t.name);
      for (const n of ["Annual Leave", "Sick Leave", "Maternity Leave", "Paternity Leave", "Study Leave", "Compassionate Leave", "Unpaid Leave"]) expect(names).toContain(n);
    });

    it("has link and private documents", () => {
      expect(documents.some((d) => d.storage === 0 && d.document.startsWith(`https://files.${org.domain}/`)), "a public link").toBe(true);
      expect(documents.some((d) => d.storage === 1 && d.document === `app://documents/${d.id}`), "a private file").toBe(true);
      for (const d of documents) {
        expect(d.document, `storage ${d.storage}`).toBe(d.storage === 0 ? `https://files.${org.domain}/leave/${requests.find((r) => r.documents.includes(d))!.id}/${d.name}` : `app://documents/${d.id}`);
      }
    });

    it("has relievers and handoff notes", () => {
      expect(requests.some((r) => r.relieverIds.length > 0)).toBe(true);
      expect(requests.every((r) => r.handoffNote.length > 0 && r.comments.length > 0)).toBe(true);
    });

    it("has employees of every status, mostly Active; every work mode; some off on Fridays", () => {
      const count = (status: string) => org.employees.filter((e) => e.status === status).length;
      expect(count("Active") / org.employees.length).toBeGreaterThan(0.7);
      expect(count("Inactive")).toBeGreaterThan(0);
      expect(count("Terminated")).toBeGreaterThan(0);
      expect(new Set(org.employees.map((e) => e.workMode))).toEqual(new Set(["Remote", "Onsite", "Hybrid"]));
      expect(org.employees.some((e) => e.daysOff.includes(5))).toBe(true);
    });

    it("has holidays for last year, this year and next year, fixed and moving", () => {
      for (const year of ["2025", "2026", "2027"]) expect(org.holidays.filter((h) => h.date.startsWith(year)).length, year).toBeGreaterThanOrEqual(6);
      const datesOf = (name: string) => org.holidays.filter((h) => h.name === name).map((h) => h.date.slice(5));
      expect(new Set(datesOf("Christmas Day"))).toEqual(new Set(["12-25"]));
      const moving = org.holidays.map((h) => h.name).find((n) => new Set(datesOf(n)).size > 1);
      expect(moving, "a holiday whose date moves between years").toBeDefined();
    });
  });
});

describe("coherence", () => {
  describe.each(orgs)("%s", (_name, org) => {
    const e = org.index.employeeById;

    it("membersCount is the real number of employees in the department (Terminated ones have left)", () => {
      for (const d of org.departments) {
        const members = org.employees.filter((x) => x.departmentId === d.id && x.status !== "Terminated");
        expect(d.membersCount, d.name).toBe(members.length);
      }
    });

    it("heads are 1 or 2 Active members of their department", () => {
      for (const d of org.departments) {
        expect(d.leadIds.length, `${d.name} heads`).toBeGreaterThanOrEqual(1);
        expect(d.leadIds.length).toBeLessThanOrEqual(2);
        for (const id of d.leadIds) {
          expect(e.get(id)?.departmentId, `head of ${d.name}`).toBe(d.id);
          expect(e.get(id)?.status).toBe("Active");
        }
      }
    });

    it("employees: codes EMP-nnnn, unique; emails from the name at the organisation's domain, unique; company and unit of their department", () => {
      expect(org.employees.every((x) => /^EMP-\d{4,}$/.test(x.code))).toBe(true);
      expect(new Set(org.employees.map((x) => x.code)).size).toBe(org.employees.length);
      expect(new Set(org.employees.map((x) => x.email)).size).toBe(org.employees.length);
      for (const x of org.employees) {
        expect(x.email, x.fullName).toMatch(new RegExp(`^[a-z0-9]+\\.[a-z0-9]+\\d*@${org.domain.replace(/\./g, "\\.")}$`));
        const d = org.index.departmentById.get(x.departmentId)!;
        expect(x.companyId, x.code).toBe(d.companyId);
        if (x.unitId !== null) expect(d.units.map((u) => u.id), `${x.code}'s unit`).toContain(x.unitId);
        expect(x.jobRoles.length).toBeGreaterThan(0);
      }
    });

    it("requests: days by the calendar, asked before they start and before today, in the employee's company and department", () => {
      for (const r of org.leaveRequests) {
        const who = e.get(r.employeeId)!;
        expect(r.days, `${r.id} days`).toBe(workingDays(r.startDate, r.endDate, workCalendarOf(org, who)));
        expect(r.days).toBeGreaterThanOrEqual(1);
        expect(r.requestedOn).toMatch(TIMESTAMP);
        expect(r.requestedOn.slice(0, 10) < r.startDate, `${r.id} asked before it starts`).toBe(true);
        expect(r.requestedOn.slice(0, 10) < TODAY, `${r.id} asked before today`).toBe(true);
        expect([r.companyId, r.departmentId]).toEqual([who.companyId, who.departmentId]);
      }
    });

    it("requests: statuses fit the time (Expired only in the past; the future never Expired)", () => {
      for (const r of org.leaveRequests) {
        if (r.statusId === 5) expect(r.endDate < TODAY, `${r.id} Expired but not past`).toBe(true);
        if (r.startDate > TODAY) expect(r.statusId, `${r.id} in the future`).not.toBe(5);
      }
      const future = org.leaveRequests.filter((r) => r.startDate > TODAY);
      const waitingOrApproved = future.filter((r) => r.statusId <= 2).length;
      expect(waitingOrApproved / future.length, "future requests mostly Submitted, Pending or Approved").toBeGreaterThan(0.8);
      const past = org.leaveRequests.filter((r) => r.endDate < TODAY);
      expect(past.filter((r) => r.statusId <= 1).length / past.length, "past requests mostly decided").toBeLessThan(0.1);
    });

    it("requests: the employee is eligible for the leave type; inactive employees and types only in the past", () => {
      for (const r of org.leaveRequests) {
        const who = e.get(r.employeeId)!;
        const type = org.index.leaveTypeById.get(r.leaveTypeId)!;
        expect(isEligible(type, who), `${who.code} eligible for ${type.name}`).toBe(true);
        if (who.status !== "Active" || !type.isActive) expect(r.startDate < TODAY, `${r.id} of ${who.status} ${type.name}`).toBe(true);
      }
    });

    it("requests: relievers are up to two other employees of the organisation", () => {
      for (const r of org.leaveRequests) {
        expect(r.relieverIds.length).toBeLessThanOrEqual(2);
        for (const id of r.relieverIds) {
          expect(e.has(id), `reliever ${id} in the organisation`).toBe(true);
          expect(id).not.toBe(r.employeeId);
        }
      }
    });

    it("requests: an employee's live requests never overlap", () => {
      for (const [, own] of org.index.requestsByEmployee) {
        const live = own.filter((r) => r.statusId !== 3 && r.statusId !== 4).sort((a, b) => (a.startDate < b.startDate ? -1 : 1));
        for (let i = 1; i < live.length; i++) expect(live[i - 1].endDate < live[i].startDate, `${live[i - 1].id} and ${live[i].id}`).toBe(true);
      }
    });

    it("balances: every pair with a request is set up; some eligible pairs never were; carried days only where the type carries", () => {
      for (const r of org.leaveRequests) expect(org.index.balanceSetUpByKey.has(balanceKey(r.employeeId, r.leaveTypeId)), r.id).toBe(true);
      const neverSetUp = org.employees.some((x) => org.leaveTypes.some((t) => isEligible(t, x) && !org.index.balanceSetUpByKey.has(balanceKey(x.id, t.id))));
      expect(neverSetUp, "an eligible pair never set up").toBe(true);
      for (const b of org.balanceSetUps) {
        const t = org.index.leaveTypeById.get(b.leaveTypeId)!;
        if (t.carryForward.maxCarryForwardLimit === 0) expect(b.carriedForwardDays, t.name).toBe(0);
      }
      expect(org.balanceSetUps.some((b) => b.carriedForwardDays > 0), "some days carried forward").toBe(true);
    });

    it("leave types: the companies a type applies to follow its eligibility", () => {
      const companyIds = org.companies.map((c) => c.id);
      for (const t of org.leaveTypes) {
        if (t.eligibilityCriteria === 0) expect([...t.companyIds].sort(), t.name).toEqual([...companyIds].sort());
        else expect(t.companyIds.length, t.name).toBeGreaterThan(0);
        for (const c of t.companyIds) expect(companyIds).toContain(c);
      }
    });

    it("arrays are presorted in their list orders and indexed", () => {
      expect(isSorted(org.leaveRequests.map((r) => `${r.requestedOn}|${r.id}`))).toBe(true);
      expect(isSorted(org.departments.map((d) => `${d.created}|${d.id}`))).toBe(true);
      expect(isSorted(org.leaveTypes.map((t) => `${t.created}|${t.id}`))).toBe(true);
      expect(isSorted(org.employees.map((x) => x.code))).toBe(true);
      expect(org.index.leaveRequestById.size).toBe(org.leaveRequests.length);
      expect(org.index.employeeById.size).toBe(org.employees.length);
      expect([...org.index.requestsByEmployee.values()].reduce((n, a) => n + a.length, 0)).toBe(org.leaveRequests.length);
    });
  });
});

describe("scale", () => {
  it("multiplies employees and leave requests", () => {
    const big = createDataset({ seed: 1, scale: 3, today: TODAY });
    big.organizations.forEach((o, i) => {
      expect(o.employees.length, o.name).toBe(ds.organizations[i].employees.length * 3);
      expect(o.leaveRequests.length, o.name).toBe(ds.organizations[i].leaveRequests.length * 3);
    });
  });
});

describe("sampleIds", () => {
  const samples = sampleIds(ds);
  const pairs = samples.map((s, i) => [ds.organizations[i].name, s, ds.organizations[i]] as const);

  it("gives one entry per organisation", () => {
    expect(samples.map((s) => s.organizationId)).toEqual(ds.organizations.map((o) => o.id));
  });

  it.each(pairs)("%s: every id is a record of that organisation, in the state its name says", (_name, s, org: OrganizationData) => {
    const request = (id: string) => org.index.leaveRequestById.get(id);
    expect(request(s.leaveRequestId)).toBeDefined();
    expect(request(s.waitingLeaveRequestId)?.statusId).toBe(0);
    expect(request(s.waitingLeaveRequestId)!.startDate > TODAY).toBe(true);
    expect(request(s.approvedLeaveRequestId)?.statusId).toBe(2);
    expect(org.index.companyById.has(s.companyId)).toBe(true);
    expect(org.index.departmentById.get(s.departmentId)?.status).toBe("Active");
    expect(org.index.departmentById.get(s.inactiveDepartmentId)?.status).toBe("InActive");
    expect(org.index.employeeById.get(s.employeeId)?.status).toBe("Active");
    expect(org.index.balanceSetUpByKey.has(balanceKey(s.balance.employeeId, s.balance.leaveTypeId))).toBe(true);
    expect(org.index.balanceSetUpByKey.has(balanceKey(s.balanceNeverSetUp.employeeId, s.balanceNeverSetUp.leaveTypeId))).toBe(false);
    const neverType = org.index.leaveTypeById.get(s.balanceNeverSetUp.leaveTypeId)!;
    const neverEmployee = org.index.employeeById.get(s.balanceNeverSetUp.employeeId)!;
    expect(neverType.isActive && neverEmployee.status === "Active" && isEligible(neverType, neverEmployee), "never set up: an Active employee eligible for an active type").toBe(true);
    s.leaveTypeIdByEligibility.forEach((id, kind) => expect(org.index.leaveTypeById.get(id)?.eligibilityCriteria, `kind ${kind}`).toBe(kind));
    expect(org.index.leaveTypeById.get(s.inactiveLeaveTypeId)?.isActive).toBe(false);
  });

  it("the same seed gives the same sample ids", () => {
    expect(sampleIds(createDataset({ seed: 1, today: TODAY }))).toEqual(samples);
  });
});
