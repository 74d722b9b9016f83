// A world's webhook service in this process: endpoints, one delivery lane per endpoint and the
// delivery log in memory (what every service does is service-base.ts), for callers whose input was
// checked where it came in. Answers are results with reasons; nothing here knows HTTP.
import type { Dataset } from "../data/dataset.js";
import { DeliveryLog, snapshot, waitingLines, waitingOf, type DeliveryFilter, type DeliveryLogEntry, type LoggedDelivery } from "./delivery-log.js";
import { EndpointRegistry, viewOf, type CreatedEndpoint, type Endpoint, type EndpointInput, type EndpointView } from "./endpoints.js";
import { DeliveryLane, type LaneJob } from "./lane.js";
import type { Publish, TriggerResult } from "./publisher.js";
import { ok, refuse, type Result } from "../kernel/results.js";
import { DeliveryAttempts } from "./attempt.js";
import type { TriggerInput } from "./triggers.js";
import type { EngineSettings } from "./settings.js";
import type { WebhookCore, WebhookPersistence, WebhookSnapshot } from "./core.js";
import type { CloseReport } from "./port.js";
import { resentView, type ResendPick, type ResentDelivery } from "./resend.js";
import { newEntry, triggerRequest, WebhookServiceBase } from "./service-base.js";

/** The core's parts, with the world's own seed, and where a state directory keeps the service. */
type ServiceParts = Omit<WebhookCore, "settings" | "local"> & { persistence?: WebhookPersistence };

export class WebhookService extends WebhookServiceBase {
  private readonly registry: EndpointRegistry;
  private readonly lanes = new Map<string, DeliveryLane>();
  private readonly attempts: DeliveryAttempts;
  private readonly log: DeliveryLog;
  private readonly publish: Publish;
  private pendingCount = 0;
  /** Jobs not finished, and those stopped by close(): what a state directory keeps as waiting. */
  private readonly unfinished = new Set<LaneJob>();
  /** The time of the trigger being published, so its data change is replayed with the same time. */
  private triggerAt: number | undefined;
  private idleWaiters: Array<() => void> = [];
  private seq = 0;
  /** Deliveries dropped at a bound, per endpoint id. */
  private readonly drops = new Map<string, number>();
  /** Set while the bound in all (not the endpoint's own) makes a lane drop. */
  private dropReason: string | undefined;

  constructor(
    protected readonly dataset: Dataset,
    settings: EngineSettings,
    private readonly parts: ServiceParts,
  ) {
    super(settings, parts.seed, parts.onError);
    this.registry = new EndpointRegistry({ strictUrls: settings.strictUrls, allowPrivateUrls: settings.allowPrivateUrls, maxPerOrganisation: settings.maxEndpointsPerOrganisation });
    this.log = new DeliveryLog(settings.logLimit);
    this.attempts = new DeliveryAttempts({ ...parts, settings });
    this.publish = this.publisher({
      endpoints: (organizationId) => this.registry.list(organizationId),
      deliver: (endpoint, event, body, duplicate) => ({ endpointId: endpoint.id, url: this.queue(endpoint, { eventId: event.id, type: event.type, duplicate, resendOf: null }, body).url, duplicate }),
      now: () => new Date(this.triggerAt ?? this.now()),
    });
  }

  /** Registers an endpoint; the answer holds the secret, shown this once. */
  addEndpoint(organizationId: string, input: EndpointInput): Result<CreatedEndpoint> {
    const org = this.open(organizationId);
    if (!org.ok) return org;
    const added = this.registry.add(organizationId, input);
    if (!added.ok) return added;
    const { endpoint, created } = added.value;
    this.lanes.set(endpoint.id, this.laneFor(endpoint));
    this.saveNow();
    return ok(created);
  }

  listEndpoints(organizationId: string): EndpointView[] {
    return this.registry.list(organizationId).map(viewOf);
  }

