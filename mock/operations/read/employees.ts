// The employee list (section 4.7, known from a sample), in employee code order.
import { employeePredicate } from "../../data/filters.js";
import { pageOfMatches } from "../../data/paging.js";
import type { EmployeeRecord } from "../../data/records.js";
import type { ResourceHandler, Schemas } from "./contract.js";
import { answer, organizationOf, perRecord } from "./query.js";

type Summary = Schemas["EmployeeSummary"];

export const employeeSummary = perRecord((e: EmployeeRecord): Summary => ({ id: e.id, employeeId: e.code, firstName: e.firstName, lastName: e.lastName }));

export const listEmployees: ResourceHandler<"listEmployees"> = (dataset, request) =>
  answer(() => {
    const org = organizationOf(dataset, request);
    const { PageNumber, PageSize, Status } = request.query;
    const keep = employeePredicate({ status: Status });
    return pageOfMatches(org.employees, keep, false, PageNumber, PageSize, employeeSummary) satisfies Schemas["EmployeePage"];
  });
