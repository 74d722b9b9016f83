import type { components, operations } from "hr-service-contract/types";
import { webhookEventTypes, type WebhookEvent, type WebhookEventData } from "hr-service-contract/events";

/** A leave type as the API answers it, and the query its leave requests list takes. */
export type LeaveType = components["schemas"]["LeaveType"];
export type LeaveRequestQuery = operations["listLeaveRequests"]["parameters"]["query"];

/** A handler narrowed by the event's type: the compiler knows each type's data. */
export function describe(event: WebhookEvent): string {
  if (event.type === "leave.approved") return `${event.data.employeeId} off from ${event.data.startDate}`;
  return `${event.type} ${event.id}`;
}

export const approved = (data: WebhookEventData<"leave.approved">) => data.leaveRequestId;
export const knownTypes: readonly string[] = webhookEventTypes;
