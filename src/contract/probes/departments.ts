// Department list and details (Employee Management: View): paging, order, SearchTerm, Companies
// (checked through each item's details, since list items do not show their company), details
// against list items, and ids outside the organisation.
import { isSuccess, type Exchange } from "../exchange.js";
import type { Run } from "../run.js";
import { checkDepartmentDetails } from "../checks/details.js";
import { checkItemsMatch, checkOrder, checkRepeatedParameter, lookedUp, type ItemMatch } from "../checks/filters.js";
import { pageOf } from "../checks/paging.js";
import { LIST_ORDER } from "../checks/query-filters.js";
import { notChecked } from "../results.js";
import { checkNameSearch, checkPaging, fetchPage } from "./lists.js";
import { checkRefusedIds } from "./refused-ids.js";

const UNKNOWN_ID = "00000000-0000-4000-8000-00000000c0de";

/** Details of a department, fetched once and compared with its list item when there is one. */
export async function departmentDetails(run: Run, id: string): Promise<any | undefined> {
  if (run.departmentDetails.has(id)) return run.departmentDetails.get(id);
  const exchange = await run.call("getDepartment", { id });
  const name = `getDepartment ${id}: details agree with the list item`;
  if (!run.expectSuccess("details", name, exchange)) return undefined;
  const details = (exchange.body as any).data;
  run.departmentDetails.set(id, details);
  const item = run.departments.get(id);
  if (item) run.record("details", name, checkDepartmentDetails(item, exchange.body, run.spec.departmentSharedFields));
  return details;
}

/** Samples of a list: first, middle and last item, without repeats. */
export function sample<T>(items: readonly T[], n = 3): T[] {
  if (items.length <= n) return [...items];
  const picks = new Set([0, Math.floor(items.length / 2), items.length - 1]);
  return [...picks].slice(0, n).map((i) => items[i]);
}

export async function probeDepartments(run: Run, first: Exchange): Promise<void> {
  const op = "listDepartments";
  const remember = (items: any[]) => items.forEach((d) => typeof d?.id === "string" && run.departments.set(d.id, d));
  await checkPaging(run, op, first, remember);
  const items: any[] = pageOf(first.body)?.data ?? [];

  run.record("order", `${op}: default order newest first by ${LIST_ORDER[op]}`, checkOrder(`${op} without OrderBy`, items, LIST_ORDER[op]!, "newest first"));
  for (const [value, direction] of [[0, "oldest first"], [1, "newest first"]] as const) {
    const page = await fetchPage(run, op, { OrderBy: value }, remember);
    if (page) run.record("order", `${op}: OrderBy=${value} ${direction}`, checkOrder(`OrderBy=${value}`, pageOf(page.body)!.data, LIST_ORDER[op]!, direction));
  }

  // Details: a sample of the list, plus the department of the ids file.
  const ids = new Set(sample(items).map((d) => d.id));
  if (run.ids.departmentId) ids.add(run.ids.departmentId);
  for (const id of ids) await departmentDetails(run, id);

  // Companies: every returned department, looked up through its details, belongs to one of them.
  const companies = [...new Set([run.ids.companyId, ...[...run.departmentDetails.values()].map((d) => d?.companyId)].filter((c): c is string => typeof c === "string"))];
  if (companies.length === 0) run.record("filters", `${op}: Companies`, notChecked("no company id known: no department details and no companyId in --ids"));
  // One company, the second alone, then both: the two-company list must hold the two lists added up.
  const selections = companies.length >= 2 ? [[companies[0]], [companies[1]], companies.slice(0, 2)] : [companies.slice(0, 1)];
  const totals = new Map<string, number>();
  for (const selection of selections.filter((s) => s.length > 0)) {
    const query = { Companies: selection };
    const page = await fetchPage(run, op, query, remember);
    if (!page) continue;
    totals.set(selection.join("&"), pageOf(page.body)!.totalRecords);
    const found = new Map<string, ItemMatch>();
    for (const item of pageOf(page.body)!.data as any[]) {
      const details = run.departmentDetails.get(item?.id) ?? (found.size < 3 ? await departmentDetails(run, item.id) : undefined);
      if (details) found.set(item.id, selection.includes(details.companyId) ? true : `companyId ${details.companyId} (from its details)`);
    }
    const which = selection.length === 2 ? "two companies" : selection[0] === companies[0] ? "one company" : "the second company";
    run.record("filters", `${op}: Companies=${which}`, checkItemsMatch(`Companies=${selection.join("&Companies=")}`, pageOf(page.body)!.data, lookedUp(found), "their details were not looked up"));
  }
  const pair = companies.slice(0, 2);
  const together = totals.get(pair.join("&"));
  const alone = pair.map((value) => ({ value, totalRecords: totals.get(value) }));
  if (pair.length === 2 && together !== undefined && alone.every((a) => a.totalRecords !== undefined)) {
    run.record("filters", `${op}: Companies repeated, every value read`, checkRepeatedParameter("Companies", alone as { value: string; totalRecords: number }[], together));
  }

  // SearchTerm: a part of a name, found in every returned name.
  await checkNameSearch(run, op, items, "department", "departments", remember);
  await checkRefusedIds(run, "getDepartment", UNKNOWN_ID, run.ids.otherOrganization?.departmentId, "department");
}

/** Names of a company's departments, from the list filtered by Companies; undefined when not all were read. */
export async function departmentNamesOf(run: Run, companyId: string, maxPages = 4): Promise<Set<string> | undefined> {
  const names = new Set<string>();
  for (let pageNumber = 1; pageNumber <= maxPages; pageNumber++) {
    const exchange = await run.call("listDepartments", { query: { Companies: [companyId], PageNumber: pageNumber } });
    const page = isSuccess(exchange) ? pageOf(exchange.body) : undefined;
    if (!page) return undefined;
    page.data.forEach((d: any) => names.add(d?.name));
    if (pageNumber >= page.totalPages) return names;
  }
  return undefined;
}
