// A shared state store (--state redis://…) that cannot be reached: what a call into it rejects
// with, naming the store as lines may show it (never its password), and the one answer it becomes:
// the documented envelope with a 503 naming the store and what to do. Nothing is lost, since
// nothing was changed.
import { failure, type Reply } from "./envelope.js";

export class StoreUnavailableError extends Error {
  override name = "StoreUnavailableError";
  constructor(
    /** The store's address with its password masked. */
    readonly store: string,
    /** Why, in a few words (connection refused, no answer within 2 s). */
    readonly reason: string,
  ) {
    super(`the state store ${store} cannot be reached (${reason})`);
  }
}

/** The 503 of an unreachable store, when `error` is one; undefined for any other error. */
export function storeUnavailable(error: unknown): Reply | undefined {
  if (!(error instanceof StoreUnavailableError)) return undefined;
  return failure(503, `Service unavailable: the mock's state store ${error.store} cannot be reached; retry shortly.`);
}
