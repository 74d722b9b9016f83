// A shared state store (--state redis://…) that cannot be reached: what a call into it rejects
// with, naming the store as lines may show it (never its password). The pipeline answers it with a
// 503 envelope naming the store; nothing is lost, since nothing was changed.

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
