// End to end: the mock fires every event type through its control API to a receiver built with
// src/webhooks' createReceiver, which verifies each delivery; each arrives with the AsyncAPI
// headers and a body valid against the AsyncAPI schema, and the records it names show their new
// state through the generated client.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createGeneratedClient } from "../../generated/client.js";
import { webhookEventTypes, type WebhookEvent, type WebhookEventMap, type WebhookEventType } from "../../generated/events.js";
import { DEMO_KEY, startMock, type RunningMock } from "../../mock/index.js";
import { TriggerError, type TriggerOptions } from "../../mock/webhooks/index.js";
import { loadAsyncApi } from "../../scripts/lib/spec-document.js";
import { eventSchemaErrors, headerSchemaErrors, register, TestReceiver, trigger } from "./support.js";

const TODAY = "2026-03-02";
const OCCURRED_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{7}Z$/;
const sendOperation = loadAsyncApi().operations.sendWebhookEvent;
const headerSchema = loadAsyncApi().components.schemas.WebhookHeaders;

let mock: RunningMock;
let receiver: TestReceiver;
let client: ReturnType<typeof createGeneratedClient>;
let endpointId: string;

beforeAll(async () => {
  mock = await startMock({ port: 0, today: TODAY, rateLimit: "off", webhooks: { timeScale: 0.0001 } });
  receiver = await new TestReceiver().start();
  endpointId = (await register(mock, receiver, { events: "all" })).id;
  client = createGeneratedClient({ baseUrl: mock.url, headers: { Authorization: `Bearer ${DEMO_KEY.org1Full}` } });
});
afterAll(async () => {
  await mock?.close();
  await receiver?.close();
});

const ids = () => mock.ids[0];

async function details(id: string) {
  const { data, response } = await client.getLeaveRequest(id);
  expect(response.status, `details of leave request ${id}`).toBe(200);
  return data!.data;
}

async function balance(employeeId: string, leaveTypeId: string) {
  const { data, response } = await client.getLeaveBalance({ EmployeeId: employeeId, LeaveTypeId: leaveTypeId });
  expect(response.status, `balance of ${employeeId}/${leaveTypeId}`).toBe(200);
  return data!.data;
}

/** Every employee id the list shows with this status (all pages). */
async function employeeIds(status: "Active" | "Terminated"): Promise<string[]> {
  const found: string[] = [];
  for (let page = 1; ; page++) {
    const { data } = await client.listEmployees({ Status: status, PageSize: 100, PageNumber: page });
    found.push(...data!.data.data.map((e) => e.id));
    if (page >= data!.data.totalPages) return found;
  }
}

/** The API shows a request's leave type by name; its id comes from the leave type list (any eligibility). */
async function leaveTypeIdOf(name: string): Promise<string> {
  for (const criteria of [0, 1, 2, 3, 4] as const) {
    const { data } = await client.listLeaveTypes({ EligibilityCriteria: criteria, SearchTerm: name, PageSize: 100 });
    const found = data!.data.data.find((t) => t.name === name);
    if (found) return found.id;
  }
  throw new Error(`no leave type named ${name} in the list`);
}

/** A Submitted request that starts this year, from the list (so its balance is this year's). */
async function waitingRequestThisYear() {
  const { data } = await client.listLeaveRequests({ LeaveStatus: "Submitted", StartDate: TODAY, EndDate: "2026-12-31", PageSize: 100 });
  const request = data!.data.data[0];
  expect(request, "a Submitted leave request starting this year").toBeDefined();
  return request;
}

interface Case {
  /** The record to name in the trigger, if any, and what to remember before it. */
  given?: () => Promise<{ id?: string; before?: unknown }>;
  want: (event: any, before: any) => Promise<void>;
}

