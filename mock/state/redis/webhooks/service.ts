// A world's webhook side when replicas share it (--state redis://): endpoints, the delivery log and
// the queue live in Redis; this replica publishes events, reads the log and resends from it, and
// leaves attempts to the delivery pump. The rules are the in-memory service's (service-base.ts).
import { randomUUID } from "node:crypto";
import type { WebhookEvent } from "../../../../generated/events.js";
import { ok, refuse, type Result } from "../../../kernel/results.js";
import type { DeliveryFilter, DeliveryLogEntry } from "../../../webhooks/delivery-log.js";
import { atLimit, makeEndpoint, viewOf, type Endpoint } from "../../../webhooks/endpoints.js";
import type { CloseReport, WorldWebhooks } from "../../../webhooks/port.js";
import type { QueuedDelivery, TriggerResult } from "../../../webhooks/publisher.js";
import { resentView, type ResendPick } from "../../../webhooks/resend.js";
import { newEntry, triggerRequest, WebhookServiceBase } from "../../../webhooks/service-base.js";
import type { TriggerInput } from "../../../webhooks/triggers.js";
import type { DataChange } from "../../../webhooks/core.js";
import { deliveryKeys } from "../lua/deliveries.js";
import { REFUSED } from "../formats.js";
import type { RedisWorldState } from "../world-state.js";
import { endpointOf, readDeliveries, readEndpoints, readLogged } from "./log.js";
import type { DeliveryPump } from "./pump.js";

/** How often idle() looks at the world's queue. */
const IDLE_LOOK_MS = 20;
/** How long a trigger keeps making its event again while other replicas' changes land first (each one kept). */
export const TRIGGER_PATIENCE_MS = 5_000;

/** A delivery made here, not yet in Redis: what the publish script takes for it. */
type Pending = { entry: DeliveryLogEntry; body: Buffer };

export class RedisWebhookService extends WebhookServiceBase implements WorldWebhooks {
  constructor(
    /** The world's store, made with it. */
    private readonly state: RedisWorldState,
    private readonly worldId: string,
    /** The replica's pump, whose parts (the scripts, the settings) this service shares. */
    private readonly pump: DeliveryPump,
  ) {
    // Replicas share a seed, not a sequence: each draws its own, so two never make the same ids.
    super(pump.parts.settings, Number.parseInt(randomUUID().slice(0, 8), 16), pump.parts.onError);
    pump.watch(worldId, this.listeners);
  }

  private get parts() {
    return this.pump.parts;
  }

  protected get dataset() {
    return this.state.world.dataset;
  }

  get pending(): number {
    return this.pump.inFlight(this.worldId);
  }

  private get keys() {
    return this.state.keys;
  }

  async addEndpoint(organizationId: string, input: Parameters<WorldWebhooks["addEndpoint"]>[1]) {
    const org = this.open(organizationId);
    if (!org.ok) return org;
    const made = makeEndpoint(organizationId, input, this.settings);
    if (!made.ok) return made;
    const { endpoint, created } = made.value;
    const [added, held] = (await this.parts.scripts.run("hrmAddEndpoint", deliveryKeys(this.keys), [
      organizationId,
      endpoint.id,
      JSON.stringify({ ...endpoint, url: endpoint.url.href }),
      this.settings.maxEndpointsPerOrganisation,
    ])) as number[];
    return added === 1 ? ok(created) : atLimit(held);
  }

  async listEndpoints(organizationId: string) {
    return (await readEndpoints(this.parts.scripts, this.keys, organizationId)).map(viewOf);
  }

  async removeEndpoint(organizationId: string, id: string) {
    const [removed, text] = (await this.parts.scripts.run("hrmRemoveEndpoint", deliveryKeys(this.keys), [organizationId, id.toLowerCase()])) as [number, string];
    if (removed !== 1) return refuse("not-found", `no webhook endpoint with id ${id} in this organisation`, "id");
    this.pump.attempts.forget(id.toLowerCase());
    return ok(viewOf(endpointOf(text)));
  }

  /**
   * Publishes on this replica's copy of the world, alone with it; the data change and the deliveries
   * go in one script, which refuses when another replica changed the world first: then again.
   */
  trigger(input: TriggerInput): Promise<Result<TriggerResult>> {
    return this.state.exclusive(async () => {
      const org = this.open(input.organizationId);
      if (!org.ok) return org;
      const request = triggerRequest(input);
      const until = Date.now() + TRIGGER_PATIENCE_MS;
      for (let round = 0; round < 5 || Date.now() < until; round++) {
        const endpoints = await readEndpoints(this.parts.scripts, this.keys, input.organizationId);
        const pending: Pending[] = [];
        const at = Date.now();
        const version = this.dataset.version;
        const publish = this.publisher({
          endpoints: () => endpoints,
          deliver: (endpoint, event, body, duplicate) => this.queued(pending, endpoint, event, body, duplicate, null),
          now: () => new Date(at),
        });
        const published = publish(org.value, request);
        const changed = this.dataset.version !== version;
        if (!published.ok) {
          if (changed) this.state.undo();
          return published;
        }
        const change: DataChange | undefined = changed ? { organizationId: input.organizationId, input: request, at: new Date(at).toISOString() } : undefined;
        let answer: Awaited<ReturnType<RedisWebhookService["commit"]>>;
        try {
          // Only a change of the data needs the world as this copy knew it; an event alone goes in as it is.
          answer = await this.commit(pending, change ? JSON.stringify(change) : "", changed);
        } catch (error) {
          if (changed) this.state.undo();
          throw error;
        }
        if (answer === "committed") {
          if (change) this.state.committed(change);
          return published;
        }
        if (answer === "gone") return gone();
        // Another replica changed the world first: this copy goes back to Redis's and the event is made again.
        const [gen, n] = answer;
        this.state.startAgain(gen);
        await this.state.catchUpNow(gen, n);
      }
      return refuse("conflict", "the world kept changing through other replicas while this trigger was made; try it again");
    });
  }

