// Shared by the mock-server suites: clients for a running mock, one valid call per operation, and
// answers in one shape whichever way they were fetched.
import { createGeneratedClient, type OperationId } from "../../generated/client.js";
import type { OrganizationSampleIds, RunningMock } from "../../mock/index.js";

export type Client = ReturnType<typeof createGeneratedClient>;

export interface Answer {
  status: number;
  body: any;
  headers: Headers;
  /** The body as text, for answers that are not JSON. */
  text: string;
}

/** The generated client against the mock, with `Authorization: Bearer <key>` when a key is given. */
export function clientFor(mock: RunningMock, key?: string, headers: Record<string, string> = {}): Client {
  return createGeneratedClient({
    baseUrl: mock.url,
    headers: key === undefined ? headers : { Authorization: `Bearer ${key}`, ...headers },
  });
}

/** An openapi-fetch result as an Answer (openapi-fetch puts a failure's body in `error`). */
export async function answerOf(call: Promise<{ data?: unknown; error?: unknown; response: Response }>): Promise<Answer> {
  const { data, error, response } = await call;
  const body = data ?? error;
  return { status: response.status, body, headers: response.headers, text: JSON.stringify(body) };
}

/** A plain fetch as an Answer; the body is parsed when it is JSON, else null. */
export async function fetchAnswer(mock: RunningMock, path: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(mock.url + path, init);
  const text = await response.text();
  let body: any = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  return { status: response.status, body, headers: response.headers, text };
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/** One call per operation that succeeds for a permitted key of the first organisation. */
export function validCalls(ids: OrganizationSampleIds): Record<OperationId, (client: Client) => Promise<Answer>> {
  return {
    listLeaveRequests: (c) => answerOf(c.listLeaveRequests({ PageSize: 5 })),
    getLeaveRequest: (c) => answerOf(c.getLeaveRequest(ids.leaveRequestId)),
    getLeaveBalance: (c) => answerOf(c.getLeaveBalance({ EmployeeId: ids.balance.employeeId, LeaveTypeId: ids.balance.leaveTypeId })),
    listLeaveTypes: (c) => answerOf(c.listLeaveTypes({})),
    listDepartments: (c) => answerOf(c.listDepartments({})),
    getDepartment: (c) => answerOf(c.getDepartment(ids.departmentId)),
    listEmployees: (c) => answerOf(c.listEmployees({ Status: "Active", PageSize: 10 })),
  };
}

/** The same valid calls as plain paths (for raw fetches with odd headers). */
export function validPaths(ids: OrganizationSampleIds): Record<OperationId, string> {
  return {
    listLeaveRequests: "/v1/leaverequest/list?PageSize=5",
    getLeaveRequest: `/v1/leaverequest/details/${ids.leaveRequestId}`,
    getLeaveBalance: `/v1/leavebalance/get-leave-balance?EmployeeId=${ids.balance.employeeId}&LeaveTypeId=${ids.balance.leaveTypeId}`,
    listLeaveTypes: "/v1/leavetype/list",
    listDepartments: "/v1/department/list",
    getDepartment: `/v1/department/${ids.departmentId}`,
    listEmployees: "/v1/employee/list?Status=Active&PageSize=10",
  };
}

/** A failure envelope as the spec's FailureEnvelope x-assumption describes it. */
export function isFailureEnvelope(body: any, status: number): boolean {
  return body?.isSuccessful === false && body.code === String(status) && typeof body.message === "string" && body.data === null;
}
