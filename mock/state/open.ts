// The one place the backend is chosen, from --state: none keeps the state in memory, a redis://
// or rediss:// URL in Redis shared by replicas (its module, and ioredis, loaded only then), anything
// else is a directory. What the rest of the mock gets is a StateBackend (backend.ts), whichever.
import type { StateBackend } from "./backend.js";
import type { OperatorLog } from "../kernel/operator-log.js";
import { directoryBackend } from "./directory.js";
import { memoryBackend, type MemoryStateOptions } from "./memory.js";
import { isRedisUrl } from "./redis/address.js";
import { StateError } from "./state-error.js";

export interface BackendOptions extends MemoryStateOptions {
  journalSize: number;
  /** --state: a directory, or a Redis URL; none: memory. */
  state: string | undefined;
  /** The password of a Redis address given apart from it, and where it came from (HR_MOCK_REDIS_PASSWORD, a file). */
  password?: { password: string; from: string };
  /** One line per delivery attempt (--log), for deliveries a Redis backend's pump makes. */
  log?: (line: string) => void;
  /** Where a Redis backend tells that its store was lost and is back (default: onError's lines). */
  lifecycle?: OperatorLog["lifecycle"];
  onError(line: string): void;
}

export async function openBackend(options: BackendOptions): Promise<StateBackend> {
  const { state } = options;
  if (options.password && !(state !== undefined && isRedisUrl(state))) throw new StateError(`${options.password.from} is the password of --state redis://…, and no Redis address is given`);
  if (state === undefined) return memoryBackend(options);
  if (!isRedisUrl(state)) return directoryBackend(state, options);
  const { openRedisBackend } = await import("./redis/index.js");
  return openRedisBackend(state, options);
}
