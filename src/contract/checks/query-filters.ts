// The filters and the order a list request asks for, read from its query, as the checks of
// filters.ts judge them: for an answer the suite did not choose (the proxy sees a client's own
// requests). Only what list items show can be judged: DepartmentId, CompanyId, Companies and an
// employee's Status are not shown by the items, so they are not read here. Parameter names come from
// the spec (generated/facts.ts); values were validated before these run.
import { parameters } from "../../../generated/facts.js";
import type { OperationId } from "../openapi.js";
import { containsTerm, fieldEquals, leaveStatusPredicate, startsBetween, type Direction, type ItemPredicate } from "./filters.js";

/** One filter of a request: its label as sent, the rule items must keep, and why some cannot be told. */
export interface RequestedFilter {
  label: string;
  predicate: ItemPredicate;
  unknownReason?: string;
}

/** The date field each ordered list sorts by; OrderBy (0 oldest first, 1 newest first, the default) gives the direction. */
export const LIST_ORDER: Partial<Record<OperationId, string>> = { listLeaveRequests: "requestedOn", listDepartments: "created" };

/** The direction an OrderBy value asks for (the spec's default when absent). */
export function directionOf(orderBy: string | undefined): Direction {
  const value = orderBy === undefined ? parameters.OrderBy.default : Number(orderBy);
  return value === 0 ? "oldest first" : "newest first";
}

export interface FilterContext {
  statusNames: ReadonlyMap<number, string>;
  /** A leave type's name by its id, when a leave type list showed it. */
  leaveTypeName(id: string): string | undefined;
}

/** A query parameter's value as the service reads it: names in any letter case, the last one wins. */
export type QueryValue = (name: string) => string | undefined;

const SEARCH_HIDDEN = "they may match by the employee's email, which items do not show";

export function requestedFilters(op: OperationId, value: QueryValue, context: FilterContext): RequestedFilter[] {
  const out: RequestedFilter[] = [];
  const given = (name: string) => {
    const v = value(name);
    return v === undefined || v === "" ? undefined : v;
  };
  if (op === "listLeaveRequests") {
    const search = given(parameters.LeaveRequestSearchTerm.name);
    const status = given(parameters.LeaveStatus.name);
    if (status !== undefined) out.push({ label: `LeaveStatus=${status}`, predicate: leaveStatusPredicate(status, context.statusNames) });
    const from = given(parameters.StartDate.name);
    const to = given(parameters.EndDate.name);
    if (from !== undefined && to !== undefined) out.push({ label: `StartDate=${from}&EndDate=${to}`, predicate: startsBetween(from, to) });
    const typeId = given(parameters.LeaveRequestLeaveTypeId.name);
    const typeName = typeId === undefined ? undefined : context.leaveTypeName(typeId.toLowerCase());
    if (typeId !== undefined && typeName !== undefined) out.push({ label: `LeaveTypeId=${typeId} (${typeName})`, predicate: fieldEquals("leaveTypeName", typeName) });
    if (search !== undefined) out.push({ label: `SearchTerm=${search}`, predicate: containsTerm(search, ["employeeName", "leaveTypeName"], true), unknownReason: SEARCH_HIDDEN });
  } else if (op === "listLeaveTypes") {
    const criteria = given(parameters.EligibilityCriteriaFilter.name);
    if (criteria !== undefined) out.push({ label: `EligibilityCriteria=${criteria}`, predicate: fieldEquals("eligibilityCriteria", Number(criteria)) });
    const active = given(parameters.IsActive.name);
    if (active !== undefined) out.push({ label: `IsActive=${active}`, predicate: fieldEquals("isActive", active.toLowerCase() === "true") });
    const search = given(parameters.LeaveTypeSearchTerm.name);
    if (search !== undefined) out.push({ label: `SearchTerm=${search}`, predicate: containsTerm(search, ["name"]) });
  } else if (op === "listDepartments") {
    const search = given(parameters.DepartmentSearchTerm.name);
    if (search !== undefined) out.push({ label: `SearchTerm=${search}`, predicate: containsTerm(search, ["name"]) });
  }
  return out;
}
