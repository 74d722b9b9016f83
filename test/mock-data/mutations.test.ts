import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createDataset, sampleIds, type Dataset } from "../../mock/data/dataset.js";
import {
  addEmployee,
  addLeaveRequest,
  approveLeaveRequest,
  cancelLeaveRequest,
  rejectLeaveRequest,
  terminateEmployee,
  type MutationResult,
} from "../../mock/data/mutations.js";
import { departmentStatusKey, workCalendarOf } from "../../mock/data/organization.js";
import { workingDays } from "../../mock/data/working-days.js";
import { TODAY, call, dataOf, freshDataset } from "./fixture.js";

function recordOf<T>(result: MutationResult<T>): T {
  if (!result.ok) throw new Error(`expected the change to succeed: ${result.reason}: ${result.message}`);
  return result.record;
}

const balance = (ds: Dataset, orgId: string, employeeId: string, leaveTypeId: string) =>
  dataOf(call(ds, "getLeaveBalance", orgId, { EmployeeId: employeeId, LeaveTypeId: leaveTypeId }));

const NOON = new Date(`${TODAY}T12:00:00.123Z`);

describe("decisions on leave requests", () => {
  it("approve: the request becomes Approved, its days move from pending to taken, the version goes up", () => {
    const ds = freshDataset();
    const s = sampleIds(ds)[0];
    const request = ds.organizations[0].index.leaveRequestById.get(s.waitingLeaveRequestId)!;
    expect(request.startDate.slice(0, 4), "the sample waiting request is this year's").toBe(TODAY.slice(0, 4));
    const before = balance(ds, s.organizationId, request.employeeId, request.leaveTypeId);
    const approved = recordOf(approveLeaveRequest(ds, s.organizationId, request.id));
    const after = balance(ds, s.organizationId, request.employeeId, request.leaveTypeId);
    expect(approved.statusId).toBe(2);
    expect(ds.version).toBe(1);
    expect(after.daysTaken, "daysTaken up").toBe(before.daysTaken + request.days);
    expect(after.leavePending, "leavePending down").toBe(before.leavePending - request.days);
    expect(after.daysRemaining, "remaining unchanged: pending days were already held").toBe(before.daysRemaining);
    const details = dataOf(call(ds, "getLeaveRequest", s.organizationId, {}, { id: request.id }));
    expect([details.leaveStatusId, details.leaveStatus]).toEqual([2, "Approved"]);
    const listed = dataOf(call(ds, "listLeaveRequests", s.organizationId, { LeaveStatus: "Approved", PageSize: 100, StartDate: request.startDate, EndDate: request.startDate }));
    expect(listed.data.map((r: any) => r.id), "the list shows the new status").toContain(request.id);
  });

  it("approve without an id picks a waiting request; the same seed and version pick the same one", () => {
    const a = freshDataset();
    const b = freshDataset();
    const orgId = a.organizations[0].id;
    const picked = recordOf(approveLeaveRequest(a, orgId));
    expect(recordOf(approveLeaveRequest(b, orgId)).id).toBe(picked.id);
    const before = freshDataset().organizations[0].index.leaveRequestById.get(picked.id)!;
    expect([0, 1], "it was waiting").toContain(before.statusId);
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
  });

  it.each([
    ["early in the year", "2026-02-10"],
    ["late in the year, when most waiting requests start next year", "2026-12-20"],
  ])("approve without an id, %s, picks a request of this year so the balance the API shows moves", (_when, today) => {
    const ds = createDataset({ seed: 1, today });
    const orgId = ds.organizations[0].id;
    const waitingThisYear = ds.organizations[0].leaveRequests.filter(
      (r) => (r.statusId === 0 || r.statusId === 1) && r.startDate >= today && r.startDate.slice(0, 4) === today.slice(0, 4),
    ).length;
    expect(waitingThisYear, "the dataset has waiting requests later this year").toBeGreaterThan(0);
    for (let i = 0; i < Math.min(5, waitingThisYear); i++) {
      const picked = recordOf(approveLeaveRequest(ds, orgId));
      expect(picked.startDate >= today, `picked ${picked.startDate}: a request still to come`).toBe(true);
      expect(picked.startDate.slice(0, 4), `picked ${picked.startDate}: this year's balance must move`).toBe(today.slice(0, 4));
    }
  });

  it("reject: waiting becomes Rejected and counts in leaveRejected", () => {
    const ds = freshDataset();
    const s = sampleIds(ds)[0];
    const request = ds.organizations[0].index.leaveRequestById.get(s.waitingLeaveRequestId)!;
    const before = balance(ds, s.organizationId, request.employeeId, request.leaveTypeId);
    expect(recordOf(rejectLeaveRequest(ds, s.organizationId, request.id)).statusId).toBe(3);
    const after = balance(ds, s.organizationId, request.employeeId, request.leaveTypeId);
    expect(after.leaveRejected).toBe(before.leaveRejected + request.days);
    expect(after.leavePending).toBe(before.leavePending - request.days);
  });

  it("cancel: an approved request becomes Abandoned and frees its days", () => {
    const ds = freshDataset();
    const org = ds.organizations[0];
    const request = org.leaveRequests.find((r) => r.statusId === 2 && r.startDate > TODAY)!;
    const before = balance(ds, org.id, request.employeeId, request.leaveTypeId);
    expect(recordOf(cancelLeaveRequest(ds, org.id, request.id)).statusId).toBe(4);
    const after = balance(ds, org.id, request.employeeId, request.leaveTypeId);
    expect(after.daysTaken).toBe(before.daysTaken - request.days);
  });

  it.each([
    ["approve an unknown id", (ds: Dataset, orgId: string) => approveLeaveRequest(ds, orgId, "0b7e5c3e-8d2f-4c1a-9a57-2f1f0c6b9d12"), "not-found"],
    ["approve another organisation's request", (ds: Dataset, orgId: string) => approveLeaveRequest(ds, orgId, sampleIds(ds)[1].waitingLeaveRequestId), "not-found"],
    ["approve an Approved request", (ds: Dataset, orgId: string) => approveLeaveRequest(ds, orgId, sampleIds(ds)[0].approvedLeaveRequestId), "not-allowed"],
    ["reject an Approved request", (ds: Dataset, orgId: string) => rejectLeaveRequest(ds, orgId, sampleIds(ds)[0].approvedLeaveRequestId), "not-allowed"],
    ["cancel an Expired request", (ds: Dataset, orgId: string) => cancelLeaveRequest(ds, orgId, ds.organizations[0].leaveRequests.find((r) => r.statusId === 5)!.id), "not-allowed"],
    ["approve in an unknown organisation", (ds: Dataset) => approveLeaveRequest(ds, "00000000-0000-4000-8000-000000000000"), "unknown-organization"],
    ["terminate a Terminated employee", (ds: Dataset, orgId: string) => terminateEmployee(ds, orgId, ds.organizations[0].employees.find((e) => e.status === "Terminated")!.id), "not-allowed"],
    ["add leave for a Terminated employee", (ds: Dataset, orgId: string) => addLeaveRequest(ds, orgId, { employeeId: ds.organizations[0].employees.find((e) => e.status === "Terminated")!.id }), "not-allowed"],
    ["add leave of an inactive type", (ds: Dataset, orgId: string) => addLeaveRequest(ds, orgId, { set: { leaveTypeId: sampleIds(ds)[0].inactiveLeaveTypeId } }), "not-allowed"],
    ["add an employee to an InActive department", (ds: Dataset, orgId: string) => addEmployee(ds, orgId, { departmentId: sampleIds(ds)[0].inactiveDepartmentId }), "not-allowed"],
  ] as const)("%s fails with a reason and a message, and changes nothing", (_name, run, reason) => {
    const ds = freshDataset();
    const before = JSON.stringify(ds);
    const result = run(ds, ds.organizations[0].id);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason).toBe(reason);
    expect(result.message.length).toBeGreaterThan(10);
    expect(ds.version).toBe(0);
    expect(JSON.stringify(ds) === before, "the dataset is unchanged").toBe(true);
  });
});

