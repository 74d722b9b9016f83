// What --state may name, judged before anything opens: nothing (memory), a directory, or a Redis
// address (redis://, rediss://; Valkey and other servers of the Redis protocol take redis:// too).
// Any other scheme is a mistake, never a folder named after the text. Pure: the settings table reads it.
import { isRedisUrl, maskPassword, parseRedisUrl, passwordOf } from "./redis/address.js";
import { quoted } from "../kernel/parse-error.js";

export { REDIS_PASSWORD_VARIABLE, STATE_FLAG } from "./state-error.js";

/** Why `text`, given as `name`, names no state (one line, its password masked), or undefined. */
export function stateAddressProblem(text: string, name: string): string | undefined {
  if (isRedisUrl(text)) {
    try {
      parseRedisUrl(text, name);
      return undefined;
    } catch (error) {
      return (error as Error).message;
    }
  }
  // A scheme of two letters or more (a Windows drive, C:, is a folder).
  if (!/^\s*[a-z][a-z0-9+.-]+:/i.test(text)) return undefined;
  return `${name} must be a directory or a Redis address, redis://host:port[/db] or rediss://host:port[/db] (Valkey and other servers of the Redis protocol take redis:// too), got ${quoted(maskPassword(text))}`;
}

/** Why a password given apart from the address (named by `from`) has no use: the state is no Redis address. */
export function strayPasswordProblem(state: string | undefined, from: string): string | undefined {
  return statePassword(state).takes ? undefined : `${from} is the password of --state redis://…, and no Redis address is given`;
}

/** Whether the state at `text` takes a password (a Redis address), and whether the address holds one. */
export function statePassword(text: string | undefined): { takes: boolean; inAddress: boolean } {
  const takes = text !== undefined && isRedisUrl(text);
  return { takes, inAddress: takes && passwordOf(text) !== undefined };
}
