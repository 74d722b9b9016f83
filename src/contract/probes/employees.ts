// The employee list, known only from the provider's sample: paging and the Status values.
import { probe } from "../observations.js";
import type { Exchange } from "../exchange.js";
import type { Run } from "../run.js";
import { notChecked } from "../results.js";
import { checkPaging, fetchPage } from "./lists.js";

export async function probeEmployees(run: Run, first: Exchange): Promise<void> {
  const op = "listEmployees";
  await checkPaging(run, op, first);
  const statuses: string[] = run.spec.doc.components.schemas.EmployeeStatus.enum;
  for (const status of statuses) {
    // The provider shows Active only; the others are the package's assumption.
    await fetchPage(run, op, { Status: status }, undefined, status === "Active" ? undefined : probe.employeeStatus(status));
  }
  run.record("filters", `${op}: Status`, notChecked("employee items do not show a status, so the filter's effect cannot be seen"));
}
