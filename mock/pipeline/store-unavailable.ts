// The answer while a shared state store (--state redis://…) cannot be reached: the documented
// envelope with a 503, naming the store (never its password) and what to do.
import { failure, type Reply } from "../kernel/envelope.js";

export function storeUnavailable(store: string): Reply {
  return failure(503, `Service unavailable: the mock's state store ${store} cannot be reached; retry shortly.`);
}
