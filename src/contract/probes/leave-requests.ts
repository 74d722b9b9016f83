// Leave request list and details (Leave: View): paging, order, every filter (DepartmentId and
// CompanyId through the items' details, since list items do not show them), details against list
// items, and the assumed answers to bad dates, statuses and ids.
import { probe } from "../observations.js";
import type { Exchange } from "../exchange.js";
import type { Run } from "../run.js";
import { checkLeaveRequestDetails } from "../checks/details.js";
import {
  checkItemsMatch,
  checkOrder,
  containsTerm,
  dayOf,
  fieldEquals,
  leaveStatusPredicate,
  lookedUp,
  searchTermFrom,
  startsBetween,
  swapCase,
  type ItemMatch,
} from "../checks/filters.js";
import { pageOf } from "../checks/paging.js";
import { LIST_ORDER } from "../checks/query-filters.js";
import { notChecked, violation } from "../results.js";
import { departmentNamesOf, sample } from "./departments.js";
import { checkPaging, fetchPage } from "./lists.js";
import { checkRefusedIds } from "./refused-ids.js";

const op = "listLeaveRequests";
const UNKNOWN_ID = "00000000-0000-4000-8000-0000000001ea";

const shiftDay = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** Details of a leave request, compared with its list item when one was seen. */
export async function leaveRequestDetails(run: Run, id: string, listItem?: any): Promise<any | undefined> {
  const exchange = await run.call("getLeaveRequest", { id });
  const name = `getLeaveRequest ${id}: details agree with the list item`;
  if (!run.expectSuccess("details", name, exchange)) return undefined;
  const details = (exchange.body as any).data;
  if (listItem) run.record("details", name, checkLeaveRequestDetails(listItem, exchange.body, run.spec.leaveRequestListFields));
  run.rememberLeaveRequest(details, true);
  return details;
}

export async function probeLeaveRequests(run: Run, first: Exchange): Promise<void> {
  const remember = (items: any[]) => items.forEach((r) => run.rememberLeaveRequest(r));
  await checkPaging(run, op, first, remember, { pageSizeMax: true });
  const items: any[] = pageOf(first.body)?.data ?? [];
  await run.call(op, { query: { PageSize: "abc" }, probe: probe.notANumber(op), parameters: ["PageSize"] });

  run.record("order", `${op}: default order newest first by ${LIST_ORDER[op]}`, checkOrder(`${op} without OrderBy`, items, LIST_ORDER[op]!, "newest first"));
  for (const [value, direction] of [[0, "oldest first"], [1, "newest first"]] as const) {
    const page = await fetchPage(run, op, { OrderBy: value }, remember);
    if (page) run.record("order", `${op}: OrderBy=${value} ${direction}`, checkOrder(`OrderBy=${value}`, pageOf(page.body)!.data, LIST_ORDER[op]!, direction));
  }

  // Details of a sample, plus the ids file's request.
  for (const item of sample(items)) await leaveRequestDetails(run, item.id, item);
  if (run.ids.leaveRequestId && !items.some((i) => i.id === run.ids.leaveRequestId)) await leaveRequestDetails(run, run.ids.leaveRequestId);

  const known = [...run.leaveRequests.values()];
  const model = known[0];
  if (!model) {
    run.record("filters", `${op}: every filter`, notChecked("no leave request to take filter values from: the list is empty and --ids gives no leaveRequestId"));
  } else {
    await statusFilters(run, model, remember);
    await leaveTypeFilter(run, known, remember);
    await dateFilters(run, model, remember);
    await searchFilter(run, model, remember);
  }
  await departmentFilter(run, remember);
  await companyFilter(run, remember);

  await checkRefusedIds(run, "getLeaveRequest", UNKNOWN_ID, run.ids.otherOrganization?.leaveRequestId, "leave request");
}

type Sink = (items: any[]) => void;

async function statusFilters(run: Run, model: any, remember: Sink) {
  const name = String(model.leaveStatus);
  const cases: [string, string, string | undefined][] = [
    [`LeaveStatus by name`, name, undefined],
    [`LeaveStatus by number`, String(model.leaveStatusId), probe.statusNumber],
    [`LeaveStatus in lower case`, name.toLowerCase(), probe.statusLower],
  ];
  for (const [label, value, probeName] of cases) {
    const page = await fetchPage(run, op, { LeaveStatus: value }, remember, probeName);
    if (!page) continue;
    const found = pageOf(page.body)!;
    const check = checkItemsMatch(`LeaveStatus=${value}`, found.data, leaveStatusPredicate(value, run.spec.statusNames));
    // An empty answer although a request in that status exists is a filter that lost items.
    run.record("filters", `${op}: ${label}`, found.totalRecords === 0 ? violation(`LeaveStatus=${value} returned nothing, though ${model.id} has status ${name}`) : check);
  }
  await run.call(op, { query: { LeaveStatus: "NotAStatus" }, probe: probe.statusUnknownName, parameters: ["LeaveStatus"] });
  await run.call(op, { query: { LeaveStatus: Math.max(...run.spec.statusNames.keys()) + 1 }, probe: probe.statusOutOfRange, parameters: ["LeaveStatus"] });
}

