// What each event type does to the dataset and the `data` it carries. Leave and employee events
// change the dataset through mock/data/mutations.ts (so the API then shows the new state); the
// others concern records this service has no API for: their own ids are seeded, and every id of a
// kind the API serves names a real record of the organisation. A trigger's `id` names the record
// (triggerSubjects in generated/control-facts.ts), else one is picked; `set` gives fields of the
// record it creates (checked against the control API's override schemas where it came in).
import type { components } from "../../generated/control-api.js";
import type { WebhookEventData, WebhookEventType } from "../../generated/events.js";
import type { Dataset, OrganizationData } from "../data/dataset.js";
import { dateText } from "../data/dates.js";
import {
  addEmployee,
  addLeaveRequest,
  approveLeaveRequest,
  cancelLeaveRequest,
  rejectLeaveRequest,
  terminateEmployee,
  type MutationFailure,
  type MutationResult,
} from "../data/mutations.js";
import type { EmployeeRecord, LeaveRequestRecord } from "../data/records.js";
import { APPROVED, LEAVE_STATUS_NAMES, REJECTED } from "../data/statuses.js";
import type { Endpoint } from "./endpoints.js";
import { ok, type Reason, type Result } from "../kernel/results.js";

type Schemas = components["schemas"];

/** A trigger as the control API's body says it: the event type, the record, the overrides. */
export interface TriggerRequest {
  type: WebhookEventType;
  id?: string;
  /** Fields of the record the trigger creates; which ones per type is TriggerRequest's allOf. */
  set?: Record<string, unknown>;
}

/** A trigger's whole input, one plain object, so that it can be journalled and replayed as it came. */
export interface TriggerInput extends TriggerRequest {
  organizationId: string;
}

/** Thrown inside this module only: buildEventData turns it into a refusal. */
class Refused {
  constructor(readonly reason: Reason) {}
}

const refused = (kind: Reason["kind"], message: string, field?: string): Refused => new Refused(field ? { kind, field, message } : { kind, message });

export interface TriggerContext {
  dataset: Dataset;
  org: OrganizationData;
  /** The record named by the caller, if any (a uuid, already checked). */
  id: string | undefined;
  /** The caller's overrides, checked against the type's override schema (empty when none). */
  set: Record<string, unknown>;
  /** Seeded ids for records this service has no API for. */
  newId: () => string;
  /** Seeded pick; undefined for an empty list. */
  pick: <T>(items: readonly T[]) => T | undefined;
  /** Today's request time for a new leave request. */
  now: Date;
  /** The organisation's webhook endpoints, oldest first. */
  endpoints: readonly Endpoint[];
}

/** An event's data, and the endpoints it goes to when not every subscriber of its type gets it. */
export interface EventData {
  data: unknown;
  only?: readonly Endpoint[];
}

/** Data that goes to the given endpoints only, instead of every subscriber of the type. */
class Addressed<T> {
  constructor(
    readonly data: T,
    readonly only: readonly Endpoint[],
  ) {}
}

type DataBuilder<T extends WebhookEventType> = (ctx: TriggerContext) => WebhookEventData<T> | Addressed<WebhookEventData<T>>;
type Builders = { [T in WebhookEventType]: DataBuilder<T> };

const TEST_MESSAGE = "This is a test event from the HR service mock.";

const STAGES = ["Screening", "Interview", "Assessment", "Offer"] as const;

/** The refusal of each way a mutation fails on a record the trigger named or picked. */
const REFUSAL_OF: Partial<Record<MutationFailure, Reason["kind"]>> = { "not-found": "not-found", "not-allowed": "invalid", conflict: "conflict" };

/** A mutation's result as a record, or the refusal naming the field (`id` unless the mutation names an override). */
function applied<T>(result: MutationResult<T>, what: string): T {
  if (result.ok) return result.record;
  if (result.reason === "none-available") throw refused("conflict", `${result.message}; there is no ${what} left to change`);
  const kind = REFUSAL_OF[result.reason];
  if (!kind) throw new Error(`hr-mock webhooks: a mutation failed for a reason the trigger does not know: ${result.message}`);
  throw refused(kind, result.message, result.field ?? "id");
}

/** An Active employee: the named one (404 unknown, 400 not Active) or a picked one. */
function activeEmployee(ctx: TriggerContext): EmployeeRecord {
  if (ctx.id !== undefined) {
    const employee = ctx.org.index.employeeById.get(ctx.id.toLowerCase());
    if (!employee) throw refused("not-found", `no employee with id ${ctx.id} in this organisation`, "id");
    if (employee.status !== "Active") throw refused("invalid", `employee ${ctx.id} is ${employee.status}, not Active`, "id");
    return employee;
  }
  const employee = ctx.pick(ctx.org.employees.filter((e) => e.status === "Active"));
  if (!employee) throw refused("conflict", "this organisation has no Active employee");
  return employee;
}

function leaveIds(r: LeaveRequestRecord) {
  return { leaveRequestId: r.id, employeeId: r.employeeId, leaveTypeId: r.leaveTypeId };
}