const CASES: Record<WebhookEventType, Case> = {
  "leave.approved": {
    given: async () => {
      const request = await waitingRequestThisYear();
      return { id: request.id, before: { days: request.days, balance: await balance(request.employeeId, await leaveTypeIdOf(request.leaveTypeName)) } };
    },
    want: async (event: WebhookEventMap["leave.approved"], before) => {
      const after = await details(event.data.leaveRequestId);
      expect(after.leaveStatus, "details show Approved").toBe("Approved");
      expect(after.leaveStatusId).toBe(2);
      expect(event.data.startDate, "startDate of the event is the request's").toBe(after.startDate);
      expect(event.data.leaveType).toBe(after.leaveTypeName);
      const moved = await balance(event.data.employeeId, event.data.leaveTypeId);
      expect(moved.daysTaken, "daysTaken grows by the request's days").toBe(before.balance.daysTaken + before.days);
      expect(moved.leavePending, "leavePending shrinks by the request's days").toBe(before.balance.leavePending - before.days);
    },
  },
  "leave.requested": {
    want: async (event: WebhookEventMap["leave.requested"]) => {
      const { data } = await client.listLeaveRequests({ LeaveStatus: "Submitted", PageSize: 5 });
      expect(data!.data.data.map((r) => r.id), "the new request is listed first (newest first)").toContain(event.data.leaveRequestId);
      const shown = await details(event.data.leaveRequestId);
      expect(shown.employeeId).toBe(event.data.employeeId);
      expect(shown.leaveStatus).toBe("Submitted");
    },
  },
  "leave.rejected": {
    want: async (event: WebhookEventMap["leave.rejected"]) => {
      expect((await details(event.data.leaveRequestId)).leaveStatus, "details show Rejected").toBe("Rejected");
    },
  },
  "leave.cancelled": {
    want: async (event: WebhookEventMap["leave.cancelled"]) => {
      expect((await details(event.data.leaveRequestId)).leaveStatus, "details show Abandoned").toBe("Abandoned");
    },
  },
  "employee.created": {
    want: async (event: WebhookEventMap["employee.created"]) => {
      expect(await employeeIds("Active"), "the new employee is in the Active list").toContain(event.data.employeeId);
      const { data } = await client.getDepartment(event.data.departmentId);
      expect(data?.data.companyId, "the event's department and company agree with the API").toBe(event.data.companyId);
    },
  },
  "employee.terminated": {
    want: async (event: WebhookEventMap["employee.terminated"]) => {
      expect(await employeeIds("Terminated"), "the employee is in the Terminated list").toContain(event.data.employeeId);
      expect(await employeeIds("Active"), "and no longer Active").not.toContain(event.data.employeeId);
    },
  },
  "payroll.paid": {
    want: async (event: WebhookEventMap["payroll.paid"]) => {
      const { data } = await client.listLeaveRequests({ CompanyId: event.data.companyId, PageSize: 1 });
      expect(data!.data.totalRecords, "companyId is a company of the organisation").toBeGreaterThan(0);
    },
  },
  "payroll.transfer_failed": {
    want: async (event: WebhookEventMap["payroll.transfer_failed"]) => {
      expect(await employeeIds("Active"), "employeeId is an Active employee").toContain(event.data.employeeId);
    },
  },
  "loan.disbursed": {
    given: async () => ({ id: ids().employeeId }),
    want: async (event: WebhookEventMap["loan.disbursed"]) => {
      expect(event.data.employeeId, "the named employee").toBe(ids().employeeId);
    },
  },
  "candidate.stage_changed": {
    want: async (event: WebhookEventMap["candidate.stage_changed"]) => {
      expect(event.data.candidateId).not.toBe(event.data.jobOpeningId);
    },
  },
  "offer.accepted": {
    given: async () => ({ id: "5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9" }),
    want: async (event: WebhookEventMap["offer.accepted"]) => {
      expect(event.data.offerId, "the offer id given").toBe("5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9");
    },
  },
  "approval.completed": {
    given: async () => ({ id: ids().approvedLeaveRequestId }),
    want: async (event: WebhookEventMap["approval.completed"]) => {
      expect(event.data.recordId).toBe(ids().approvedLeaveRequestId);
      expect((await details(event.data.recordId)).leaveStatus, "the decided request's status").toBe(event.data.status);
    },
  },
  "webhook.test": {
    want: async (event: WebhookEventMap["webhook.test"]) => {
      expect(event.data.endpointId, "names the endpoint tested").toBe(endpointId);
    },
  },
};

test("the table covers every event type of the catalogue", () => {
  expect(Object.keys(CASES).sort()).toEqual([...webhookEventTypes].sort());
});

describe("each event type arrives verified, as the AsyncAPI document describes it, and the API shows its effect", () => {
  test.each(webhookEventTypes.map((type) => [type, CASES[type]] as const))("%s", async (type, { given, want }) => {
    const { id, before } = (await given?.()) ?? {};
    const answer = await trigger(mock, type, id);
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    const sent = answer.body.data.event as WebhookEvent;
    expect(answer.body.data.deliveries, "queued for the one endpoint").toEqual([{ endpointId, url: receiver.url, duplicate: false }]);

    const event = await receiver.event(sent.id);
    expect(event, "the receiver got the body the trigger reported").toEqual(sent);
    expect(receiver.rejections, "every delivery verified").toEqual([]);
    expect(eventSchemaErrors(event), "body valid against the AsyncAPI schema").toEqual([]);
    expect(event.type).toBe(type);
    expect(event.apiVersion, "apiVersion from the spec").toBe(sendOperation["x-api-version"]);
    expect(event.occurredAt, "7 fractional digits, Z").toMatch(OCCURRED_AT);
    expect(event.organizationId).toBe(ids().organizationId);

    const [request] = receiver.requestsFor(event.id);
    expect(headerSchemaErrors(request.headers), "headers valid against WebhookHeaders").toEqual([]);
    expect(request.headers["content-type"]).toBe(headerSchema.properties["Content-Type"].const);
    expect(request.headers["user-agent"]).toBe(headerSchema.properties["User-Agent"].const);
    expect(request.headers["service-event-id"]).toBe(event.id);
    expect(request.headers["service-event-type"]).toBe(type);

    await want(event, before);
  });
});