async function leaveTypeFilter(run: Run, known: any[], remember: Sink) {
  const byName = new Map([...run.leaveTypes.values()].map((t) => [t.name, t]));
  const type = known.map((r) => byName.get(r.leaveTypeName)).find(Boolean) ?? (run.ids.leaveTypeId ? run.leaveTypes.get(run.ids.leaveTypeId) : undefined);
  if (!type) {
    run.record("filters", `${op}: LeaveTypeId`, notChecked("no leave type whose name the requests show was found in the leave type list"));
    return;
  }
  const page = await fetchPage(run, op, { LeaveTypeId: type.id }, remember);
  if (page) run.record("filters", `${op}: LeaveTypeId`, checkItemsMatch(`LeaveTypeId=${type.id} (${type.name})`, pageOf(page.body)!.data, fieldEquals("leaveTypeName", type.name)));
}

async function dateFilters(run: Run, model: any, remember: Sink) {
  const day = dayOf(model.startDate);
  if (!day) {
    run.record("filters", `${op}: StartDate and EndDate`, notChecked(`the request ${model.id} has no readable startDate`));
    return;
  }
  const from = shiftDay(day, -10);
  const to = shiftDay(day, 10);
  const range = await fetchPage(run, op, { StartDate: from, EndDate: to }, remember);
  if (range) run.record("filters", `${op}: StartDate and EndDate`, checkItemsMatch(`StartDate=${from}&EndDate=${to}`, pageOf(range.body)!.data, startsBetween(from, to)));
  const same = await fetchPage(run, op, { StartDate: day, EndDate: day }, remember, probe.sameDay);
  if (same) run.record("filters", `${op}: StartDate equal to EndDate`, checkItemsMatch(`StartDate=EndDate=${day}`, pageOf(same.body)!.data, startsBetween(day, day)));
  await run.call(op, { query: { StartDate: day }, probe: probe.startOnly, parameters: ["EndDate", "StartDate"] });
  await run.call(op, { query: { EndDate: day }, probe: probe.endOnly, parameters: ["StartDate", "EndDate"] });
  await run.call(op, { query: { StartDate: shiftDay(day, 1), EndDate: day }, probe: probe.endBeforeStart, parameters: ["EndDate", "StartDate"] });
}

async function searchFilter(run: Run, model: any, remember: Sink) {
  const term = searchTermFrom(model.employeeName) ?? searchTermFrom(model.leaveTypeName);
  if (!term) {
    run.record("filters", `${op}: SearchTerm`, notChecked("no name with a word of four letters or more to search for"));
    return;
  }
  for (const variant of ["lower", "swapped"] as const) {
    const value = variant === "lower" ? term : swapCase(term);
    const page = await fetchPage(run, op, { SearchTerm: value }, remember, probe.search("leave-requests", variant));
    if (!page) continue;
    // The term may match an email, which list items do not show: such items cannot be told.
    run.record(
      "filters",
      `${op}: SearchTerm (${variant} case)`,
      checkItemsMatch(`SearchTerm=${value}`, pageOf(page.body)!.data, containsTerm(value, ["employeeName", "leaveTypeName"], true), "they may match by the employee's email, which items do not show"),
    );
  }
}

/** Looks up the departments of up to `n` items through their details. */
async function departmentsOfItems(run: Run, items: any[], test: (departments: string[]) => ItemMatch, n = 2): Promise<Map<string, ItemMatch>> {
  const found = new Map<string, ItemMatch>();
  for (const item of items.slice(0, n)) {
    const details = await leaveRequestDetails(run, item.id, item);
    if (Array.isArray(details?.department)) found.set(item.id, test(details.department));
  }
  return found;
}

async function departmentFilter(run: Run, remember: Sink) {
  const department = run.ids.departmentId ? (run.departments.get(run.ids.departmentId) ?? run.departmentDetails.get(run.ids.departmentId)) : [...run.departments.values()].find((d) => d.membersCount > 0) ?? [...run.departments.values()][0];
  if (!department?.name) {
    run.record("filters", `${op}: DepartmentId`, notChecked("no department known (the department list needs Employee Management: View, or give departmentId in --ids)"));
    return;
  }
  const page = await fetchPage(run, op, { DepartmentId: department.id }, remember);
  if (!page) return;
  const items = pageOf(page.body)!.data as any[];
  const found = await departmentsOfItems(run, items, (names) => (names.includes(department.name) ? true : `department ${JSON.stringify(names)} (from its details)`));
  run.record("filters", `${op}: DepartmentId`, checkItemsMatch(`DepartmentId=${department.id} (${department.name})`, items, lookedUp(found), "items do not show the department and only a sample's details were looked up"));
}

async function companyFilter(run: Run, remember: Sink) {
  const companyId = run.ids.companyId ?? [...run.departmentDetails.values()].find((d) => typeof d?.companyId === "string")?.companyId;
  if (!companyId || run.access.employeeManagement.state !== "granted") {
    run.record("filters", `${op}: CompanyId`, notChecked("no company id or no department list to tell a company's departments (needs Employee Management: View)"));
    return;
  }
  const names = await departmentNamesOf(run, companyId);
  const page = await fetchPage(run, op, { CompanyId: companyId }, remember);
  if (!page) return;
  const items = pageOf(page.body)!.data as any[];
  if (!names) {
    run.record("filters", `${op}: CompanyId`, notChecked("the company's departments could not all be read from the department list"));
    return;
  }
  const found = await departmentsOfItems(run, items, (departments) =>
    departments.some((d) => names.has(d)) ? true : `department ${JSON.stringify(departments)} is none of the company's departments`,
  );
  run.record("filters", `${op}: CompanyId`, checkItemsMatch(`CompanyId=${companyId}`, items, lookedUp(found), "items do not show the company and only a sample's details were looked up"));
}
