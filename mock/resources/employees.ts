// The employee list (section 4.7, known from a sample), in employee code order.
import { employeePredicate } from "../data/filters.js";
import { pageOfMatches } from "../data/paging.js";
import type { EmployeeRecord } from "../data/records.js";
import type { ResourceHandler, Schemas } from "./contract.js";
import { answer, invalidParameter, organizationOf, paging, single, type Query } from "./query.js";

type Summary = Schemas["EmployeeSummary"];
type Status = Schemas["EmployeeStatus"];

/** The statuses the spec's EmployeeStatus enum lists (a test checks they agree). */
export const EMPLOYEE_STATUSES = ["Active", "Inactive", "Terminated"] as const satisfies readonly Status[];

const items = new WeakMap<EmployeeRecord, Summary>();

export function employeeSummary(e: EmployeeRecord): Summary {
  const cached = items.get(e);
  if (cached) return cached;
  const item: Summary = Object.freeze({ id: e.id, employeeId: e.code, firstName: e.firstName, lastName: e.lastName } satisfies Summary);
  items.set(e, item);
  return item;
}

/** Status: a name of the spec's EmployeeStatus enum, written as the enum writes it. */
export function employeeStatus(query: Query): Status | undefined {
  const text = single(query, "Status");
  if (text === undefined) return undefined;
  const found = EMPLOYEE_STATUSES.find((s) => s === text);
  if (!found) throw invalidParameter("Status", `one of ${EMPLOYEE_STATUSES.join(", ")}`, text);
  return found;
}

export const listEmployees: ResourceHandler = (dataset, request) =>
  answer(() => {
    const org = organizationOf(dataset, request);
    const { pageNumber, pageSize } = paging(request.query);
    const keep = employeePredicate({ status: employeeStatus(request.query) });
    return pageOfMatches(org.employees, keep, false, pageNumber, pageSize, employeeSummary) satisfies Schemas["EmployeePage"];
  });