export const BUILDERS: Builders = {
  "leave.requested": (ctx) => {
    const r = applied(addLeaveRequest(ctx.dataset, ctx.org.id, { employeeId: ctx.id, set: ctx.set as Schemas["LeaveRequestedOverrides"], now: ctx.now }), "employee who can ask for leave");
    return { ...leaveIds(r), status: "Submitted" };
  },
  "leave.approved": (ctx) => {
    const r = applied(approveLeaveRequest(ctx.dataset, ctx.org.id, ctx.id), "waiting leave request");
    const leaveType = ctx.org.index.leaveTypeById.get(r.leaveTypeId);
    if (!leaveType) throw new Error(`hr-mock webhooks: leave type ${r.leaveTypeId} of request ${r.id} is missing from the dataset`);
    return {
      ...leaveIds(r),
      leaveType: leaveType.name,
      startDate: dateText(r.startDate),
      endDate: dateText(r.endDate),
      status: "Approved",
    };
  },
  "leave.rejected": (ctx) => {
    const r = applied(rejectLeaveRequest(ctx.dataset, ctx.org.id, ctx.id), "waiting leave request");
    return { ...leaveIds(r), status: "Rejected" };
  },
  "leave.cancelled": (ctx) => {
    const r = applied(cancelLeaveRequest(ctx.dataset, ctx.org.id, ctx.id), "leave request that can be withdrawn");
    return { ...leaveIds(r), status: "Abandoned" };
  },
  "employee.created": (ctx) => {
    const e = applied(addEmployee(ctx.dataset, ctx.org.id, { departmentId: ctx.id, set: ctx.set as Schemas["EmployeeCreatedOverrides"] }), "Active department");
    return { employeeId: e.id, companyId: e.companyId, departmentId: e.departmentId, status: "Active" };
  },
  "employee.terminated": (ctx) => {
    const e = applied(terminateEmployee(ctx.dataset, ctx.org.id, ctx.id), "Active employee who is not a department head");
    return { employeeId: e.id, companyId: e.companyId, status: "Terminated" };
  },
  "payroll.paid": (ctx) => {
    const company = ctx.pick(ctx.org.companies);
    if (!company) throw refused("conflict", "this organisation has no company");
    return { payrollRunId: ctx.id ?? ctx.newId(), companyId: company.id, status: "Paid" };
  },
  "payroll.transfer_failed": (ctx) => {
    const employee = activeEmployee(ctx);
    return { payrollRunId: ctx.newId(), employeeId: employee.id, transferId: ctx.newId(), status: "Failed" };
  },
  "loan.disbursed": (ctx) => {
    const employee = activeEmployee(ctx);
    return { loanId: ctx.newId(), employeeId: employee.id, status: "Disbursed" };
  },
  "candidate.stage_changed": (ctx) => {
    const set = ctx.set as Schemas["CandidateStageChangedOverrides"];
    return {
      candidateId: ctx.id ?? ctx.newId(),
      jobOpeningId: set.jobOpeningId ?? ctx.newId(),
      stage: set.stage ?? ctx.pick(STAGES) ?? STAGES[0],
    };
  },
  "offer.accepted": (ctx) => ({
    offerId: ctx.id ?? ctx.newId(),
    candidateId: ctx.newId(),
    jobOpeningId: ctx.newId(),
    status: "Accepted",
  }),
  "approval.completed": (ctx) => {
    const decided = (r: LeaveRequestRecord) => r.statusId === APPROVED || r.statusId === REJECTED;
    let request: LeaveRequestRecord | undefined;
    if (ctx.id !== undefined) {
      request = ctx.org.index.leaveRequestById.get(ctx.id.toLowerCase());
      if (!request) throw refused("not-found", `no leave request with id ${ctx.id} in this organisation`, "id");
      if (!decided(request)) {
        throw refused("invalid", `leave request ${ctx.id} is ${LEAVE_STATUS_NAMES[request.statusId]}; an approval completes only for an Approved or Rejected request`, "id");
      }
    } else {
      request = ctx.pick(ctx.org.leaveRequests.filter(decided));
      if (!request) throw refused("conflict", "this organisation has no Approved or Rejected leave request");
    }
    return {
      approvalId: ctx.newId(),
      requestType: "Leave",
      recordId: request.id,
      status: request.statusId === APPROVED ? "Approved" : "Rejected",
    };
  },
  // The Test action: the named endpoint (the oldest without an id) only, whatever its selection.
  "webhook.test": (ctx) => {
    const endpoint = ctx.id !== undefined ? ctx.endpoints.find((e) => e.id === ctx.id) : ctx.endpoints[0];
    if (!endpoint) {
      throw ctx.id !== undefined
        ? refused("not-found", `no webhook endpoint with id ${ctx.id} in this organisation`, "id")
        : refused("conflict", "this organisation has no webhook endpoint to test; add one first");
    }
    return new Addressed({ endpointId: endpoint.id, message: TEST_MESSAGE }, [endpoint]);
  },
};

/** What the event of this type carries, after changing the dataset as it implies; or why it cannot happen. */
export function buildEventData(type: WebhookEventType, ctx: TriggerContext): Result<EventData> {
  try {
    const built = (BUILDERS[type] as (ctx: TriggerContext) => unknown)(ctx);
    return ok(built instanceof Addressed ? { data: built.data, only: built.only } : { data: built });
  } catch (error) {
    if (error instanceof Refused) return { ok: false, reason: error.reason };
    throw error;
  }
}