describe("the record picked when no id is given", () => {
  const refusals: Array<[string, { given: { type: WebhookEventType; id: () => string }; want: { status: number; message: RegExp } }]> = [
    ["an unknown leave request", { given: { type: "leave.approved", id: () => "00000000-0000-4000-8000-000000000000" }, want: { status: 404, message: /00000000-0000-4000-8000-000000000000.*\(id\)/ } }],
    ["an Approved request cannot be approved", { given: { type: "leave.approved", id: () => ids().approvedLeaveRequestId }, want: { status: 400, message: /is Approved.*\(id\)/ } }],
    ["an unknown employee for leave.requested", { given: { type: "leave.requested", id: () => "00000000-0000-4000-8000-000000000001" }, want: { status: 404, message: /employee.*\(id\)/ } }],
    ["a waiting request is not a decided approval", { given: { type: "approval.completed", id: () => ids().waitingLeaveRequestId }, want: { status: 400, message: /Approved or Rejected.*\(id\)/ } }],
    ["an unknown endpoint for webhook.test", { given: { type: "webhook.test", id: () => "00000000-0000-4000-8000-000000000002" }, want: { status: 404, message: /endpoint.*\(id\)/ } }],
  ];
  test.each(refusals)("%s is refused and names the id", async (_name, { given, want }) => {
    const version = mock.dataset.version;
    const answer = await trigger(mock, given.type, given.id());
    expect(answer.status, JSON.stringify(answer.body)).toBe(want.status);
    expect(answer.body.message).toMatch(want.message);
    expect(mock.dataset.version, "a refused trigger changes nothing").toBe(version);
  });

  test("without an id, leave.approved approves some waiting request and bumps the dataset version", async () => {
    const version = mock.dataset.version;
    const answer = await trigger(mock, "leave.approved");
    expect(answer.status).toBe(202);
    expect(mock.dataset.version).toBe(version + 1);
    expect((await details(answer.body.data.event.data.leaveRequestId)).leaveStatus).toBe("Approved");
  });

  const upperCaseIds: Array<[string, { given: { type: WebhookEventType; id: string }; want: (event: any) => string }]> = [
    ["payroll.paid names the run", { given: { type: "payroll.paid", id: "5E6F7A8B-9C0D-4E1F-A2B3-C4D5E6F7A8B9" }, want: (e) => e.data.payrollRunId }],
    ["offer.accepted names the offer", { given: { type: "offer.accepted", id: "5E6F7A8B-9C0D-4E1F-A2B3-C4D5E6F7A8BA" }, want: (e) => e.data.offerId }],
    ["candidate.stage_changed names the candidate", { given: { type: "candidate.stage_changed", id: "5E6F7A8B-9C0D-4E1F-A2B3-C4D5E6F7A8BB" }, want: (e) => e.data.candidateId }],
  ];
  test.each(upperCaseIds)("an id given in upper case arrives in lower case: %s", async (_name, { given, want }) => {
    const answer = await trigger(mock, given.type, given.id);
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    expect(want(answer.body.data.event), "the id as the dataset and every other event write ids").toBe(given.id.toLowerCase());
  });

  const inProcessRefusals: Array<[string, { given: { type: string; options: TriggerOptions }; want: { kind: string; field: string | undefined; message: RegExp } }]> = [
    ["a type outside the catalogue", { given: { type: "salary.changed", options: {} }, want: { kind: "invalid", field: "type", message: /^type must be equal to one of the allowed values, got "salary\.changed" \(type\)\.$/ } }],
    ["an id that is not a uuid", { given: { type: "leave.approved", options: { id: "42" } }, want: { kind: "invalid", field: "id", message: /^id must match format "uuid", got "42" \(id\)\.$/ } }],
    ["an organisation number past the dataset's", { given: { type: "payroll.paid", options: { organisation: 3 } }, want: { kind: "invalid", field: undefined, message: /organisation 3 is not 1 to 2/ } }],
    ["an unknown organisation id", { given: { type: "payroll.paid", options: { organisation: "00000000-0000-4000-8000-000000000009" } }, want: { kind: "invalid", field: undefined, message: /organisation "00000000-0000-4000-8000-000000000009"/ } }],
  ];
  test.each(inProcessRefusals)("mock.trigger refuses %s with a TriggerError and changes nothing", async (_name, { given, want }) => {
    const version = mock.dataset.version;
    const requests = receiver.requests.length;
    const error = await mock.trigger(given.type, given.options).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error, "a TriggerError").toBeInstanceOf(TriggerError);
    expect(error).toMatchObject({ kind: want.kind, field: want.field });
    expect((error as Error).message).toMatch(want.message);
    expect(mock.dataset.version, "the dataset is unchanged").toBe(version);
    expect(receiver.requests.length, "nothing was sent").toBe(requests);
  });

  test("mock.trigger does the same in-process", async () => {
    const result = await mock.trigger("leave.rejected");
    expect((await details((result.event as WebhookEventMap["leave.rejected"]).data.leaveRequestId)).leaveStatus).toBe("Rejected");
    expect((await receiver.event(result.event.id)).type).toBe("leave.rejected");
  });
});
