// Triggers with the caller's data (`set` of the control API's trigger body): the fields each event
// type takes come from the control document; a value the document allows but the data does not (an
// unknown or ineligible leave type, an end before the start, dates over the employee's other leave)
// is refused with a reason naming the field; derived values (working days) are computed, never taken.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startMock, type RunningMock } from "../../mock/index.js";
import { TriggerError } from "../../mock/webhooks/index.js";
import { workCalendarOf } from "../../mock/data/organization.js";
import { workingDays } from "../../mock/data/working-days.js";
import { control, type ControlAnswer } from "./support.js";

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ port: 0, today: "2026-11-23" });
});
afterAll(() => mock?.close());

const fire = (body: unknown): Promise<ControlAnswer> => control(mock, "POST", "/_mock/webhooks/events", body);

/** A new employee (no leave yet, so no generated request overlaps the dates a case sets). */
async function hire(): Promise<string> {
  const answer = await fire({ type: "employee.created" });
  expect(answer.status, JSON.stringify(answer.body)).toBe(202);
  return answer.body.data.event.data.employeeId;
}

describe("leave.requested takes the leave type, dates and note; the days are the calendar's", () => {
  test("the request as set, its working days computed for the employee", async () => {
    const employeeId = await hire();
    const answer = await fire({ type: "leave.requested", id: employeeId, set: { startDate: "2026-12-21T00:00:00", endDate: "2026-12-24T00:00:00", comments: "Family trip." } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    const org = mock.dataset.organizations[0];
    const record = org.index.leaveRequestById.get(answer.body.data.event.data.leaveRequestId)!;
    expect(record).toMatchObject({ employeeId, startDate: "2026-12-21", endDate: "2026-12-24", comments: "Family trip." });
    expect(record.days, "working days by the employee's calendar").toBe(workingDays("2026-12-21", "2026-12-24", workCalendarOf(org, org.index.employeeById.get(employeeId)!)));
    const details = await fetch(`${mock.url}/v1/leaverequest/details/${record.id}`, { headers: { authorization: "Bearer demo_org1_full" } }).then((r) => r.json());
    expect(details.data).toMatchObject({ startDate: "2026-12-21T00:00:00", endDate: "2026-12-24T00:00:00", comments: "Family trip.", days: record.days });
  });

  test("a start without an end: the end is picked, on or after the start", async () => {
    const answer = await fire({ type: "leave.requested", id: await hire(), set: { startDate: "2027-02-01T00:00:00" } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    const record = mock.dataset.organizations[0].index.leaveRequestById.get(answer.body.data.event.data.leaveRequestId)!;
    expect(record.startDate).toBe("2027-02-01");
    expect(record.endDate >= record.startDate, `${record.endDate} is on or after the start`).toBe(true);
  });

  const refusals: Array<[string, { given: (employeeId: string) => unknown; want: { status: number; message: RegExp } }]> = [
    ["an end before the start", { given: (id) => ({ id, set: { startDate: "2027-03-10T00:00:00", endDate: "2027-03-09T00:00:00" } }), want: { status: 400, message: /endDate .* is before startDate .*\(set\.endDate\)/ } }],
    ["an end without a start", { given: (id) => ({ id, set: { endDate: "2027-03-09T00:00:00" } }), want: { status: 400, message: /endDate needs startDate \(set\.endDate\)/ } }],
    ["a day that is not in the calendar", { given: (id) => ({ id, set: { startDate: "2027-02-30T00:00:00" } }), want: { status: 400, message: /not a calendar date \(set\.startDate\)/ } }],
    ["an unknown leave type", { given: (id) => ({ id, set: { leaveTypeId: "0b7e5c3e-8d2f-4c1a-9a57-2f1f0c6b9d11" } }), want: { status: 404, message: /no leave type with id .*\(set\.leaveTypeId\)/ } }],
    ["an inactive leave type", { given: (id) => ({ id, set: { leaveTypeId: mock.ids[0].inactiveLeaveTypeId } }), want: { status: 400, message: /inactive .*\(set\.leaveTypeId\)/ } }],
    ["a leave type for named employees only", { given: (id) => ({ id, set: { leaveTypeId: mock.ids[0].leaveTypeIdByEligibility[4] } }), want: { status: 400, message: /is not eligible for .*\(set\.leaveTypeId\)/ } }],
    ["a date in another form than the API's", { given: (id) => ({ id, set: { startDate: "2027-03-10" } }), want: { status: 400, message: /^Invalid field set\.startDate: must be text matching .*got "2027-03-10"/ } }],
    ["a field the type does not take", { given: (id) => ({ id, set: { days: 3 } }), want: { status: 400, message: /^Unknown field set\.days: the fields are leaveTypeId, startDate, endDate, comments\.$/ } }],
  ];
  test.each(refusals)("%s is refused naming the field, and changes nothing", async (_name, { given, want }) => {
    const employeeId = await hire();
    const version = mock.dataset.version;
    const answer = await fire({ type: "leave.requested", ...(given(employeeId) as object) });
    expect(answer.status, JSON.stringify(answer.body)).toBe(want.status);
    expect(answer.body).toMatchObject({ isSuccessful: false, code: String(want.status), data: null });
    expect(answer.body.message).toMatch(want.message);
    expect(mock.dataset.version, "nothing changed").toBe(version);
  });

  test("dates over the employee's other leave are a 409 naming the request they overlap", async () => {
    const id = await hire();
    const first = await fire({ type: "leave.requested", id, set: { startDate: "2027-04-05T00:00:00", endDate: "2027-04-09T00:00:00" } });
    expect(first.status).toBe(202);
    const answer = await fire({ type: "leave.requested", id, set: { startDate: "2027-04-08T00:00:00", endDate: "2027-04-12T00:00:00" } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(409);
    expect(answer.body.message).toMatch(new RegExp(`overlaps leave request ${first.body.data.event.data.leaveRequestId} .*\\(set\\.startDate\\)`));
  });
});

describe("other event types", () => {
  test("employee.created takes the name, work mode and job roles; the email follows the name", async () => {
    const answer = await fire({ type: "employee.created", set: { firstName: "Zofia", lastName: "Quill", workMode: "Remote", jobRoles: ["Payroll Analyst"] } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    const employee = mock.dataset.organizations[0].index.employeeById.get(answer.body.data.event.data.employeeId)!;
    expect(employee).toMatchObject({ firstName: "Zofia", lastName: "Quill", fullName: "Zofia Quill", workMode: "Remote", jobRoles: ["Payroll Analyst"] });
    expect(employee.email).toMatch(/^zofia\.quill\d*@/);
  });

  test("candidate.stage_changed takes the stage, carried in the event", async () => {
    const answer = await fire({ type: "candidate.stage_changed", set: { stage: "Final interview" } });
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    expect(answer.body.data.event.data.stage).toBe("Final interview");
  });

  test.each([["leave.approved"], ["employee.terminated"], ["webhook.test"]])("%s takes no overrides: a 400 saying so", async (type) => {
    const answer = await fire({ type, set: { comments: "x" } });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toMatch(/^Invalid field set: must be an empty object \(no field overrides/);
  });

  test("a bad work mode is refused by the document's enum", async () => {
    const answer = await fire({ type: "employee.created", set: { workMode: "Moon" } });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toMatch(/^Invalid field set\.workMode: must be one of Remote, Onsite, Hybrid/);
  });
});

describe("startMock's trigger takes the same overrides and the same checks", () => {
  test("in-process: the request as set", async () => {
    const employeeId = await hire();
    const result = await mock.trigger("leave.requested", { id: employeeId, set: { startDate: "2027-05-03T00:00:00", endDate: "2027-05-04T00:00:00" } });
    const record = mock.dataset.organizations[0].index.leaveRequestById.get((result.event.data as { leaveRequestId: string }).leaveRequestId)!;
    expect([record.startDate, record.endDate]).toEqual(["2027-05-03", "2027-05-04"]);
  });

  test.each([
    ["a field the type does not take", { set: { nope: 1 } }, /set\.nope is not a field here; the fields are leaveTypeId, startDate, endDate, comments/],
    ["an end before the start", { set: { startDate: "2027-06-02T00:00:00", endDate: "2027-06-01T00:00:00" } }, /is before startDate .*\(set\.endDate\)/],
  ] as const)("in-process: %s throws a TriggerError naming the field", async (_name, options, message) => {
    const employeeId = await hire();
    const error = await mock.trigger("leave.requested", { id: employeeId, ...options }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TriggerError);
    expect((error as Error).message).toMatch(message);
  });
});
