// Leave types (section 4.4), in the order they were created. Without EligibilityCriteria the
// documented default 0 applies: organisation-wide types only.
import { leaveTypePredicate, type LeaveTypeFilter } from "../../data/filters.js";
import { pageOfMatches } from "../../data/paging.js";
import { leaveTypeTerms, type LeaveTypeRecord } from "../../data/records.js";
import type { Schemas } from "./contract.js";
import type { ResourceHandler, ResourceRequest } from "./contract.js";
import { answer, organizationOf, perRecord, searchTerm } from "./query.js";

type LeaveType = Schemas["LeaveType"];

export const leaveTypeItem = perRecord(
  (t: LeaveTypeRecord): LeaveType => ({
    ...leaveTypeTerms(t),
    requiresDocument: t.requiresDocument,
    requiredDocument: t.requiredDocument.map((d) => ({ id: d.id, name: d.name, document: d.document })),
    isActive: t.isActive,
    created: t.created,
    lastModified: t.lastModified,
  }),
);

export function leaveTypeFilter(query: ResourceRequest<"listLeaveTypes">["query"]): LeaveTypeFilter {
  return {
    companyId: query.CompanyId,
    searchTerm: searchTerm(query.SearchTerm),
    isActive: query.IsActive,
    eligibilityCriteria: query.EligibilityCriteria,
  };
}

export const listLeaveTypes: ResourceHandler<"listLeaveTypes"> = (dataset, request) =>
  answer(() => {
    const org = organizationOf(dataset, request);
    const { PageNumber, PageSize } = request.query;
    const keep = leaveTypePredicate(leaveTypeFilter(request.query));
    return pageOfMatches(org.leaveTypes, keep, false, PageNumber, PageSize, leaveTypeItem) satisfies Schemas["LeaveTypePage"];
  });
