// The state kept where --state says: a directory, or Redis shared by replicas (its module, and
// ioredis, loaded only then). A page's MSW handlers keep theirs in memory and never load this: their
// build puts a stand-in in its place (scripts/lib/msw-bundle.ts).
import type { StateBackend } from "./backend.js";
import type { OperatorLog } from "../kernel/operator-log.js";
import { directoryBackend } from "./directory.js";
import type { MemoryStateOptions } from "./memory.js";
import { isRedisUrl } from "./redis/address.js";
import { StateError } from "./state-error.js";

export interface BackendOptions extends MemoryStateOptions {
  journalSize: number;
  /** --state: a directory, or a Redis URL; none: memory. */
  state?: string;
  /** How lines name where `state` came from (HR_MOCK_STATE); default --state. */
  stateNamed?: string;
  /** The password of a Redis address given apart from it, and where it came from (HR_MOCK_REDIS_PASSWORD, a file). */
  password?: { password: string; from: string };
  /** One line per delivery attempt (--log), for deliveries a Redis backend's pump makes. */
  log?: (line: string) => void;
  /** Where a Redis backend tells that its store was lost and is back (default: onError's lines). */
  lifecycle?: OperatorLog["lifecycle"];
  onError(line: string): void;
}

/** The backend of a --state address (or a StateError: a password with no Redis address to go with it). */
export async function openKept(options: BackendOptions): Promise<StateBackend> {
  const state = options.state ?? "";
  if (!isRedisUrl(state)) {
    if (options.password) throw new StateError(`${options.password.from} is the password of --state redis://…, and no Redis address is given`);
    return directoryBackend(state, options);
  }
  const { openRedisBackend } = await import("./redis/index.js");
  return openRedisBackend(state, options);
}