describe("new leave requests", () => {
  it("a new Submitted request in the coming weeks, days by the calendar, newest in the list, pending in the balance", () => {
    const ds = freshDataset();
    const s = sampleIds(ds)[0];
    const org = ds.organizations[0];
    const employee = org.index.employeeById.get(s.employeeId)!;
    const annual = org.leaveTypes.find((t) => t.name === "Annual Leave")!;
    const before = balance(ds, org.id, employee.id, annual.id);
    const added = recordOf(addLeaveRequest(ds, org.id, { employeeId: employee.id, set: { leaveTypeId: annual.id }, now: NOON }));
    expect(added.statusId).toBe(0);
    expect(added.startDate > TODAY && added.startDate <= "2026-07-01", `starts in the coming weeks: ${added.startDate}`).toBe(true);
    expect(added.days).toBe(workingDays(added.startDate, added.endDate, workCalendarOf(org, employee)));
    expect(added.requestedOn).toBe("2026-05-14T12:00:00.1230000Z");
    const first = dataOf(call(ds, "listLeaveRequests", org.id, { PageSize: 1 }));
    expect(first.data[0].id, "newest first").toBe(added.id);
    expect(first.totalRecords).toBe(org.leaveRequests.length);
    expect(balance(ds, org.id, employee.id, annual.id).leavePending).toBe(before.leavePending + added.days);
    expect(ds.version).toBe(1);
  });

  it("the time of asking is kept within the dataset's today", () => {
    const ds = freshDataset();
    const added = recordOf(addLeaveRequest(ds, ds.organizations[0].id, { now: new Date("2031-01-01T00:00:00Z") }));
    expect(added.requestedOn.slice(0, 10)).toBe(TODAY);
  });

  it("a request for a pair never set up sets it up", () => {
    const ds = freshDataset();
    const s = sampleIds(ds)[0];
    const { employeeId, leaveTypeId } = s.balanceNeverSetUp;
    const org = ds.organizations[0];
    const type = org.index.leaveTypeById.get(leaveTypeId)!;
    const eligible = recordOf(addLeaveRequest(ds, org.id, { employeeId, set: { leaveTypeId }, now: NOON }));
    const after = balance(ds, org.id, employeeId, leaveTypeId);
    expect(after.leavePending).toBe(eligible.days);
    expect(after.totalDays).toBe(type.maxLeaveDays);
  });

  it("the same seed and the same changes give the same bytes", () => {
    const run = () => {
      const ds = freshDataset();
      const orgId = ds.organizations[1].id;
      addLeaveRequest(ds, orgId, { now: NOON });
      addEmployee(ds, orgId);
      terminateEmployee(ds, orgId);
      approveLeaveRequest(ds, orgId);
      return JSON.stringify(ds);
    };
    expect(run() === run()).toBe(true);
  });
});

