// The resource handlers by operationId, for the HTTP layer.
import type { ResourceHandlers } from "./contract.js";
import { getDepartment, listDepartments } from "./departments.js";
import { listEmployees } from "./employees.js";
import { getLeaveBalance } from "./leave-balance.js";
import { getLeaveRequest, listLeaveRequests } from "./leave-requests.js";
import { listLeaveTypes } from "./leave-types.js";

export const handlers: ResourceHandlers = {
  listLeaveRequests,
  getLeaveRequest,
  getLeaveBalance,
  listLeaveTypes,
  listDepartments,
  getDepartment,
  listEmployees,
};

export { readOperations, type ResourceHandler, type ResourceHandlers, type ResourceRequest, type ResourceResult } from "./contract.js";
