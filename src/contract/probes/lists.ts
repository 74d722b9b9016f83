// Paging of one list, the same for every list: the first page with the defaults, a second page, a
// PageSize honoured, and the assumed limits (largest page size, page numbers below 1, a page past
// the end).
import { parameters } from "../../../generated/facts.js";
import { probe } from "../observations.js";
import type { Exchange } from "../exchange.js";
import type { OperationId } from "../openapi.js";
import type { QueryInput, Run } from "../run.js";
import { checkItemsMatch, containsTerm, searchTermFrom, swapCase } from "../checks/filters.js";
import { checkPageCoherence, checkPagesAgree, pageOf, secondPagePlan } from "../checks/paging.js";
import { notChecked } from "../results.js";

/** Every item of a list answer, for the caller to remember. */
export type ItemSink = (items: any[]) => void;

/** A page asked for with `query`: its answer validated, its paging checked; the exchange when it succeeded. */
export async function fetchPage(run: Run, op: OperationId, query: QueryInput, sink?: ItemSink, probeName?: string): Promise<Exchange | undefined> {
  const exchange = await run.call(op, { query, probe: probeName });
  const name = `${run.label(op, { query })}: page coherent`;
  if (!run.expectSuccess("paging", name, exchange)) return undefined;
  const asked = { pageNumber: numberOf(query.PageNumber), pageSize: numberOf(query.PageSize) };
  run.record("paging", name, checkPageCoherence(exchange.body, asked, run.spec.defaultPageSize));
  sink?.(pageOf(exchange.body)?.data ?? []);
  return exchange;
}

const numberOf = (v: unknown) => (v === undefined ? undefined : Number(v));

/**
 * The first page (no paging parameters) of a list, recorded as the probe the other checks compare
 * with. Returns the exchange whether or not it succeeded: the caller decides access from it.
 */
export async function firstPage(run: Run, op: OperationId): Promise<Exchange> {
  return run.call(op, { probe: probe.firstPage(op) });
}

export async function checkPaging(run: Run, op: OperationId, first: Exchange, sink?: ItemSink, options: { pageSizeMax?: boolean } = {}): Promise<void> {
  const name = `${op}: first page with the defaults (PageNumber 1, PageSize ${run.spec.defaultPageSize})`;
  if (!run.expectSuccess("paging", name, first)) return;
  run.record("paging", name, checkPageCoherence(first.body, {}, run.spec.defaultPageSize));
  const page = pageOf(first.body);
  if (!page) return;
  sink?.(page.data);
  const total = page.totalRecords;

  const plan = secondPagePlan(total, run.spec.defaultPageSize);
  const pagesName = `${op}: two pages share no item`;
  if (!plan) run.record("paging", pagesName, notChecked(`the list holds ${total} item(s), fewer than two pages' worth`));
  else {
    const pageOne = plan.pageSize === undefined ? first : await fetchPage(run, op, { PageSize: plan.pageSize }, sink);
    const pageTwo = await fetchPage(run, op, { PageNumber: 2, PageSize: plan.pageSize }, sink, op === "listEmployees" ? probe.employeesPage2 : undefined);
    if (pageOne && pageTwo) run.record("paging", pagesName, checkPagesAgree(pageOne.body, pageTwo.body));
  }

  // A small page size must be honoured even when the list is short (one not used above).
  await fetchPage(run, op, { PageSize: plan?.pageSize === 3 ? 2 : 3 }, sink);
  const { minimum, maximum } = parameters.PageSize;
  if (options.pageSizeMax) await fetchPage(run, op, { PageSize: maximum }, sink, probe.pageSizeMax(op));

  // Assumed limits: answers are validated against the spec, the assumptions judge the statuses.
  await run.call(op, { query: { PageSize: maximum + 1 }, probe: probe.pageSizeAbove(op), parameters: ["PageSize"] });
  await run.call(op, { query: { PageSize: minimum - 1 }, probe: probe.pageSizeZero(op), parameters: ["PageSize"] });
  await run.call(op, { query: { PageNumber: 0 }, probe: probe.pageNumberZero(op), parameters: ["PageNumber"] });
  await run.call(op, { query: { PageNumber: page.totalPages + 1 }, probe: probe.pastEnd(op) });
}

/**
 * SearchTerm with a word of an item's name, in lower and in swapped case: every item answered has
 * it in its name. `what` names the items in the line said when none has a word to search for.
 */
export async function checkNameSearch(run: Run, op: OperationId, items: any[], what: string, area: "departments" | "leave-types", sink?: ItemSink): Promise<void> {
  const term = searchTermFrom(items.find((item) => searchTermFrom(item?.name))?.name);
  if (!term) {
    run.record("filters", `${op}: SearchTerm`, notChecked(`no ${what} name with a word of four letters or more to search for`));
    return;
  }
  for (const variant of ["lower", "swapped"] as const) {
    const value = variant === "lower" ? term : swapCase(term);
    const page = await fetchPage(run, op, { SearchTerm: value }, sink, probe.search(area, variant));
    if (page) run.record("filters", `${op}: SearchTerm (${variant} case)`, checkItemsMatch(`SearchTerm=${value}`, pageOf(page.body)!.data, containsTerm(value, ["name"])));
  }
}
