// The Lua scripts (lua/) registered on a connection: each is sent once, then called by its digest
// (EVALSHA; ioredis sends the source again when a restarted server has forgotten it). A call's
// answer is what the script returns, untyped; the callers in this folder read it.
import { createHash } from "node:crypto";
import { COMMAND_TIMEOUT_MS, describe, type RedisClient, type RedisLink } from "./connection.js";
import { StoreUnavailableError } from "../../kernel/store-unavailable.js";
import { ADD_FAULT_SCRIPT, ADMIT_SCRIPT, CLEAR_FAULTS_SCRIPT, CLEAR_JOURNAL_SCRIPT, RECORD_SCRIPT } from "./lua/admission.js";
import { ADD_ENDPOINT_SCRIPT, CLAIM_SCRIPT, PUBLISH_SCRIPT, RELEASE_SCRIPT, REMOVE_ENDPOINT_SCRIPT, RENEW_SCRIPT, SETTLE_SCRIPT } from "./lua/deliveries.js";
import { STATE_FORMAT } from "../store.js";
import { CLAIM_STATE_SCRIPT, DELETE_WORLD_SCRIPT, OPEN_WORLD_SCRIPT, REGISTER_SANDBOX_SCRIPT, RESET_WORLD_SCRIPT, UNREGISTER_SANDBOX_SCRIPT } from "./lua/worlds.js";
import { DELIVERY_KEY_COUNT } from "./lua/deliveries.js";

/** Each script and how many of its arguments are keys (-1: all of a delivery script's keys). */
const SCRIPTS = {
  hrmAdmit: { keys: -2, lua: ADMIT_SCRIPT },
  hrmRecord: { keys: 3, lua: RECORD_SCRIPT },
  hrmClearJournal: { keys: 2, lua: CLEAR_JOURNAL_SCRIPT },
  hrmAddFault: { keys: 1, lua: ADD_FAULT_SCRIPT },
  hrmClearFaults: { keys: 1, lua: CLEAR_FAULTS_SCRIPT },
  hrmClaimState: { keys: 1, lua: CLAIM_STATE_SCRIPT },
  hrmOpenWorld: { keys: 1, lua: OPEN_WORLD_SCRIPT },
  hrmRegisterSandbox: { keys: 2, lua: REGISTER_SANDBOX_SCRIPT },
  hrmUnregisterSandbox: { keys: 2, lua: UNREGISTER_SANDBOX_SCRIPT },
  hrmResetWorld: { keys: -2, lua: RESET_WORLD_SCRIPT },
  hrmDeleteWorld: { keys: -2, lua: DELETE_WORLD_SCRIPT },
  hrmPublish: { keys: -1, lua: PUBLISH_SCRIPT },
  hrmClaim: { keys: -1, lua: CLAIM_SCRIPT },
  hrmRenew: { keys: -1, lua: RENEW_SCRIPT },
  hrmSettle: { keys: -1, lua: SETTLE_SCRIPT },
  hrmRelease: { keys: -1, lua: RELEASE_SCRIPT },
  hrmAddEndpoint: { keys: -1, lua: ADD_ENDPOINT_SCRIPT },
  hrmRemoveEndpoint: { keys: -1, lua: REMOVE_ENDPOINT_SCRIPT },
} as const;

export type ScriptName = keyof typeof SCRIPTS;

let digest: string | undefined;

/** A digest of every script's text and the state's format: replicas whose digests differ would read each other's keys wrongly, so one refuses the other's state. */
export function scriptsDigest(): string {
  digest ??= createHash("sha256")
    .update(STATE_FORMAT)
    .update(Object.values(SCRIPTS).map((script) => script.lua).join("\0"))
    .digest("hex")
    .slice(0, 12);
  return digest;
}

export interface Scripts {
  /** Runs `name` with its keys and arguments in one round trip. */
  run(name: ScriptName, keys: readonly string[], args: readonly (string | number | Buffer)[]): Promise<unknown>;
  /** Plain commands (reads), their failures to reach the store answered as StoreUnavailableError. */
  read<T>(commands: (client: RedisClient) => Promise<T>): Promise<T>;
  /** Calls sent so far, by script name ("read" for plain reads): each is one round trip (GET /_mock/metrics). */
  readonly roundTrips: ReadonlyMap<string, number>;
}

/** Replies that mean "not now" (loading after a restart, a cluster reconfiguring) are unavailability; any other is a bug and stays an error. */
const NOT_NOW = /^(LOADING|CLUSTERDOWN|TRYAGAIN|MASTERDOWN|READONLY|BUSY)\b/;

export function registerScripts(link: RedisLink): Scripts {
  const { client } = link;
  const store = link.address.shown;
  const unavailable = (error: unknown): never => {
    const e = error as Error;
    if (e?.name === "ReplyError" && !NOT_NOW.test(e.message)) throw error;
    // An unanswered command: what follows fails at once until the store answers again.
    if (/timed out/i.test(e?.message ?? "")) link.down(`no answer within ${COMMAND_TIMEOUT_MS} ms`);
    throw new StoreUnavailableError(store, describe(e));
  };
  /** While the store is down, a call fails at once instead of waiting out a timeout. */
  const notReachable = () => new StoreUnavailableError(store, link.reason);
  for (const [name, { keys, lua }] of Object.entries(SCRIPTS)) {
    // Scripts taking a variable number of keys (-2) get it with each call.
    client.defineCommand(name, { lua, ...(keys === -2 ? {} : { numberOfKeys: keys === -1 ? DELIVERY_KEY_COUNT : keys }) });
  }
  const commands = client as unknown as Record<ScriptName, (...args: (string | number | Buffer)[]) => Promise<unknown>>;
  const roundTrips = new Map<string, number>();
  const sent = (name: string) => roundTrips.set(name, (roundTrips.get(name) ?? 0) + 1);
  return {
    roundTrips,
    run(name, keys, args) {
      if (!link.up) return Promise.reject(notReachable());
      sent(name);
      const variable = SCRIPTS[name].keys === -2;
      return commands[name](...(variable ? [keys.length] : []), ...keys, ...args).catch(unavailable);
    },
    read<T>(send: (client: RedisClient) => Promise<T>): Promise<T> {
      if (!link.up) return Promise.reject(notReachable());
      sent("read");
      return send(client).catch(unavailable);
    },
  };
}
