// Copy on write: a fork reads its start's organisations until its first change of one, which copies
// that organisation's arrays and indexes (never its records); the start and every other fork stay as
// they were; a reset puts the start's organisations back.
import { describe, expect, test } from "vitest";
import { forkDataset, isShared, resetDataset } from "../../mock/data/copy-on-write.js";
import { createDataset, sampleIds, type Dataset } from "../../mock/data/dataset.js";
import { addEmployee, addLeaveRequest, approveLeaveRequest, cancelLeaveRequest, rejectLeaveRequest, terminateEmployee } from "../../mock/data/mutations.js";

const start = createDataset({ seed: 7, scale: 0.2, today: "2026-11-02" });
const ids = sampleIds(start)[0];
const startJson = JSON.stringify(start);
const orgId = start.organizations[0].id;

/** Every mutation the webhook triggers make, applied to the first organisation of `ds`. */
const MUTATIONS: [string, { change: (ds: Dataset) => { ok: boolean } }][] = [
  ["approving a waiting request", { change: (ds) => approveLeaveRequest(ds, orgId, ids.waitingLeaveRequestId) }],
  ["rejecting a waiting request", { change: (ds) => rejectLeaveRequest(ds, orgId, ids.waitingLeaveRequestId) }],
  ["cancelling an approved request", { change: (ds) => cancelLeaveRequest(ds, orgId, ids.approvedLeaveRequestId) }],
  ["adding a leave request", { change: (ds) => addLeaveRequest(ds, orgId, { now: new Date("2026-11-02T10:00:00Z") }) }],
  ["adding an employee", { change: (ds) => addEmployee(ds, orgId) }],
  ["terminating an employee", { change: (ds) => terminateEmployee(ds, orgId, ids.employeeId) }],
];

describe.each(MUTATIONS)("%s in a fork", (_name, { change }) => {
  test("changes the fork's copy of that organisation only; the start and another fork keep theirs", () => {
    const a = forkDataset(start);
    const b = forkDataset(start);
    expect(a.organizations.every(isShared), "a new fork holds the start's organisations").toBe(true);
    expect(change(a).ok, "the mutation applies").toBe(true);
    expect(isShared(a.organizations[0]), "the changed organisation is the fork's own copy").toBe(false);
    expect(a.organizations[1], "the other organisation is still the start's").toBe(start.organizations[1]);
    expect(a.organizationById.get(orgId), "the id index points at the copy").toBe(a.organizations[0]);
    expect(b.organizations[0], "another fork still reads the start's").toBe(start.organizations[0]);
    expect(JSON.stringify(start), "the start's records are as generated").toBe(startJson);
    expect(JSON.stringify(a), "the fork's records differ").not.toBe(startJson);
    expect(a.version, "the fork's version moved").toBe(1);
    expect(start.version, "the start's did not").toBe(0);
  });

  test("a reset returns the fork to the start's organisations and version", () => {
    const a = forkDataset(start);
    change(a);
    resetDataset(a, start);
    expect(a.organizations).toEqual(start.organizations);
    expect(a.organizations.every((org, i) => org === start.organizations[i]), "the very same organisations").toBe(true);
    expect(a.version).toBe(0);
    expect(JSON.stringify(a)).toBe(startJson);
  });
});

test("the copy shares the records: only arrays and indexes are new", () => {
  const a = forkDataset(start);
  approveLeaveRequest(a, orgId, ids.waitingLeaveRequestId);
  const copy = a.organizations[0];
  const original = start.organizations[0];
  expect(copy.leaveRequests).not.toBe(original.leaveRequests);
  expect(copy.index.leaveRequestById).not.toBe(original.index.leaveRequestById);
  expect(copy.employees[0], "an unchanged record is the same object").toBe(original.employees[0]);
  expect(copy.index.leaveRequestById.get(ids.waitingLeaveRequestId)?.statusId, "the copy has the change").not.toBe(original.index.leaveRequestById.get(ids.waitingLeaveRequestId)?.statusId);
});

test("a fork's second change reuses its copy", () => {
  const a = forkDataset(start);
  addEmployee(a, orgId);
  const copy = a.organizations[0];
  addEmployee(a, orgId);
  expect(a.organizations[0]).toBe(copy);
  expect(a.organizations[0].employees.length).toBe(start.organizations[0].employees.length + 2);
});

test("a failed change leaves the data as it was", () => {
  const a = forkDataset(start);
  const result = approveLeaveRequest(a, orgId, ids.approvedLeaveRequestId);
  expect(result.ok, "an approved request cannot be approved again").toBe(false);
  expect(a.version).toBe(0);
  expect(JSON.stringify(a)).toBe(startJson);
});
