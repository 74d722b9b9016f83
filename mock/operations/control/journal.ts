// The control API's journal operations (the Journal tag): the requests the caller's world received,
// clearing them, and the coverage report made from the same recording. Parameters arrive validated
// against the control document; what it cannot say (an operationId the mock does not have) is
// refused here.
import { operationResult, refuse } from "../../kernel/results.js";
import type { SpecOperation } from "../../kernel/spec.js";
import { declaredOperations, worldCoverage } from "../../worlds/journal/coverage.js";
import { checkFilter, listRequests } from "../../worlds/journal/requests.js";
import type { OperationTable } from "../operation.js";
import { andThen } from "../../kernel/awaitable.js";

export function journalOperations(operations: ReadonlyMap<string, SpecOperation>): OperationTable {
  const declared = declaredOperations([...operations.values()]);
  return {
    listRequests: ({ world, query }) => {
      const operationId = query.operationId as string | undefined;
      if (operationId !== undefined && !operations.has(operationId)) {
        return operationResult(refuse("invalid", `no operation ${JSON.stringify(operationId.slice(0, 100))}; the operations are ${[...operations.keys()].join(", ")}`, "operationId"));
      }
      const filter = checkFilter(
        {
          operationId,
          status: query.status as number | undefined,
          unmatched: query.unmatched as boolean | undefined,
          since: query.since as string | undefined,
          control: query.control === true,
        },
        operations,
      );
      return andThen(world.journal.view(), (view) => ({ ok: true, data: listRequests(view, filter, operations, query.limit as number) }));
    },
    clearRequests: ({ world }) => andThen(world.journal.clear(), (cleared) => ({ ok: true, data: { cleared } })),
    getCoverage: ({ world }) => andThen(worldCoverage(world, declared), (data) => ({ ok: true, data })),
  };
}
