// Details agree with list items: a leave request's details repeat every field of its list item with
// equal values (service-api.md 2.4: "all fields of 2.3"); a department's details agree on the fields
// both show, and its leaders are the list's leads with full names (2.7, 2.8). Each disagreement is a
// Problem of rule "details" at the field of the details at fault.
import { fromProblems, type Finding, type Problem } from "../results.js";

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

const problem = (field: string, message: string): Problem => ({ rule: "details", pointer: field ? `/data/${field}` : "/data", message });

function compareFields(listItem: any, details: any, fields: readonly string[]): Problem[] {
  const problems: Problem[] = [];
  for (const field of fields) {
    if (!(field in listItem)) continue;
    if (!(field in details)) problems.push(problem(field, `details lack ${field}`));
    else if (!sameValue(listItem[field], details[field])) {
      problems.push(problem(field, `${field} is ${JSON.stringify(listItem[field])} in the list but ${JSON.stringify(details[field])} in the details`));
    }
  }
  return problems;
}

const dataOf = (body: any) => (body && typeof body === "object" ? body.data : undefined);
const NO_DATA = problem("", "the details answer carries no data object");

/** `fields`: the list item's fields, from the spec's LeaveRequestSummary. */
export function leaveRequestDetailProblems(listItem: any, detailsBody: unknown, fields: readonly string[]): Problem[] {
  const details = dataOf(detailsBody);
  if (!details || typeof details !== "object") return [NO_DATA];
  return compareFields(listItem, details, fields);
}

export function checkLeaveRequestDetails(listItem: any, detailsBody: unknown, fields: readonly string[]): Finding {
  return fromProblems(leaveRequestDetailProblems(listItem, detailsBody, fields).map((p) => p.message), `details repeat the list item's ${fields.length} fields`);
}

export const firstWord = (name: string) => name.trim().split(/\s+/)[0] ?? "";

/** `sharedFields`: the fields both department schemas define (leads and leaders aside). */
export function departmentDetailProblems(listItem: any, detailsBody: unknown, sharedFields: readonly string[]): Problem[] {
  const details = dataOf(detailsBody);
  if (!details || typeof details !== "object") return [NO_DATA];
  const problems = compareFields(listItem, details, sharedFields);
  const leads: any[] = Array.isArray(listItem.leads) ? listItem.leads : [];
  const leaders: any[] = Array.isArray(details.leaders) ? details.leaders : [];
  const leaderById = new Map(leaders.map((l) => [l?.id, l]));
  for (const lead of leads) {
    const leader = leaderById.get(lead?.id);
    if (!leader) problems.push(problem("leaders", `lead ${lead?.id} is not among the details' leaders`));
    else if (typeof leader.name !== "string" || firstWord(leader.name) !== lead.name) {
      problems.push(problem("leaders", `lead name ${JSON.stringify(lead.name)} is not the first word of leader name ${JSON.stringify(leader.name)}`));
    }
  }
  if (leaders.length !== leads.length) problems.push(problem("leaders", `${leads.length} leads in the list but ${leaders.length} leaders in the details`));
  return problems;
}

export function checkDepartmentDetails(listItem: any, detailsBody: unknown, sharedFields: readonly string[]): Finding {
  const leads = Array.isArray(listItem?.leads) ? listItem.leads.length : 0;
  return fromProblems(departmentDetailProblems(listItem, detailsBody, sharedFields).map((p) => p.message), `details agree on ${sharedFields.join(", ")} and ${leads} lead(s)`);
}