  /** Removes an endpoint: its waiting deliveries are cancelled, attempts in flight end normally. Returns it as it was. */
  removeEndpoint(organizationId: string, id: string): Result<EndpointView> {
    const endpoint = this.registry.remove(organizationId, id);
    if (!endpoint) return refuse("not-found", `no webhook endpoint with id ${id} in this organisation`, "id");
    this.lanes.get(endpoint.id)?.remove();
    this.saveNow();
    return ok(viewOf(endpoint));
  }

  /** Publishes an event of the type about the record `id` (any letter case), or a picked one, with the overrides of `set`. */
  trigger(input: TriggerInput): Result<TriggerResult> {
    const org = this.open(input.organizationId);
    if (!org.ok) return org;
    const request = triggerRequest(input);
    const version = this.dataset.version;
    this.triggerAt = this.now();
    try {
      const published = this.publish(org.value, request);
      if (published.ok && this.dataset.version !== version) {
        // The whole request, overrides included: replaying it on the same start gives the same records.
        this.parts.persistence?.dataChanged({ organizationId: input.organizationId, input: request, at: new Date(this.triggerAt).toISOString() });
      }
      if (published.ok) this.saveNow();
      return published;
    } finally {
      this.triggerAt = undefined;
    }
  }

  /** What a state directory keeps; live objects, to be serialized at once. */
  snapshot(): WebhookSnapshot {
    return {
      endpoints: this.registry.all(),
      log: this.log.all(),
      bodies: this.log.bodies(),
      waiting: [...this.unfinished].sort((a, b) => a.seq - b.seq).map(({ entry, body }) => ({ entry, body })),
    };
  }

  /** Takes back a snapshot at start: each waiting delivery is attempted when its next attempt is due (at once if past). */
  restore(saved: WebhookSnapshot): void {
    for (const endpoint of saved.endpoints) {
      this.registry.restore(endpoint);
      this.lanes.set(endpoint.id, this.laneFor(endpoint));
    }
    const waitingBodies = new Map(saved.waiting.map(({ entry, body }) => [entry.eventId, body]));
    for (const entry of saved.log) this.log.add(entry, saved.bodies.get(entry.eventId) ?? waitingBodies.get(entry.eventId));
    for (const { entry, body } of saved.waiting) {
      const lane = this.lanes.get(entry.endpointId);
      if (!lane) {
        // Its endpoint is not in the snapshot: as when an endpoint is removed, the delivery is cancelled.
        entry.state = "cancelled";
        entry.nextAttemptAt = null;
        continue;
      }
      const last = entry.attempts[entry.attempts.length - 1];
      const due = entry.nextAttemptAt ?? last?.nextRetryAt ?? null;
      const job: LaneJob = { entry, body, seq: this.seq++ };
      this.pendingCount++;
      this.unfinished.add(job);
      lane.resume(job, due === null ? 0 : Math.max(0, Date.parse(due) - this.now()));
    }
  }

  deliveries(filter: DeliveryFilter = {}): DeliveryLogEntry[] {
    return this.log.find(filter).map(snapshot);
  }

