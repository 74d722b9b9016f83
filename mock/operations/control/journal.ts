// The control API's journal operations (the Journal tag): the requests the caller's world received,
// clearing and verifying them (as verify() in process), and the coverage report from the same
// recording. What the document cannot say (an operationId the mock lacks) is refused here.
import { operationResult, refuse } from "../../kernel/results.js";
import type { SpecOperation } from "../../kernel/spec.js";
import { declaredOperations, worldCoverage } from "../../worlds/journal/coverage.js";
import { checkFilter, listRequests, type RequestFilter } from "../../worlds/journal/requests.js";
import { VerificationError, verifyJournal, type VerifyOptions } from "../../worlds/journal/verify.js";
import { MockOptionError } from "../../kernel/option-error.js";
import type { OperationResult, OperationTable } from "../operation.js";
import { andThen, type Awaitable } from "../../kernel/awaitable.js";
import { noSandbox, type World, type Worlds } from "../../worlds/world.js";
import type { components } from "../../../generated/control-api.js";

/** What POST /_mock/requests/verify answers, as the control document describes it. */
type VerifyResult = components["schemas"]["VerifyResult"];

export function journalOperations(worlds: Worlds, operations: ReadonlyMap<string, SpecOperation>): OperationTable {
  const declared = declaredOperations([...operations.values()]);
  return {
    listRequests: ({ world: caller, query }) => {
      const sandboxId = query.sandbox as string | undefined;
      if (sandboxId === undefined) return listIn(caller, query);
      return andThen(worlds.visible(caller, sandboxId), (sandbox) => (sandbox ? listIn(sandbox, query) : operationResult(noSandbox(sandboxId, "sandbox"))));
    },
    // POST /_mock/requests/verify: verify() over HTTP, its message word for word (the Playwright fixture's remote sandboxes ask it).
    verifyRequests: ({ world, body }) => {
      const { filter, ...options } = body as { filter: RequestFilter } & VerifyOptions;
      return verifyJournal(world.journal, filter, options, operations).then(
        (requests): OperationResult => ({ ok: true, data: { held: true, actual: requests.length, message: null, nearMisses: [], requests } satisfies VerifyResult }),
        (error: unknown): OperationResult => {
          if (error instanceof VerificationError) return { ok: true, data: { held: false, actual: error.actual, message: error.message, nearMisses: [...error.nearMisses], requests: [] } satisfies VerifyResult };
          if (error instanceof MockOptionError) return operationResult(refuse("invalid", error.message));
          throw error;
        },
      );
    },
    clearRequests: ({ world }) => andThen(world.journal.clear(), (cleared) => ({ ok: true, data: { cleared } })),
    getCoverage: ({ world }) => andThen(worldCoverage(world, declared), (data) => ({ ok: true, data })),
  };

  function listIn(world: World, query: Record<string, unknown>): Awaitable<OperationResult> {
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
    if (query.format === "pact") {
      const consumer = query.consumer as string | undefined;
      if (consumer === undefined) return operationResult(refuse("invalid", "format=pact needs the consumer's name", "consumer"));
      return pactOfWorld(world, filter, consumer);
    }
    return andThen(world.journal.view(), (view) => ({ ok: true, data: listRequests(view, filter, operations, query.limit as number) }));
  }

  /** The world's journal as a Pact file; the exporter and the document load when one is first asked for. */
  async function pactOfWorld(world: World, filter: ReturnType<typeof checkFilter>, consumer: string): Promise<OperationResult> {
    const { journalPact, PactDocumentUnavailable } = await import("../../pact/journal-pact.js");
    try {
      return { ok: true, data: await journalPact(world, filter, operations, { consumer }) };
    } catch (error) {
      // The handlers in a browser page have no file to read the schemas from.
      if (error instanceof PactDocumentUnavailable) return operationResult(refuse("unavailable", error.message));
      throw error;
    }
  }
}
