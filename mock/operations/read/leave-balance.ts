// Leave balance of one employee and one leave type (section 4.3), computed from the requests.
import { computeBalance } from "../../data/balances.js";
import { balanceKey } from "../../data/organization.js";
import type { ResourceHandler, Schemas } from "./contract.js";
import { Refusal, answer, organizationOf } from "./query.js";

export const getLeaveBalance: ResourceHandler<"getLeaveBalance"> = (dataset, request) =>
  answer(() => {
    const org = organizationOf(dataset, request);
    const { EmployeeId: employeeId, LeaveTypeId: leaveTypeId } = request.query;
    // Rule 2: an employee or leave type outside the organisation is a failure, named.
    const employee = org.index.employeeById.get(employeeId);
    if (!employee) throw new Refusal("not-found", `Not found: no employee with id ${employeeId} in this organisation (EmployeeId).`);
    const leaveType = org.index.leaveTypeById.get(leaveTypeId);
    if (!leaveType) throw new Refusal("not-found", `Not found: no leave type with id ${leaveTypeId} in this organisation (LeaveTypeId).`);
    const setUp = org.index.balanceSetUpByKey.get(balanceKey(employeeId, leaveTypeId));
    const requests = (org.index.requestsByEmployee.get(employeeId) ?? []).filter((r) => r.leaveTypeId === leaveTypeId);
    return computeBalance({
      leaveType,
      setUp: setUp !== undefined,
      carriedForwardDays: setUp?.carriedForwardDays ?? 0,
      requests,
      today: dataset.today,
    }) satisfies Schemas["LeaveBalance"];
  });
