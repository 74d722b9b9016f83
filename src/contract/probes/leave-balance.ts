// Leave balance (Leave: View): a balance for employee and leave type pairs the run knows, and the
// documented failure for an employee outside the organisation (service-api.md 4.3 rule 2).
import { probe } from "../observations.js";
import type { Run } from "../run.js";
import { checkRefused } from "../checks/responses.js";
import { notChecked } from "../results.js";

const op = "getLeaveBalance";
const UNKNOWN_EMPLOYEE = "00000000-0000-4000-8000-0000000e4b10";

/** Up to two employee and leave type pairs: from the ids file, then from the leave requests seen. */
function pairs(run: Run): { employeeId: string; leaveType?: any; leaveTypeId: string }[] {
  const byName = new Map([...run.leaveTypes.values()].map((t) => [t.name, t]));
  const out: { employeeId: string; leaveType?: any; leaveTypeId: string }[] = [];
  if (run.ids.employeeId && run.ids.leaveTypeId) out.push({ employeeId: run.ids.employeeId, leaveTypeId: run.ids.leaveTypeId, leaveType: run.leaveTypes.get(run.ids.leaveTypeId) });
  for (const r of run.leaveRequests.values()) {
    const type = byName.get(r.leaveTypeName);
    if (type && !out.some((p) => p.employeeId === r.employeeId)) out.push({ employeeId: r.employeeId, leaveTypeId: type.id, leaveType: type });
    if (out.length >= 2) break;
  }
  return out;
}

export async function probeLeaveBalance(run: Run): Promise<void> {
  const found = pairs(run);
  if (found.length === 0) run.record("records", `${op}: a balance`, notChecked("no employee and leave type pair known (give employeeId and leaveTypeId in --ids)"));
  for (const pair of found) {
    const exchange = await run.call(op, { query: { EmployeeId: pair.employeeId, LeaveTypeId: pair.leaveTypeId } });
    if (run.expectSuccess("records", `${op}: balance of a known employee and leave type`, exchange)) {
      run.balances.push({ balance: (exchange.body as any).data, leaveType: pair.leaveType });
    }
  }

  const typeId = found[0]?.leaveTypeId ?? run.ids.leaveTypeId ?? [...run.leaveTypes.keys()][0];
  if (typeId) {
    const unknown = await run.call(op, { query: { EmployeeId: UNKNOWN_EMPLOYEE, LeaveTypeId: typeId }, probe: probe.unknownId(op) });
    run.record("details", `${op} for an employee outside the organisation is a failure`, checkRefused(unknown, "an unknown employee"));
    await run.call(op, { query: { LeaveTypeId: typeId }, probe: probe.missingRequired, parameters: ["EmployeeId"] });
  }
  const foreign = run.ids.otherOrganization;
  if (foreign?.employeeId && (foreign.leaveTypeId ?? typeId)) {
    const answer = await run.call(op, { query: { EmployeeId: foreign.employeeId, LeaveTypeId: foreign.leaveTypeId ?? typeId! }, probe: probe.foreignId(op) });
    run.record("details", `${op} for another organisation's employee is a failure`, checkRefused(answer, "another organisation's employee"));
  }
}