describe("employees", () => {
  it("a new Active employee with the next code joins a department and its member count", () => {
    const ds = freshDataset();
    const org = ds.organizations[0];
    const department = org.departments.find((d) => d.status === "Active")!;
    const added = recordOf(addEmployee(ds, org.id, { departmentId: department.id }));
    expect(added.status).toBe("Active");
    expect(added.code).toBe(`EMP-${String(org.employees.length).padStart(4, "0")}`);
    expect(added.email.endsWith(`@${org.domain}`)).toBe(true);
    expect(org.employees.filter((e) => e.email === added.email).length, "unique email").toBe(1);
    const details = dataOf(call(ds, "getDepartment", org.id, {}, { id: department.id }));
    expect(details.membersCount).toBe(department.membersCount + 1);
    const page = dataOf(call(ds, "listEmployees", org.id, { PageSize: 1, PageNumber: org.employees.length }));
    expect(page.data[0].id, "last in code order").toBe(added.id);
  });

  it("a terminated employee is Terminated and leaves the member count; a head is replaced", () => {
    const ds = freshDataset();
    const org = ds.organizations[0];
    const department = org.departments.find((d) => d.status === "Active" && d.leadIds.length === 1 && d.membersCount > 2)!;
    const head = department.leadIds[0];
    const terminated = recordOf(terminateEmployee(ds, org.id, head));
    expect(terminated.status).toBe("Terminated");
    const details = dataOf(call(ds, "getDepartment", org.id, {}, { id: department.id }));
    expect(details.membersCount).toBe(department.membersCount - 1);
    expect(details.leaders.map((l: any) => l.id)).not.toContain(head);
    expect(details.leaders.length).toBe(1);
    expect(org.index.employeeById.get(details.leaders[0].id)?.status).toBe("Active");
    const listed = dataOf(call(ds, "listEmployees", org.id, { Status: "Terminated", PageSize: 100 }));
    expect(listed.data.map((e: any) => e.id)).toContain(head);
  });

  it("terminate without an id picks an Active employee who is not a head", () => {
    const ds = freshDataset();
    const org = ds.organizations[1];
    const heads = new Set(org.departments.flatMap((d) => d.leadIds));
    const terminated = recordOf(terminateEmployee(ds, org.id));
    expect(heads.has(terminated.id)).toBe(false);
    expect(freshDataset().organizations[1].index.employeeById.get(terminated.id)?.status).toBe("Active");
  });
});

