// The state kept where --state says: a directory, or Redis shared by replicas (its module, and
// ioredis, loaded only then); a password given apart from a Redis address is refused here. A page's
// MSW handlers never load this: their build puts a stand-in in its place (scripts/lib/msw-bundle.ts).
import type { BackendOptions, StateBackend } from "./backend.js";
import { directoryBackend } from "./directory.js";
import { isRedisUrl } from "./redis/address.js";
import { strayPasswordProblem } from "./address.js";
import { StateError } from "./state-error.js";

/** The backend of a --state address (or a StateError: a password with no Redis address to go with it). */
export async function openKept(options: BackendOptions): Promise<StateBackend> {
  const state = options.state ?? "";
  const stray = options.password && strayPasswordProblem(state, options.password.from);
  if (stray) throw new StateError(stray);
  if (!isRedisUrl(state)) return directoryBackend(state, options);
  const { openRedisBackend } = await import("./redis/index.js");
  return openRedisBackend(state, options);
}
