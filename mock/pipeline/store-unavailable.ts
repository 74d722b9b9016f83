// The answer while the state store (--state redis://…) cannot be reached: the documented envelope
// with a 503, naming the store (never its password) and what to do. Every call into the state that
// cannot reach it rejects with a StoreUnavailableError; this is the one place it becomes an answer.
import { failure, type Reply } from "../kernel/envelope.js";
import { StoreUnavailableError } from "../kernel/store-unavailable.js";

/** The 503 of an unreachable store, when `error` is one; undefined for any other error. */
export function storeUnavailable(error: unknown): Reply | undefined {
  if (!(error instanceof StoreUnavailableError)) return undefined;
  return failure(503, `Service unavailable: the mock's state store ${error.store} cannot be reached; retry shortly.`);
}
