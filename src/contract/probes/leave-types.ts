// Leave type list (Leave: View): paging, EligibilityCriteria, IsActive, SearchTerm and CompanyId.
import { probe } from "../observations.js";
import type { Exchange } from "../exchange.js";
import type { Run } from "../run.js";
import { checkItemsMatch, fieldEquals } from "../checks/filters.js";
import { pageOf } from "../checks/paging.js";
import { notChecked } from "../results.js";
import { checkNameSearch, checkPaging, fetchPage } from "./lists.js";

/** The eligibility values, from the spec's EligibilityCriteria enum. */
const criteriaOf = (run: Run): number[] => run.spec.doc.components.schemas.EligibilityCriteria.enum;

export async function probeLeaveTypes(run: Run, first: Exchange): Promise<void> {
  const op = "listLeaveTypes";
  const remember = (items: any[]) => items.forEach((t) => typeof t?.id === "string" && run.leaveTypes.set(t.id, t));
  await checkPaging(run, op, first, remember);

  for (const k of criteriaOf(run)) {
    const page = await fetchPage(run, op, { EligibilityCriteria: k, PageSize: 50 }, remember, probe.eligibility(k));
    if (page) run.record("filters", `${op}: EligibilityCriteria=${k}`, checkItemsMatch(`EligibilityCriteria=${k}`, pageOf(page.body)!.data, fieldEquals("eligibilityCriteria", k)));
  }

  for (const value of [true, false]) {
    const page = await fetchPage(run, op, { IsActive: value }, remember);
    if (page) run.record("filters", `${op}: IsActive=${value}`, checkItemsMatch(`IsActive=${value}`, pageOf(page.body)!.data, fieldEquals("isActive", value)));
  }

  const items: any[] = pageOf(first.body)?.data ?? [];
  await checkNameSearch(run, op, items, "leave type", "leave-types", remember);

  const companyId = run.ids.companyId ?? [...run.departmentDetails.values()].find((d) => typeof d?.companyId === "string")?.companyId;
  if (!companyId) run.record("filters", `${op}: CompanyId`, notChecked("no company id known: no department details and no companyId in --ids"));
  else {
    // Items do not show the companies a type applies to: the assumption compares totals instead.
    const page = await fetchPage(run, op, { CompanyId: companyId, EligibilityCriteria: 0, PageSize: 50 }, remember, probe.companyOrgWide);
    if (page) run.record("filters", `${op}: CompanyId with EligibilityCriteria=0`, checkItemsMatch(`CompanyId=…&EligibilityCriteria=0`, pageOf(page.body)!.data, fieldEquals("eligibilityCriteria", 0)));
  }
}