  protected logOf(organizationId: string) {
    return Promise.all([readLogged(this.parts.scripts, this.keys, organizationId), readEndpoints(this.parts.scripts, this.keys, organizationId)]);
  }

  deliveries(filter: DeliveryFilter = {}): Promise<DeliveryLogEntry[]> {
    return readDeliveries(this.parts.scripts, this.keys, filter);
  }

  /** Resolves when the world's queue holds nothing due and nothing being attempted, by any replica. */
  async idle(): Promise<void> {
    for (;;) {
      const [due, leased] = await this.parts.scripts.read((client) => Promise.all([client.zcard(this.keys.due), client.zcard(this.keys.leases)]));
      if (due + leased === 0) return;
      await new Promise((resolve) => setTimeout(resolve, IDLE_LOOK_MS));
    }
  }

  /** What waits stays in Redis: another replica attempts it, or this one when it starts again. */
  protected async shutDown(): Promise<CloseReport> {
    this.listeners.clear();
    this.pump.unwatch(this.worldId);
    let waiting = 0;
    try {
      waiting = await this.parts.scripts.read((client) => client.zcard(this.keys.due));
    } catch {
      // Unreachable: nothing more can be said of what waits.
    }
    if (waiting > 0) this.parts.onError(`webhooks stopped here: ${waiting} ${waiting === 1 ? "delivery is" : "deliveries are"} still waiting, kept in ${this.parts.link.address.shown}, to be attempted by another replica or when one starts again`);
    return { waiting: [] };
  }

  /** One delivery made here: its log entry (queued, or held under the shuffle option) and body. */
  private queued(pending: Pending[], endpoint: Endpoint, event: Pick<WebhookEvent, "id" | "type">, body: Buffer, duplicate: boolean, resendOf: string | null): QueuedDelivery {
    const entry = newEntry(endpoint, { eventId: event.id, type: event.type, duplicate, resendOf, state: this.settings.shuffle ? "held" : "queued", queuedAt: new Date().toISOString() });
    pending.push({ entry, body });
    return { endpointId: endpoint.id, url: entry.url, duplicate };
  }

  protected async queueResends(picks: readonly ResendPick[]) {
    const pending: Pending[] = [];
    const deliveries = picks.map((pick) => {
      this.queued(pending, pick.endpoint, { id: pick.eventId, type: pick.type }, pick.body, false, pick.resendOf);
      return resentView(pick, pending[pending.length - 1].entry.id);
    });
    return (await this.commit(pending, "", false)) === "committed" ? ok(deliveries) : gone();
  }

  /** The change (if any) and the deliveries, against this copy's generation and changes when `checked`; else the world's [gen, n]. */
  private async commit(pending: readonly Pending[], change: string, checked: boolean): Promise<"committed" | "gone" | [number, number]> {
    const { settings } = this;
    const args: (string | number | Buffer)[] = [checked ? this.state.gen : "", checked ? this.state.n : "", change, settings.maxWaitingPerEndpoint, settings.maxWaiting, settings.logLimit];
    for (const { entry, body } of pending) {
      // Under the shuffle option each waits a random part of the window: their order is drawn.
      const delay = settings.shuffle ? Math.floor(this.random() * settings.shuffleWindowMs) : 0;
      args.push(entry.id, entry.organizationId, entry.endpointId, entry.eventId, JSON.stringify(entry), body, delay, entry.state);
    }
    const answer = (await this.parts.scripts.run("hrmPublish", deliveryKeys(this.keys), args)) as (number | string)[];
    if (answer[0] === REFUSED.conflict) return [Number(answer[1]), Number(answer[2])];
    if (answer[0] === REFUSED.gone) return "gone";
    this.pump.dropped(this.worldId, answer.slice(4));
    if (pending.length > 0) this.pump.due(this.worldId, 0, true);
    return "committed";
  }
}

/** A world deleted through another replica while this one worked on it. */
function gone(): Result<never> {
  return refuse("not-found", "this sandbox was deleted meanwhile (through another replica)");
}
