// What a run of the live suite saw, as the assumption evaluators (assumptions.ts) read it: the
// exchanges, the named probes, what each permission group was allowed, and the records seen.
import { operationIndex } from "../../generated/client.js";
import type { Exchange } from "./exchange.js";
import type { OperationId } from "./openapi.js";

export type AccessState = "granted" | "forbidden" | "unknown";
export type PermissionGroup = "leave" | "employeeManagement" | "employees";

const permissionOf = (op: OperationId) => operationIndex.find((o) => o.operationId === op)!.permission;

/** The permission each group of operations needs, as the report names it: the x-permission of its list. */
export const PERMISSION_NAME = { leave: permissionOf("listLeaveRequests"), employeeManagement: permissionOf("listDepartments") } as const;

export interface Probe {
  exchange: Exchange;
  /** Parameters a failure message should name (any one of them). */
  parameters?: string[];
}

export interface Observations {
  /** The suite's clock when the run ended, for "this year" and the expiry month. */
  now: number;
  exchanges: readonly Exchange[];
  probes: ReadonlyMap<string, Probe>;
  access: Record<PermissionGroup, { state: AccessState; exchange?: Exchange }>;
  /** Leave requests seen in lists and details (details win), by id. */
  leaveRequests: readonly any[];
  documents: readonly any[];
  balances: readonly { balance: any; leaveType?: any }[];
  /** Why parts of the run were not made (a permission missing, the request budget), for the report. */
  limits: readonly string[];
  /** Ids of another organisation were given (--ids otherOrganization). */
  foreignIdsGiven: boolean;
}

/** Names of the probes the run makes for the assumptions; the probes and the evaluators share them. */
export const probe = {
  firstPage: (op: OperationId) => `first-page ${op}`,
  pageSizeAbove: (op: OperationId) => `page-size-above-max ${op}`,
  pageSizeZero: (op: OperationId) => `page-size-zero ${op}`,
  pageSizeMax: (op: OperationId) => `page-size-max ${op}`,
  pageNumberZero: (op: OperationId) => `page-number-zero ${op}`,
  pastEnd: (op: OperationId) => `past-end ${op}`,
  notANumber: (op: OperationId) => `not-a-number ${op}`,
  noKey: (op: OperationId) => `no-key ${op}`,
  unknownKey: (op: OperationId) => `unknown-key ${op}`,
  malformedKey: (op: OperationId) => `malformed-key ${op}`,
  unknownId: (op: OperationId) => `unknown-id ${op}`,
  foreignId: (op: OperationId) => `foreign-id ${op}`,
  badUuid: (op: OperationId) => `bad-uuid ${op}`,
  missingRequired: "missing-required getLeaveBalance",
  statusLower: "leave-status-lower-case",
  statusNumber: "leave-status-number",
  statusUnknownName: "leave-status-unknown-name",
  statusOutOfRange: "leave-status-out-of-range",
  startOnly: "start-date-only",
  endOnly: "end-date-only",
  endBeforeStart: "end-before-start",
  sameDay: "start-equals-end",
  search: (area: "leave-requests" | "leave-types" | "departments", variant: "lower" | "swapped") => `search ${area} ${variant}`,
  eligibility: (k: number) => `eligibility ${k}`,
  companyOrgWide: "leave-types-company-org-wide",
  employeesPage2: "employees-page-2",
  employeeStatus: (status: string) => `employee-status ${status}`,
} as const;
