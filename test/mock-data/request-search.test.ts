// The leave request search behind SearchTerm: the requests of the employees and leave types a term
// names, gathered from where they stand in the list, must be what testing every request finds, in the
// list's order, and must follow requests added and decided after the first search.
import { describe, expect, it } from "vitest";
import { leaveRequestSelection, type LeaveRequestFilter } from "../../mock/data/filters.js";
import { addLeaveRequest, approveLeaveRequest } from "../../mock/data/mutations.js";
import type { OrganizationData } from "../../mock/data/organization.js";
import { freshDataset } from "./fixture.js";

/** The ids a filter selects, through the selection the list uses. */
function selected(org: OrganizationData, filter: LeaveRequestFilter): string[] {
  const { source, keep } = leaveRequestSelection(org, filter);
  return source.filter((r) => keep === null || keep(r)).map((r) => r.id);
}

/** The same by testing every request of the list against the texts it is searched in. */
function scanned(org: OrganizationData, { searchTerm = "", statusId }: LeaveRequestFilter): string[] {
  const term = searchTerm.toLowerCase();
  return org.leaveRequests
    .filter((r) => {
      const e = org.index.employeeById.get(r.employeeId)!;
      const t = org.index.leaveTypeById.get(r.leaveTypeId)!;
      return (statusId === undefined || r.statusId === statusId) && [e.fullName, e.email, t.name].some((s) => s.toLowerCase().includes(term));
    })
    .map((r) => r.id);
}

describe("leave requests by SearchTerm", () => {
  const ds = freshDataset(1, 3);
  const org = () => ds.organizations[0];
  const someone = org().employees[5];
  const aType = org().leaveTypes[0];
  // [name, { given: the filter }]: a few names, one email, one type's name, a term many match, none.
  const cases: [string, { given: LeaveRequestFilter }][] = [
    ["one employee's full name", { given: { searchTerm: someone.fullName } }],
    ["one employee's email domain part (everyone)", { given: { searchTerm: someone.email.split("@")[1] } }],
    ["a leave type's name (that type's requests and its namesakes')", { given: { searchTerm: aType.name } }],
    ["a common pair of letters (many employees)", { given: { searchTerm: "an" } }],
    ["a rare pair of letters", { given: { searchTerm: "qu" } }],
    ["a term with a status", { given: { searchTerm: "an", statusId: 2 } }],
    ["a text nobody has", { given: { searchTerm: "zzqx" } }],
  ];
  it.each(cases)("%s", (_name, { given }) => {
    expect(selected(org(), given), `requests for ${JSON.stringify(given)}`).toEqual(scanned(org(), given));
  });

  it("finds a request added and then decided after a first search, in its place in the list", () => {
    const term = someone.fullName.toLowerCase();
    expect(selected(org(), { searchTerm: term })).toEqual(scanned(org(), { searchTerm: term }));
    const added = addLeaveRequest(ds, org().id, { employeeId: someone.id });
    if (!added.ok) throw new Error(`adding a request failed: ${added.message}`);
    expect(selected(org(), { searchTerm: term }), "the new request among the employee's").toContain(added.record.id);
    expect(selected(org(), { searchTerm: term }), "in the list's order").toEqual(scanned(org(), { searchTerm: term }));
    const approved = approveLeaveRequest(ds, org().id, added.record.id);
    if (!approved.ok) throw new Error(`approving failed: ${approved.message}`);
    expect(selected(org(), { searchTerm: term, statusId: approved.record.statusId }), "found under its new status").toContain(added.record.id);
    expect(selected(org(), { searchTerm: "an" }), "a broad term after the changes").toEqual(scanned(org(), { searchTerm: "an" }));
  });
});
