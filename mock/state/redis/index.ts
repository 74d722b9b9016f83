// `--state redis://…`: the state of one mock served by any number of replicas, kept in Redis (or a
// Redis Cluster). What a replica keeps for itself it can rebuild: the datasets (regenerated from the
// seed, the changes replayed) and the response cache. Loaded only with --state redis://.
import { mockLimits } from "../../../generated/control-facts.js";
import type { Dataset } from "../../data/dataset.js";
import type { World, Worlds } from "../../worlds/world.js";
import type { Registered, WorldParts, WorldPlace, WorldsHere } from "../../worlds/state-port.js";
import type { WebhookCore } from "../../webhooks/core.js";
import type { BackendOptions, Fingerprint, Readiness, StateBackend, StateReport, StoreMetrics, StoreName } from "../backend.js";
import { StateError } from "../state-error.js";
import { fingerprintDifferences, isFingerprint, STATE_FORMAT } from "../store.js";
import { parseRedisUrl, whereOf } from "./address.js";
import { openRedis, type RedisLink } from "./connection.js";
import { RedisJournal } from "./journal.js";
import { allWorldKeys, mockKeys } from "./keys.js";
import { SharedSandboxes } from "./sandboxes.js";
import { registerScripts, scriptsDigest, type Scripts } from "./scripts.js";
import { RedisWorldState, type RedisWorldContext } from "./world-state.js";
import { DeliveryPump } from "./webhooks/pump.js";
import { RedisWebhookService } from "./webhooks/service.js";

/** Connects and reads the state's fingerprint; a StateError of one line for an address that does not serve. */
export async function openRedisBackend(url: string, options: BackendOptions): Promise<StateBackend> {
  const address = { ...parseRedisUrl(url, options.stateNamed), named: options.stateNamed, ...(options.password && { password: options.password.password, passwordFrom: options.password.from }) };
  const link = await openRedis(address);
  try {
    const scripts = registerScripts(link);
    const held = await scripts.read((client) => client.get(mockKeys.state));
    const fingerprint = held === null ? undefined : readState(held, whereOf(link.address));
    return new RedisBackend(link, scripts, fingerprint, options);
  } catch (error) {
    await link.close();
    throw error;
  }
}

class RedisBackend extends SharedSandboxes implements StateBackend {
  /** What every world's store shares, once Worlds attached. */
  private context: RedisWorldContext | undefined;
  /** Each world made here, with its store (gone with the world). */
  private readonly states = new WeakMap<World, RedisWorldState>();
  private pump: DeliveryPump | undefined;
  private readonly stopTelling: () => void;

  constructor(
    private readonly link: RedisLink,
    scripts: Scripts,
    public fingerprint: Fingerprint | undefined,
    private readonly settings: BackendOptions,
  ) {
    super(scripts, settings.onError);
    const { shown } = link.address;
    const lifecycle = settings.lifecycle ?? ((_event, text) => settings.onError(text));
    this.stopTelling = link.onChange((up, reason) =>
      up
        ? lifecycle("store-back", `hr-mock: the state store ${shown} is reachable again; replicas share their state as before`, { store: shown })
        : lifecycle("store-lost", `hr-mock: the state store ${shown} cannot be reached (${reason}); reads answer from what this replica holds, changes answer 503 until it is back`, { store: shown, reason }),
    );
  }

  get store(): StoreName {
    return { kind: "redis", address: this.link.address.shown };
  }

  attach(here: WorldsHere): void {
    const { settings, scripts } = this;
    this.context = {
      scripts,
      store: this.link.address.shown,
      rateLimit: settings.rateLimit,
      journalCapacity: settings.journalSize,
      maxFaults: mockLimits.maxFaultsPerWorld,
      here,
      onError: settings.onError,
    };
  }

  open({ world, webhooks }: WorldPlace): WorldParts {
    if (!this.context) throw new Error("hr-mock: the state was used before Worlds attached to it");
    const { settings, scripts } = this;
    const state = new RedisWorldState(this.context, world);
    this.states.set(world, state);
    return { store: state, journal: new RedisJournal(this.link, scripts, state, settings.journalSize), webhooks: webhooks && this.webhooks(world, state, webhooks) };
  }

