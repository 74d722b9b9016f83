// Types of each operation's result, derived from the generated `operations` (never retyped), and
// the lookup from a request's path template to its operationId.
import type { operations } from "../../generated/api.js";
import { operationIndex, type OperationId } from "../../generated/client.js";

/** The success envelope an operation answers with (its 200 JSON body). */
export type SuccessEnvelope<Op extends OperationId> = operations[Op]["responses"][200]["content"]["application/json"];

/** What an operation method resolves to: the envelope's `data`, e.g. LeaveRequestPage. */
export type DataOf<Op extends OperationId> = SuccessEnvelope<Op>["data"];

/** The operations whose data is a page wrapper (section 2.2). */
export type ListOperationId = {
  [Op in OperationId]: DataOf<Op> extends { data: unknown[]; totalPages: number } ? Op : never;
}[OperationId];

/** The item type of a list operation, e.g. LeaveRequestSummary for listLeaveRequests. */
export type ItemOf<Op extends ListOperationId> = DataOf<Op> extends { data: (infer Item)[] } ? Item : never;

const operationIdByPath = new Map<string, OperationId>(operationIndex.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op.operationId]));

/** The operationId of a request, from its method and the path template openapi-fetch was called with. */
export function operationIdOf(method: string, schemaPath: string): OperationId | undefined {
  return operationIdByPath.get(`${method.toUpperCase()} ${schemaPath}`);
}
