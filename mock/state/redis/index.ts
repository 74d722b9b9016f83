// `--state redis://…`: the state of one mock served by any number of replicas, kept in Redis (or a
// Redis Cluster). What users made or changed is there: sandboxes, data changes, faults, journals,
// rate-limit counts, webhook endpoints, the delivery log and its queue. What a replica keeps for
// itself it can rebuild: the datasets (regenerated from the seed, the changes replayed) and the
// response cache (keyed by each world's version). This module is loaded only with --state redis://.
import { StateError } from "../state-error.js";
import { fingerprintDifferences, type Fingerprint } from "../store.js";
import type { EngineSettings } from "../../webhooks/settings.js";
import { DEFAULT_WORLD, type SharedWorlds, type World, type Worlds } from "../../worlds/world.js";
import { parseRedisUrl } from "./address.js";
import { openRedis, type RedisLink } from "./connection.js";
import { RedisJournal } from "./journal.js";
import { mockKeys } from "./keys.js";
import { sharedSandboxes } from "./sandboxes.js";
import { registerScripts, type Scripts } from "./scripts.js";
import { RedisWorldState, type LocalParts } from "./world-state.js";
import { Tracking } from "./tracking.js";
import { LateRecords } from "./late-records.js";
import { DeliveryPump } from "./webhooks/pump.js";
import { RedisWebhookService } from "./webhooks/service.js";

const FORMAT = "hr-mock-state/1";

export interface RedisStateOptions {
  rateLimit: number | "off";
  journalCapacity: number;
  maxFaults: number;
  /** One line per delivery attempt (--log). */
  log?: (line: string) => void;
  onError(line: string): void;
}

export interface RedisState {
  /** The address as lines show it (password masked). */
  readonly shown: string;
  readonly cluster: boolean;
  /** What the mock whose state this is was made from; undefined for a new state. */
  readonly fingerprint: Fingerprint | undefined;
  /** Records the fingerprint of a new state; refuses (StateError) a replica made from another. */
  claim(fingerprint: Fingerprint): Promise<void>;
  /** What Worlds takes: sandboxes, stores and journals in Redis. */
  readonly shared: SharedWorlds;
  /** A world's webhook service (its store is made with the world, by `shared`, before any call). */
  webhooks(worldId: string, settings: EngineSettings): RedisWebhookService;
  /** Brings the default world in line with the store and starts attempting deliveries. */
  start(worlds: Worlds): Promise<void>;
  /** For GET /_mock/ready: whether the store was reached since the replica started (opening it does), and whether it answers now. */
  readiness(): { reached: boolean; reachable: boolean };
  close(): Promise<void>;
}

/** Connects and reads the state's fingerprint; a StateError of one line for an address that does not serve. */
export async function openRedisState(url: string, options: RedisStateOptions): Promise<RedisState> {
  const address = parseRedisUrl(url);
  const link = await openRedis(address);
  try {
    return await stateOn(link, options);
  } catch (error) {
    await link.close();
    throw error;
  }
}

async function stateOn(link: RedisLink, options: RedisStateOptions): Promise<RedisState> {
  const { shown } = link.address;
  const scripts = registerScripts(link);
  const held = await scripts.read((client) => client.get(mockKeys.state));
  let fingerprint = held === null ? undefined : readState(held, shown);
  let worlds: Worlds | undefined;
  let pump: DeliveryPump | undefined;
  const states = new Map<string, RedisWorldState>();
  // On a single server, journal records go a little after their answers, in batches, and a journal
  // read has every replica send what it holds first (late-records.ts); with the rate limit off,
  // requests are admitted here while the world is as this replica holds it (Redis says when it
  // changes, tracking.ts). On a Cluster, every request asks Redis and is recorded before its answer.
  const local = await localParts(link, scripts, options);
  const context = {
    scripts,
    store: shown,
    rateLimit: options.rateLimit,
    journalCapacity: options.journalCapacity,
    maxFaults: options.maxFaults,
    restartHere: (world: World) => worlds?.restartHere(world),
    forgetHere: (world: World) => {
      states.get(world.id)?.leave();
      worlds?.forgetHere(world);
    },
    onError: options.onError,
    local,
  };
  const stop = link.onChange((up, reason) =>
    options.onError(
      up
        ? `hr-mock: the state store ${shown} is reachable again; replicas share their state as before`
        : `hr-mock: the state store ${shown} cannot be reached (${reason}); reads answer from what this replica holds, changes answer 503 until it is back`,
    ),
  );
  const shared = sharedSandboxes({
    scripts,
    state: (world) => {
      const state = new RedisWorldState(context, world);
      states.set(world.id, state);
      return state;
    },
    journal: (world, capacity) => new RedisJournal(link, scripts, states.get(world.id)!, capacity, local),
    onError: options.onError,
  });
  return {
    shown,
    cluster: link.cluster,
    get fingerprint() {
      return fingerprint;
    },
    async claim(wanted) {
      const text = String(await scripts.run("hrmClaimState", [mockKeys.state], [JSON.stringify({ format: FORMAT, fingerprint: wanted })]));
      const found = readState(text, shown);
      const differences = fingerprintDifferences(found, wanted);
      if (differences.length > 0) {
        throw new StateError(`--state ${shown} holds the state of a mock made from another start dataset: ${differences.join(", ")}; start every replica with the same flags, or give another database (redis://host:port/1)`);
      }
      fingerprint = found;
    },
    shared,
    webhooks(worldId, settings) {
      pump ??= new DeliveryPump({ link, scripts, settings, log: options.log, onError: options.onError });
      return new RedisWebhookService(() => states.get(worldId)!, worldId, { scripts, settings, pump, store: shown, onError: options.onError });
    },
    readiness: () => ({ reached: true, reachable: link.up }),
    async start(made) {
      worlds = made;
      await states.get(DEFAULT_WORLD)!.open();
      await pump?.start();
    },
    async close() {
      stop();
      // What was answered is recorded before the connection goes.
      await local?.late.flushAll();
      local?.tracking.close();
      await pump?.close();
      await link.close();
    },
  };
}

async function localParts(link: RedisLink, scripts: Scripts, options: RedisStateOptions): Promise<LocalParts | undefined> {
  if (link.cluster) return undefined;
  const tracking = new Tracking(link);
  const late = new LateRecords({ link, scripts, tracking, capacity: options.journalCapacity, onError: options.onError });
  await tracking.open();
  return { tracking, late, admitHere: options.rateLimit === "off" };
}

/** The state key's fingerprint, or a StateError naming what is wrong with it. */
function readState(text: string, shown: string): Fingerprint {
  let state: { format?: unknown; fingerprint?: Partial<Fingerprint> };
  try {
    state = JSON.parse(text);
  } catch {
    throw new StateError(`--state ${shown}: ${mockKeys.state} is not JSON; the database holds something else than an hr-mock state (give another database)`);
  }
  if (state.format !== FORMAT) throw new StateError(`--state ${shown}: ${mockKeys.state} is not of the format ${FORMAT} this mock reads (found ${JSON.stringify(state.format)})`);
  const f = state.fingerprint;
  if (!f || typeof f.seed !== "number" || typeof f.scale !== "number" || typeof f.today !== "string" || (f.data !== undefined && typeof f.data !== "string")) {
    throw new StateError(`--state ${shown}: ${mockKeys.state} has no valid fingerprint (seed, scale, today)`);
  }
  return f as Fingerprint;
}