  idle(): Promise<void> {
    if (this.pendingCount === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  get pending(): number {
    return this.pendingCount;
  }

  protected logOf(organizationId: string): [readonly LoggedDelivery[], readonly Endpoint[]] {
    return [this.log.ofOrganization(organizationId), this.registry.list(organizationId)];
  }

  /** Stops the lanes, lets attempts in flight finish (each ends by the response timeout) and reports what was still waiting. */
  protected async shutDown(): Promise<CloseReport> {
    const lanes = [...this.lanes.values()];
    for (const lane of lanes) lane.stop();
    await Promise.all(lanes.map((lane) => lane.drained()));
    this.attempts.close();
    const waiting = lanes
      .flatMap((lane) => lane.unsent)
      .sort((a, b) => a.seq - b.seq)
      .map((job) => waitingOf(job.entry));
    const persistence = this.parts.persistence;
    persistence?.flush();
    // Always said, with or without a delivery log line per attempt: nothing is dropped without a word.
    const say = this.parts.log ?? this.parts.onError;
    for (const line of waitingLines(waiting, persistence?.where)) say(line);
    return { waiting };
  }

  private laneFor(endpoint: Endpoint): DeliveryLane {
    return new DeliveryLane({
      send: ({ entry, body }) => this.attempts.send(endpoint, entry, body, this.now()),
      scheduler: this.parts.scheduler,
      retryDelaysMs: this.settings.retryDelaysMs,
      concurrency: this.settings.concurrency,
      maxWaiting: this.settings.maxWaitingPerEndpoint,
      onWaiting: () => this.boundWaiting(),
      onDropped: (job) => this.dropped(endpoint, job, `its ${this.settings.maxWaitingPerEndpoint} waiting deliveries are the most an endpoint holds`),
      shuffle: this.settings.shuffle ? { windowMs: this.settings.shuffleWindowMs, random: this.random } : undefined,
      onAttempt: (entry, record) => {
        this.parts.persistence?.changed();
        this.attempts.told(entry, record, this.listeners);
      },
      onSettled: (job) => this.settled(job),
      onReleased: () => {
        // Removed and quiet: the lane and its connections go (close() need not wait for it).
        this.attempts.forget(endpoint.id);
        this.lanes.delete(endpoint.id);
        this.drops.delete(endpoint.id);
      },
    });
  }

  protected queueResends(picks: readonly ResendPick[]): Result<ResentDelivery[]> {
    const deliveries = picks.map((pick) => resentView(pick, this.queue(pick.endpoint, { eventId: pick.eventId, type: pick.type, duplicate: false, resendOf: pick.resendOf }, pick.body).id));
    this.saveNow();
    return ok(deliveries);
  }

  /** A new log entry and its job on the endpoint's lane: one path for first deliveries, duplicates and resends. */
  private queue(endpoint: Endpoint, what: Pick<DeliveryLogEntry, "eventId" | "type" | "duplicate" | "resendOf">, body: Buffer): DeliveryLogEntry {
    const entry = newEntry(endpoint, { ...what, state: "queued", queuedAt: new Date(this.now()).toISOString() });
    this.log.add(entry, body);
    const lane = this.lanes.get(endpoint.id);
    if (!lane) throw new Error(`hr-mock webhooks: endpoint ${endpoint.id} has no delivery lane`);
    this.pendingCount++;
    const job: LaneJob = { entry, body, seq: this.seq++ };
    this.unfinished.add(job);
    lane.push(job);
    this.parts.persistence?.changed();
    return entry;
  }

  /** Past the bound on waiting deliveries in all, the lane holding the most drops its oldest. */
  private boundWaiting(): void {
    let total = 0;
    let fullest: DeliveryLane | undefined;
    for (const lane of this.lanes.values()) {
      total += lane.waiting;
      if (!fullest || lane.waiting > fullest.waiting) fullest = lane;
    }
    if (total > this.settings.maxWaiting && !this.dropReason) {
      this.dropReason = `the mock holds ${this.settings.maxWaiting} waiting deliveries in all, its bound`;
      fullest?.dropOldest();
      this.dropReason = undefined;
    }
  }

  private dropped(endpoint: Endpoint, job: LaneJob, why: string): void {
    const count = (this.drops.get(endpoint.id) ?? 0) + 1;
    this.drops.set(endpoint.id, count);
    this.attempts.dropped(endpoint, job.entry, count, this.dropReason ?? why);
  }

  private settled(job: LaneJob): void {
    // A job stopped by close() stays: a state directory keeps it for the next start.
    if (job.entry.state !== "stopped") this.unfinished.delete(job);
    this.parts.persistence?.changed();
    this.pendingCount--;
    if (this.pendingCount > 0) return;
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  /** An answer the caller sees (an endpoint added, a trigger queued) is kept before it is given. */
  private saveNow(): void {
    this.parts.persistence?.changed();
    this.parts.persistence?.flush();
  }

  private now(): number {
    return this.parts.scheduler.now ? this.parts.scheduler.now() : Date.now();
  }
}