describe("invariants hold after any sequence of changes", () => {
  type Step = [name: string, run: (ds: Dataset, orgId: string, pick: number) => MutationResult<unknown>];
  const nth = <T>(items: readonly T[], pick: number): T => items[pick % items.length];
  const steps: Step[] = [
    ["add an employee", (ds, org) => addEmployee(ds, org)],
    ["terminate someone", (ds, org) => terminateEmployee(ds, org)],
    ["terminate a chosen employee (a head perhaps)", (ds, org, pick) => terminateEmployee(ds, org, nth(ds.organizationById.get(org)!.employees, pick).id)],
    ["add a leave request", (ds, org) => addLeaveRequest(ds, org, { now: NOON })],
    ["approve", (ds, org) => approveLeaveRequest(ds, org)],
    ["reject", (ds, org) => rejectLeaveRequest(ds, org)],
    ["cancel", (ds, org) => cancelLeaveRequest(ds, org)],
  ];

  it("membersCount counts the department's employees who are not Terminated; heads are Active members; days follow the calendar", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat({ max: steps.length - 1 }), fc.nat(), fc.nat({ max: 1 })), { minLength: 1, maxLength: 25 }), (plan) => {
        const ds = freshDataset();
        const done: string[] = [];
        for (const [step, pick, which] of plan) {
          const org = ds.organizations[which];
          const [name, run] = steps[step];
          if (run(ds, org.id, pick).ok) done.push(name);
        }
        for (const org of ds.organizations) {
          for (const d of org.departments) {
            const members = org.employees.filter((e) => e.departmentId === d.id);
            expect(d.membersCount, `${d.name} members after ${done.join(", ")}`).toBe(members.filter((e) => e.status !== "Terminated").length);
            for (const id of d.leadIds) {
              const head = org.index.employeeById.get(id);
              expect([head?.departmentId, head?.status], `head of ${d.name} after ${done.join(", ")}`).toEqual([d.id, "Active"]);
            }
            const summary = dataOf(call(ds, "getDepartment", org.id, {}, { id: d.id }));
            expect(summary.membersCount, "the API shows the record's count").toBe(d.membersCount);
          }
          // The department, status and department-and-status indexes hold exactly the requests a scan finds, in the list's order.
          for (const [index, key, what] of [
            [org.index.requestsByDepartment, (r: (typeof org.leaveRequests)[number]) => r.departmentId, "department"],
            [org.index.requestsByStatus, (r: (typeof org.leaveRequests)[number]) => r.statusId, "status"],
            [org.index.requestsByDepartmentStatus, (r: (typeof org.leaveRequests)[number]) => departmentStatusKey(r.departmentId, r.statusId), "department-and-status"],
          ] as const) {
            const scanned = new Map<unknown, string[]>();
            for (const r of org.leaveRequests) scanned.set(key(r), [...(scanned.get(key(r)) ?? []), r.id]);
            const indexed = new Map([...(index as Map<unknown, { id: string }[]>)].filter(([, group]) => group.length > 0).map(([k, group]) => [k, group.map((r) => r.id)]));
            expect(indexed, `the ${what} index after ${done.join(", ")}`).toEqual(scanned);
          }
          for (const r of org.leaveRequests.slice(-20)) {
            expect(r.days, `${r.id} days`).toBe(workingDays(r.startDate, r.endDate, workCalendarOf(org, org.index.employeeById.get(r.employeeId)!)));
          }
        }
      }),
      { numRuns: 25, seed: 20261122 },
    );
  });
});
