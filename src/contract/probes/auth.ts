// Requests without a usable key: every operation without one, two lists with an unknown key, one
// with a malformed header. Each must fail with no data (service-api.md 5: every request carries a key).
import { probe } from "../observations.js";
import type { Auth } from "../exchange.js";
import type { OperationId } from "../openapi.js";
import type { QueryInput, Run } from "../run.js";
import { checkRefused } from "../checks/responses.js";

const SOME_ID = "00000000-0000-4000-8000-0000000a0001";

function requestFor(run: Run, op: OperationId): { id?: string; query?: QueryInput } {
  const info = run.spec.operation(op);
  const id = info.pathParams.length ? SOME_ID : undefined;
  // Required query parameters get well-formed values, so only the key is wrong.
  const query = op === "getLeaveBalance" ? { EmployeeId: SOME_ID, LeaveTypeId: SOME_ID } : undefined;
  return { id, query };
}

export async function probeAuth(run: Run): Promise<void> {
  const cases: [OperationId, Auth, string][] = [
    ...run.spec.operations.map((o): [OperationId, Auth, string] => [o.operationId, "none", probe.noKey(o.operationId)]),
    ["listLeaveRequests", "unknown-key", probe.unknownKey("listLeaveRequests")],
    ["listDepartments", "unknown-key", probe.unknownKey("listDepartments")],
    ["listLeaveTypes", "malformed", probe.malformedKey("listLeaveTypes")],
  ];
  for (const [op, auth, probeName] of cases) {
    const request = requestFor(run, op);
    const exchange = await run.call(op, { ...request, auth, probe: probeName });
    const what = auth === "none" ? "no key" : auth === "unknown-key" ? "an unknown key" : "a malformed Authorization header";
    run.record("auth", `${op} with ${what} is refused`, checkRefused(exchange, what));
  }
}
