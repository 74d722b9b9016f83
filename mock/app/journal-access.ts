// A world's journal in process: requests(filter?) and verify(filter, { times, within }), the same
// functions on startMock's RunningMock (the demo keys' world), on each sandbox createSandbox gives,
// and on the MSW handlers' array (their in-process world). They read the journal directly, so
// asking is not itself recorded, and `within` is told of each request as it is recorded.
import type { SpecOperation } from "../kernel/spec.js";
import { checkFilter, listRequests, type RecordedRequest, type RequestFilter } from "../worlds/journal/requests.js";
import { verifyJournal, type VerifyOptions } from "../worlds/journal/verify.js";
import type { World } from "../worlds/world.js";
import type { PactFile, PactOptions } from "../pact/export.js";

export type { QueryValue, RecordedRequest, RequestFilter } from "../worlds/journal/requests.js";
export { VerificationError, type Times, type VerifyOptions } from "../worlds/journal/verify.js";
export type { PactFile, PactOptions } from "../pact/export.js";

export interface JournalAccess {
  /**
   * The requests the world received that match `filter`, newest first (the control API's own calls
   * only when the filter asks for them). A mistake in the filter throws a MockOptionError.
   */
  requests(filter?: RequestFilter): Promise<RecordedRequest[]>;
  /**
   * Resolves with the matching requests when their number is what `times` says (default at least
   * one), at once or as they arrive within `within` milliseconds; rejects with a VerificationError
   * stating expected against actual and the near misses otherwise.
   */
  verify(filter: RequestFilter, options?: VerifyOptions): Promise<RecordedRequest[]>;
  /**
   * The world's journal as a Pact specification V4 file (what `hr-mock export --pact` writes): one
   * interaction per operation, caller, query names and status, the response's matching rules read
   * from the OpenAPI schemas, no API key written. Node only (it reads the bundled document).
   */
  pact(options: PactOptions): Promise<PactFile>;
}

/** A world and the operations its entries name. */
export interface JournalSource {
  world: World;
  operations: ReadonlyMap<string, SpecOperation>;
}

/**
 * Access to a world's journal. `current` is what is running now; `ready` waits for it (the MSW
 * handlers build their world on first use: until then nothing was received, and verify waits).
 */
export function journalAccess(current: () => JournalSource | undefined, ready: () => Promise<JournalSource> = async () => current()!): JournalAccess {
  return {
    async requests(filter) {
      const source = current();
      if (!source) return [];
      const checked = checkFilter(filter, source.operations);
      return listRequests(await source.world.journal.view(), checked, source.operations).requests;
    },
    async verify(filter, options) {
      const { world, operations } = current() ?? (await ready());
      return verifyJournal(world.journal, filter, options, operations);
    },
    async pact(options) {
      const { world, operations } = current() ?? (await ready());
      // The exporter and the document load when a pact is first asked for.
      const { journalPact } = await import("../pact/journal-pact.js");
      return journalPact(world, checkFilter(undefined, operations), operations, options);
    },
  };
}
