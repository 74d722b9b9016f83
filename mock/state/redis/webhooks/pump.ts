// Attempts of a replicated mock's deliveries, one pump per replica over every world. A delivery is
// claimed under a lease (renewed while it is sent), attempted (attempt.ts, as in one process), and
// settled: each attempt is made by exactly one replica. A replica that dies leaves its leases to run
// out, and another takes the attempt then. Replicas tell each other when a retry is due (a message on
// the mock's channel), and look at every world once a second besides, in case a message was lost.
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { StoreUnavailableError } from "../../../kernel/store-unavailable.js";
import { attemptOutcome, DeliveryAttempts, isToldDrop, type AttemptListener, type AttemptParts } from "../../../webhooks/attempt.js";
import type { DeliveryLogEntry } from "../../../webhooks/delivery-log.js";
import type { EngineSettings } from "../../../webhooks/settings.js";
import { DEFAULT_WORLD } from "../../../worlds/world.js";
import type { RedisLink } from "../connection.js";
import { mockKeys, worldKeys } from "../keys.js";
import { deliveryKeys } from "../lua/deliveries.js";
import type { Scripts } from "../scripts.js";
import { endpointOf, entriesOf } from "./log.js";

/** How often every world is looked at, whatever was said on the channel. */
const SWEEP_MS = 1000;
/** Deliveries one claim takes at most. */
const CLAIM_MOST = 50;

export interface PumpParts extends AttemptParts {
  link: RedisLink;
  scripts: Scripts;
  settings: EngineSettings;
}

export class DeliveryPump {
  /** Who holds a lease: this replica, unlike any other. */
  readonly owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly leaseMs: number;
  /** Worlds whose deliveries this replica attempts, each with the listeners of its service here (if any). */
  private readonly worlds = new Map<string, Iterable<AttemptListener> | undefined>([[DEFAULT_WORLD, undefined]]);
  private readonly timers = new Map<string, { at: number; timer: NodeJS.Timeout }>();
  /** Worlds being claimed, and whether they were asked for again meanwhile. */
  private readonly claiming = new Map<string, boolean>();
  private readonly running = new Set<Promise<void>>();
  /** The deliveries being attempted here, by world: their leases are not handed back. */
  private readonly sending = new Map<string, Set<string>>();
  readonly attempts: DeliveryAttempts;
  private sweeper: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(readonly parts: PumpParts) {
    // Long enough for an attempt's whole answer; renewed at a third of it while the attempt runs.
    this.leaseMs = Math.max(5000, 2 * parts.settings.responseTimeoutMs + 1000);
    this.attempts = new DeliveryAttempts(parts);
  }

  async start(): Promise<void> {
    // Subscribed each time it connects (ioredis subscribes again after a reconnection too: harmless).
    const subscriber = this.parts.link.subscriber((connection) => void connection.subscribe(mockKeys.dueChannel).catch(() => undefined));
    subscriber.on("message", (_channel: string, message: string) => {
      const [world, delay] = message.split(" ");
      if (this.worlds.has(world)) this.schedule(world, Number(delay) || 0);
    });
    this.sweeper = setInterval(() => void this.sweep(), SWEEP_MS);
    this.sweeper.unref();
    this.schedule(DEFAULT_WORLD, 0);
  }

  /** Attempts the world's deliveries here; `listeners` hear of each attempt this replica makes. */
  watch(world: string, listeners: Iterable<AttemptListener>): void {
    this.worlds.set(world, listeners);
    this.schedule(world, 0);
  }

  unwatch(world: string): void {
    if (world !== DEFAULT_WORLD) this.worlds.delete(world);
    else this.worlds.set(world, undefined);
  }

  /** This replica's attempts in flight for the world. */
  inFlight(world: string): number {
    return this.sending.get(world)?.size ?? 0;
  }

  /** Deliveries of the world are due in `delayMs`: claimed here then, and (when `tell`) by every replica. */
  due(world: string, delayMs: number, tell: boolean): void {
    this.schedule(world, delayMs);
    if (tell) this.parts.link.client.publish(mockKeys.dueChannel, `${world} ${Math.max(0, Math.round(delayMs))}`).catch(() => undefined);
  }

  /** Deliveries a script dropped at a bound ([id, event, drops so far] flat): a line on the 1st, 10th, 100th... */
  dropped(world: string, flat: readonly (string | number)[]): void {
    for (let i = 0; i + 2 < flat.length; i += 3) {
      const count = Number(flat[i + 2]);
      if (isToldDrop(count)) void this.dropLine(world, String(flat[i]), count);
    }
  }

  /** Releases the leases held here for deliveries not being attempted: each is due again at once for every replica, rather than when the lease runs out. */
  async handBack(): Promise<void> {
    await Promise.all(
      [...this.worlds.keys()].map(async (world) => {
        try {
          const released = Number(await this.parts.scripts.run("hrmRelease", deliveryKeys(worldKeys(world)), [this.owner, ...(this.sending.get(world) ?? [])]));
          if (released > 0) this.due(world, 0, true);
        } catch (error) {
          // Unreachable: the leases run out by themselves, and another replica takes them then.
          if (!(error instanceof StoreUnavailableError)) throw error;
        }
      }),
    );
  }

