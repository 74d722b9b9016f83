// Leave requests: the list (section 4.1) and the details (section 4.2).
//
// Order: the list is ordered by requestedOn (when the request was asked for), ties broken by id;
// OrderBy 1 (the default) gives newest first, 0 oldest first. requestedOn is the request's own
// timestamp, so "newest request" reads naturally, and the dataset keeps the array presorted by it.
import { dateText } from "../../data/dates.js";
import type { Dataset, LeaveRequestRecord, OrganizationData } from "../../data/dataset.js";
import { leaveRequestSelection, type LeaveRequestFilter } from "../../data/filters.js";
import { pageOfMatches } from "../../data/paging.js";
import { LEAVE_STATUS_NAMES, leaveStatusId } from "../../data/statuses.js";
import type { ResourceHandler, ResourceRequest, Schemas } from "./contract.js";
import { Refusal, answer, invalidParameter, missingParameter, organizationOf, perRecord, searchTerm } from "./query.js";

type Summary = Schemas["LeaveRequestSummary"];
type Details = Schemas["LeaveRequestDetails"];

/** The list item of a request; the details start from the same object, so both agree field for field. */
export const leaveRequestSummary = perRecord(
  (org: OrganizationData, r: LeaveRequestRecord): Summary => ({
    id: r.id,
    employeeId: r.employeeId,
    employeeName: org.index.employeeById.get(r.employeeId)?.fullName ?? "",
    leaveTypeName: org.index.leaveTypeById.get(r.leaveTypeId)?.name ?? "",
    startDate: dateText(r.startDate),
    endDate: dateText(r.endDate),
    days: r.days,
    leaveStatusId: r.statusId,
    leaveStatus: LEAVE_STATUS_NAMES[r.statusId],
    comments: r.comments,
    requestedOn: r.requestedOn,
  }),
);

export function leaveRequestDetails(org: OrganizationData, r: LeaveRequestRecord): Details {
  const employee = org.index.employeeById.get(r.employeeId);
  const department = employee ? org.index.departmentById.get(employee.departmentId) : undefined;
  return {
    ...leaveRequestSummary(org, r),
    firstName: employee?.firstName ?? "",
    lastName: employee?.lastName ?? "",
    workMode: employee?.workMode ?? "Onsite",
    jobRoles: [...(employee?.jobRoles ?? [])],
    department: department ? [department.name] : [],
    documents: r.documents.map((d) => ({ id: d.id, name: d.name, mime: d.mime, document: d.document })),
    relievers: r.relieverIds.flatMap((id) => {
      const colleague = org.index.employeeById.get(id);
      return colleague ? [{ id: colleague.id, fullName: colleague.fullName, email: colleague.email }] : [];
    }),
    handoffNote: r.handoffNote,
  } satisfies Details;
}

/** The list's filters from the query; a refusal names the parameter (design assumptions). */
export function leaveRequestFilter(query: ResourceRequest<"listLeaveRequests">["query"]): LeaveRequestFilter {
  const filter: LeaveRequestFilter = {
    companyId: query.CompanyId,
    departmentId: query.DepartmentId,
    leaveTypeId: query.LeaveTypeId,
    searchTerm: searchTerm(query.SearchTerm),
  };
  if (query.LeaveStatus !== undefined) filter.statusId = leaveStatusId(query.LeaveStatus);
  const { StartDate: startDate, EndDate: endDate } = query;
  if (startDate !== undefined && endDate === undefined) throw missingParameter("EndDate", "StartDate was given without it; send both or neither");
  if (endDate !== undefined && startDate === undefined) throw missingParameter("StartDate", "EndDate was given without it; send both or neither");
  if (startDate !== undefined && endDate !== undefined) {
    if (endDate < startDate) throw invalidParameter("EndDate", `a date on or after StartDate (${startDate}), not before it`, endDate);
    filter.startFrom = startDate;
    filter.startTo = endDate;
  }
  return filter;
}

export const listLeaveRequests: ResourceHandler<"listLeaveRequests"> = (dataset: Dataset, request) =>
  answer(() => {
    const org = organizationOf(dataset, request);
    const { PageNumber, PageSize, OrderBy } = request.query;
    const filter = leaveRequestFilter(request.query);
    const { source, keep } = leaveRequestSelection(org, filter);
    return pageOfMatches(source, keep, OrderBy === 1, PageNumber, PageSize, (r) => leaveRequestSummary(org, r)) satisfies Schemas["LeaveRequestPage"];
  });

export const getLeaveRequest: ResourceHandler<"getLeaveRequest"> = (dataset, request) =>
  answer(() => {
    const org = organizationOf(dataset, request);
    const { id } = request.path;
    // Another organisation's id is answered exactly as an unknown one.
    const record = org.index.leaveRequestById.get(id);
    if (!record) throw new Refusal("not-found", `Not found: no leave request with id ${id} in this organisation.`);
    return leaveRequestDetails(org, record);
  });
