// Departments (sections 4.5 and 4.6), ordered by created (then id): OrderBy 1, the default,
// newest first. The list shows heads as `leads` with first names, the details as `leaders` with
// full names; every other field comes from the same function.
import { departmentPredicate, type DepartmentFilter } from "../../data/filters.js";
import type { OrganizationData } from "../../data/organization.js";
import { pageOfMatches } from "../../data/paging.js";
import type { DepartmentRecord } from "../../data/records.js";
import type { ResourceHandler, ResourceRequest, Schemas } from "./contract.js";
import { Refusal, answer, organizationOf, perRecord, searchTerm } from "./query.js";

type Summary = Schemas["DepartmentSummary"];
type Details = Schemas["DepartmentDetails"];

export function departmentBase(d: DepartmentRecord): Schemas["DepartmentBase"] {
  return { id: d.id, name: d.name, created: d.created, status: d.status, unitsCount: d.units.length, membersCount: d.membersCount };
}

export const departmentSummary = perRecord(
  (org: OrganizationData, d: DepartmentRecord): Summary => ({
    ...departmentBase(d),
    leads: d.leadIds.flatMap((id) => {
      const head = org.index.employeeById.get(id);
      return head ? [{ id, name: head.firstName }] : [];
    }),
  }),
);

export function departmentDetails(org: OrganizationData, d: DepartmentRecord): Details {
  return {
    ...departmentBase(d),
    leaders: d.leadIds.flatMap((id) => {
      const head = org.index.employeeById.get(id);
      return head ? [{ id, name: head.fullName }] : [];
    }),
    description: d.description,
    companyId: d.companyId,
  } satisfies Details;
}

export function departmentFilter(query: ResourceRequest<"listDepartments">["query"]): DepartmentFilter {
  return { searchTerm: searchTerm(query.SearchTerm), companyIds: query.Companies };
}

export const listDepartments: ResourceHandler<"listDepartments"> = (dataset, request) =>
  answer(() => {
    const org = organizationOf(dataset, request);
    const { PageNumber, PageSize, OrderBy } = request.query;
    const keep = departmentPredicate(departmentFilter(request.query));
    return pageOfMatches(org.departments, keep, OrderBy === 1, PageNumber, PageSize, (d) => departmentSummary(org, d)) satisfies Schemas["DepartmentPage"];
  });

export const getDepartment: ResourceHandler<"getDepartment"> = (dataset, request) =>
  answer(() => {
    const org = organizationOf(dataset, request);
    const { id } = request.path;
    const department = org.index.departmentById.get(id);
    if (!department) throw new Refusal("not-found", `Not found: no department with id ${id} in this organisation.`);
    return departmentDetails(org, department);
  });