  /** Counted when it registers, against every replica's sandboxes. */
  room(): Registered {
    return { ok: true };
  }

  /** Its keys in Redis wiped (store, journal, webhooks alike) for every replica, its dataset restarted here: the same parts serve it from now on. */
  async reset({ world }: WorldPlace): Promise<WorldParts> {
    const state = this.stateOf(world);
    await state.exclusive(async () => state.startAgain(Number(await this.scripts.run("hrmResetWorld", allWorldKeys(state.keys), []))));
    return { store: world.store, journal: world.journal, webhooks: world.webhooks };
  }

  /** Records the fingerprint of a new state; refuses (StateError) a replica made from another. */
  async restore(_dataset: Dataset, wanted: Fingerprint): Promise<void> {
    const where = whereOf(this.link.address);
    const text = String(await this.scripts.run("hrmClaimState", [mockKeys.state], [JSON.stringify({ format: STATE_FORMAT, scripts: scriptsDigest(), fingerprint: wanted })]));
    const found = readState(text, where);
    const differences = fingerprintDifferences(found, wanted);
    if (differences.length > 0) {
      throw new StateError(`${where} holds the state of a mock made from another start dataset: ${differences.join(", ")}; start every replica with the same flags, or give another database (redis://host:port/1)`);
    }
    this.fingerprint = found;
  }

  /** Brings the default world in line with the store and starts attempting deliveries. */
  async start(worlds: Worlds): Promise<void> {
    await this.stateOf(worlds.default).open();
    await this.pump?.start();
  }

  readonly pumpsDeliveries = true;

  report(): StateReport {
    return { shared: { store: this.link.address.shown, cluster: this.link.cluster } };
  }

  readiness(): Readiness {
    // Opening connected (or refused to start): the store was reached.
    return { reached: true, reachable: this.link.up };
  }

  metrics(): StoreMetrics {
    return { up: this.link.up, roundTrips: this.scripts.roundTrips };
  }

  /** Journal records held here sent; the delivery leases held here but not being sent released (due again at once, for any replica). */
  async flush(): Promise<void> {
    await this.pump?.handBack();
  }

  async close(): Promise<void> {
    this.stopTelling();
    // Attempts in flight settle first; then what was answered is recorded and the leases still held
    // (deliveries claimed but not sent) are handed back before the connection goes.
    await this.pump?.close();
    await this.flush();
    await this.link.close();
  }

  private webhooks(world: World, state: RedisWorldState, core: WebhookCore): RedisWebhookService {
    const { scripts, link, settings } = this;
    this.pump ??= new DeliveryPump({ link, scripts, settings: core.settings, log: settings.log, observe: core.observe, onError: settings.onError });
    return new RedisWebhookService(state, world.id, this.pump);
  }

  private stateOf(world: World): RedisWorldState {
    const state = this.states.get(world);
    if (!state) throw new Error(`hr-mock: world ${world.id} was not made by this replica's state`);
    return state;
  }
}

/** The state key's fingerprint, or a StateError naming what is wrong with it. */
function readState(text: string, where: string): Fingerprint {
  let state: { format?: unknown; scripts?: unknown; fingerprint?: Partial<Fingerprint> };
  try {
    state = JSON.parse(text);
  } catch {
    throw new StateError(`${where}: ${mockKeys.state} is not JSON; the database holds something else than an hr-mock state (give another database)`);
  }
  if (state.format !== STATE_FORMAT) throw new StateError(`${where}: ${mockKeys.state} is not of the format ${STATE_FORMAT} this mock reads (found ${JSON.stringify(state.format)})`);
  if (state.scripts !== scriptsDigest()) {
    throw new StateError(`${where} is served by replicas of another release of the mock (their formats ${JSON.stringify(state.scripts ?? "unnamed")}, this one's ${JSON.stringify(scriptsDigest())}); start every replica from the same release, or give another database`);
  }
  if (!isFingerprint(state.fingerprint)) throw new StateError(`${where}: ${mockKeys.state} has no valid fingerprint (seed, scale, today)`);
  return state.fingerprint;
}