  /** Stops claiming; attempts in flight end (each within the response timeout) and are settled. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweeper);
    for (const { timer } of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    await Promise.all([...this.running]);
    this.attempts.close();
  }

  private schedule(world: string, delayMs: number): void {
    if (this.closed) return;
    const at = Date.now() + Math.max(0, delayMs);
    const held = this.timers.get(world);
    if (held && held.at <= at) return;
    if (held) clearTimeout(held.timer);
    const timer = setTimeout(() => {
      this.timers.delete(world);
      void this.claim(world);
    }, Math.max(0, delayMs));
    timer.unref();
    this.timers.set(world, { at, timer });
  }

  /** Every world, and the sandboxes made through other replicas since the last look. */
  private async sweep(): Promise<void> {
    try {
      const sandboxes = await this.parts.scripts.read((client) => client.hkeys(mockKeys.sandboxes));
      const held = new Set(sandboxes);
      for (const id of sandboxes) if (!this.worlds.has(id)) this.worlds.set(id, undefined);
      for (const id of [...this.worlds.keys()]) if (id !== DEFAULT_WORLD && !held.has(id) && !this.worlds.get(id)) this.worlds.delete(id);
    } catch {
      // Unreachable: the worlds known here are looked at all the same.
    }
    for (const world of this.worlds.keys()) void this.claim(world);
  }

  private async claim(world: string): Promise<void> {
    if (this.closed) return;
    if (this.claiming.has(world)) {
      this.claiming.set(world, true);
      return;
    }
    try {
      do {
        this.claiming.set(world, false);
        const { concurrency } = this.parts.settings;
        const answer = (await this.parts.scripts.run("hrmClaim", deliveryKeys(worldKeys(world)), [this.owner, this.leaseMs, CLAIM_MOST, concurrency])) as (string | number)[];
        const [now, next] = answer.map(Number);
        for (let i = 2; i + 3 < answer.length; i += 4) {
          const attempt = this.attempt(world, String(answer[i]), String(answer[i + 1]), String(answer[i + 2]), String(answer[i + 3]));
          this.running.add(attempt);
          void attempt.finally(() => this.running.delete(attempt));
        }
        if (next >= 0) this.schedule(world, next - now);
      } while (this.claiming.get(world) && !this.closed);
    } catch (error) {
      // Unreachable for now: the next sweep claims again.
      if (!(error instanceof StoreUnavailableError)) this.parts.onError(`hr-mock: webhooks: claiming deliveries failed: ${(error as Error).message}`);
    } finally {
      this.claiming.delete(world);
    }
  }

  private async attempt(world: string, id: string, entryText: string, endpointText: string, body: string): Promise<void> {
    const { scripts, settings } = this.parts;
    let sending = this.sending.get(world);
    if (!sending) this.sending.set(world, (sending = new Set()));
    sending.add(id);
    const entry: DeliveryLogEntry = { ...(JSON.parse(entryText) as DeliveryLogEntry), state: "sending", nextAttemptAt: null };
    const endpoint = endpointOf(endpointText);
    const renew = setInterval(() => void scripts.run("hrmRenew", deliveryKeys(worldKeys(world)), [this.owner, this.leaseMs, id]).catch(() => undefined), this.leaseMs / 3);
    try {
      const sent = await this.attempts.send(endpoint, entry, Buffer.from(body, "utf8"), Date.now());
      const { record, state, delayMs } = attemptOutcome(entry, sent, settings.retryDelaysMs, false, Date.now());
      const next = state === "retry-scheduled" ? record.nextRetryAt : null;
      const written = { ...entry, state, nextAttemptAt: next, attempts: [...entry.attempts, record] };
      const settled = await this.settle(world, id, written, delayMs ?? 0);
      if (!settled) return;
      const [finalState, dueAt, ...dropped] = settled;
      const logged = { ...written, state: finalState as DeliveryLogEntry["state"] };
      this.attempts.told(logged, record, this.worlds.get(world));
      this.dropped(world, dropped);
      if (Number(dueAt) >= 0) this.due(world, delayMs ?? 0, true);
    } finally {
      sending.delete(id);
      clearInterval(renew);
      // A slot of the endpoint is free: whatever waited for it may go.
      this.schedule(world, 0);
    }
  }

  /**
   * Records the attempt; while the store is unreachable, again until the lease would run out (then
   * another replica attempts it again, as the provider's redeliveries may). Undefined when the lease was lost.
   */
  private async settle(world: string, id: string, entry: DeliveryLogEntry, delayMs: number): Promise<(string | number)[] | undefined> {
    const { settings } = this.parts;
    const until = Date.now() + this.leaseMs;
    for (;;) {
      try {
        const answer = (await this.parts.scripts.run("hrmSettle", deliveryKeys(worldKeys(world)), [
          this.owner,
          id,
          JSON.stringify(entry),
          entry.state,
          entry.nextAttemptAt ?? "",
          delayMs,
          settings.maxWaitingPerEndpoint,
          settings.maxWaiting,
        ])) as (string | number)[];
        return answer[0] === 1 ? answer.slice(1) : undefined;
      } catch (error) {
        if (!(error instanceof StoreUnavailableError) || Date.now() > until || this.closed) return undefined;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
  }

  private async dropLine(world: string, id: string, count: number): Promise<void> {
    try {
      const [entry] = await entriesOf(this.parts.scripts, worldKeys(world), [id]);
      const endpointText = entry && (await this.parts.scripts.read((client) => client.hget(worldKeys(world).endpoints, entry.endpointId)));
      if (!entry || !endpointText) return;
      this.attempts.dropped(endpointOf(endpointText), entry, count, `the bound on waiting deliveries (${this.parts.settings.maxWaitingPerEndpoint} per endpoint, ${this.parts.settings.maxWaiting} in all)`);
    } catch {
      // The line is a courtesy; the log entry says "dropped" all the same.
    }
  }
}
