// The webhook side's domain core: endpoints, one delivery lane per endpoint, the publisher and the
// delivery log, for callers whose input was checked where it came in (the control API's edge, the
// in-process facade in engine.ts). Answers are results with reasons; nothing here knows HTTP.
import { randomUUID } from "node:crypto";
import type { OutgoingHttpHeaders } from "node:http";
import type { WebhookEvent } from "../../generated/events.js";
import { webhookHeaders, webhookHeaderValues } from "../../generated/webhook-facts.js";
import { sign } from "../../src/webhooks/node/index.js";
import type { Dataset, OrganizationData } from "../data/dataset.js";
import { seededRandom } from "../server/random.js";
import { attemptLine, DeliveryLog, snapshot, waitingLines, waitingOf, type AttemptRecord, type DeliveryFilter, type DeliveryLogEntry, type WaitingDelivery } from "./delivery-log.js";
import { EndpointRegistry, viewOf, type CreatedEndpoint, type Endpoint, type EndpointInput, type EndpointView } from "./endpoints.js";
import { createOccurredAtClock, seededUuids } from "./event-body.js";
import { DeliveryLane, type LaneJob, type SentAttempt } from "./lane.js";
import { createPublisher, type Publish, type QueuedDelivery, type TriggerResult } from "./publisher.js";
import { ok, refuse, type Result } from "./reasons.js";
import { createAgent, send, type EndpointAgent } from "./send.js";
import type { TriggerInput } from "./triggers.js";
import type { EngineSettings, Scheduler } from "./settings.js";

export interface CloseReport {
  /** Events (per endpoint) still waiting for an attempt or a retry when the engine stopped. */
  waiting: WaitingDelivery[];
}

export interface ServiceParts {
  scheduler: Scheduler;
  seed: number;
  /** One line per delivery attempt, and the close report's lines. */
  log?: (line: string) => void;
  onError: (line: string) => void;
}

type AttemptListener = (entry: DeliveryLogEntry, attempt: AttemptRecord) => void;

interface LaneOfEndpoint {
  lane: DeliveryLane;
  agent: EndpointAgent;
}

export class WebhookService {
  private readonly registry: EndpointRegistry;
  private readonly lanes = new Map<string, LaneOfEndpoint>();
  private readonly log: DeliveryLog;
  private readonly publish: Publish;
  private readonly listeners = new Set<AttemptListener>();
  private readonly random: () => number;
  private pendingCount = 0;
  private idleWaiters: Array<() => void> = [];
  private seq = 0;
  private closing: Promise<CloseReport> | undefined;
  /** Deliveries dropped at a bound, per endpoint id. */
  private readonly drops = new Map<string, number>();
  /** Set while the bound in all (not the endpoint's own) makes a lane drop. */
  private dropReason: string | undefined;

  constructor(
    private readonly dataset: Dataset,
    readonly settings: EngineSettings,
    private readonly parts: ServiceParts,
  ) {
    this.random = seededRandom(parts.seed ^ 0x5eed);
    this.registry = new EndpointRegistry({ strictUrls: settings.strictUrls, allowPrivateUrls: settings.allowPrivateUrls, maxPerOrganisation: settings.maxEndpointsPerOrganisation });
    this.log = new DeliveryLog(settings.logLimit);
    this.publish = createPublisher({
      dataset,
      endpoints: (organizationId) => this.registry.list(organizationId),
      deliver: (endpoint, event, body, duplicate) => this.deliver(endpoint, event, body, duplicate),
      duplicateRate: settings.duplicateRate,
      random: this.random,
      newId: seededUuids(parts.seed ^ 0x1d5),
      occurredAt: createOccurredAtClock(),
      now: () => new Date(this.now()),
      reportError: parts.onError,
    });
  }

  // ---- endpoints --------------------------------------------------------------------------

  /** Registers an endpoint; the answer holds the secret, shown this once. */
  addEndpoint(organizationId: string, input: EndpointInput): Result<CreatedEndpoint> {
    const org = this.open(organizationId);
    if (!org.ok) return org;
    const added = this.registry.add(organizationId, input);
    if (!added.ok) return added;
    const { endpoint, created } = added.value;
    this.lanes.set(endpoint.id, this.laneFor(endpoint));
    return ok(created);
  }

  listEndpoints(organizationId: string): EndpointView[] {
    return this.registry.list(organizationId).map(viewOf);
  }

  /** Removes an endpoint: its waiting deliveries are cancelled, attempts in flight end normally. Returns it as it was. */
  removeEndpoint(organizationId: string, id: string): Result<EndpointView> {
    const endpoint = this.registry.remove(organizationId, id);
    if (!endpoint) return refuse("not-found", `no webhook endpoint with id ${id} in this organisation`, "id");
    this.lanes.get(endpoint.id)?.lane.remove();
    return ok(viewOf(endpoint));
  }

  // ---- events -----------------------------------------------------------------------------

  /** Publishes an event of the type about the record `id` (any letter case), or a picked one, with the overrides of `set`. */
  trigger(input: TriggerInput): Result<TriggerResult> {
    const org = this.open(input.organizationId);
    if (!org.ok) return org;
    // Ids in events are lower case, as the dataset's are, whatever case the caller typed.
    return this.publish(org.value, { type: input.type, id: input.id?.toLowerCase(), set: input.set });
  }

  // ---- the log ----------------------------------------------------------------------------

  deliveries(filter: DeliveryFilter = {}): DeliveryLogEntry[] {
    return this.log.find(filter).map(snapshot);
  }

  /** Calls the listener after every attempt; returns the function that stops it. */
  onAttempt(listener: AttemptListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Resolves when nothing is held, queued, sending or waiting for a retry. */
  idle(): Promise<void> {
    if (this.pendingCount === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Deliveries not finished yet (held, queued, sending or waiting for a retry). */
  get pending(): number {
    return this.pendingCount;
  }

  /**
   * Stops taking triggers and endpoints, lets attempts in flight finish (each ends by the
   * response timeout) and reports what was still waiting. Calling it again gives the same report.
   */
  close(): Promise<CloseReport> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  get closed(): boolean {
    return this.closing !== undefined;
  }

  // ---- internals --------------------------------------------------------------------------

  private async shutDown(): Promise<CloseReport> {
    const lanes = [...this.lanes.values()];
    for (const { lane } of lanes) lane.stop();
    await Promise.all(lanes.map(({ lane }) => lane.drained()));
    for (const { agent } of lanes) agent.destroy();
    const waiting = lanes
      .flatMap(({ lane }) => lane.unsent)
      .sort((a, b) => a.seq - b.seq)
      .map((job) => waitingOf(job.entry));
    // Always said, with or without a delivery log line per attempt: nothing is dropped without a word.
    const say = this.parts.log ?? this.parts.onError;
    for (const line of waitingLines(waiting)) say(line);
    return { waiting };
  }

  private laneFor(endpoint: Endpoint): LaneOfEndpoint {
    const agent = createAgent(endpoint.url, this.settings.concurrency);
    const lane = new DeliveryLane({
      send: (job) => this.attempt(endpoint, agent, job),
      scheduler: this.parts.scheduler,
      retryDelaysMs: this.settings.retryDelaysMs,
      concurrency: this.settings.concurrency,
      maxWaiting: this.settings.maxWaitingPerEndpoint,
      onWaiting: () => this.boundWaiting(),
      onDropped: (job) => this.dropped(endpoint, job, `its ${this.settings.maxWaitingPerEndpoint} waiting deliveries are the most an endpoint holds`),
      shuffle: this.settings.shuffle ? { windowMs: this.settings.shuffleWindowMs, random: this.random } : undefined,
      onAttempt: (entry, record) => this.attempted(entry, record),
      onSettled: () => this.settled(),
      onReleased: () => {
        // Removed and quiet: the lane and its connections go (close() need not wait for it).
        agent.destroy();
        this.lanes.delete(endpoint.id);
        this.drops.delete(endpoint.id);
      },
    });
    return { lane, agent };
  }

  private deliver(endpoint: Endpoint, event: WebhookEvent, body: Buffer, duplicate: boolean): QueuedDelivery {
    // Origin and path only: a query string may carry a receiver's token.
    const url = `${endpoint.url.origin}${endpoint.url.pathname}`;
    const entry: DeliveryLogEntry = {
      eventId: event.id,
      type: event.type,
      organizationId: event.organizationId,
      endpointId: endpoint.id,
      url,
      duplicate,
      state: "queued",
      queuedAt: new Date(this.now()).toISOString(),
      nextAttemptAt: null,
      attempts: [],
    };
    this.log.add(entry);
    const lane = this.lanes.get(endpoint.id)?.lane;
    if (!lane) throw new Error(`hr-mock webhooks: endpoint ${endpoint.id} has no delivery lane`);
    this.pendingCount++;
    lane.push({ entry, body, seq: this.seq++ });
    return { endpointId: endpoint.id, url, duplicate };
  }

  /** Past the bound on waiting deliveries in all, the lane holding the most drops its oldest. */
  private boundWaiting(): void {
    let total = 0;
    let fullest: DeliveryLane | undefined;
    for (const { lane } of this.lanes.values()) {
      total += lane.waiting;
      if (!fullest || lane.waiting > fullest.waiting) fullest = lane;
    }
    if (total > this.settings.maxWaiting && !this.dropReason) {
      this.dropReason = `the mock holds ${this.settings.maxWaiting} waiting deliveries in all, its bound`;
      fullest?.dropOldest();
      this.dropReason = undefined;
    }
  }

  /**
   * A delivery dropped at a bound: its log entry says "dropped"; a line on the error output says
   * so on an endpoint's 1st, 10th, 100th... drop, so a flood of them is a few lines, never silence.
   */
  private dropped(endpoint: Endpoint, job: LaneJob, why: string): void {
    const count = (this.drops.get(endpoint.id) ?? 0) + 1;
    this.drops.set(endpoint.id, count);
    if (Number.isInteger(Math.log10(count))) {
      const url = `${endpoint.url.origin}${endpoint.url.pathname}`;
      this.parts.onError(`hr-mock: webhooks: dropped the oldest waiting delivery for ${url} (${job.entry.type} ${job.entry.eventId}; ${count} dropped so far): ${this.dropReason ?? why}.`);
    }
  }

  /** One attempt on the wire, signed now with the endpoint's secret. */
  private async attempt(endpoint: Endpoint, agent: EndpointAgent, { entry, body }: LaneJob): Promise<SentAttempt> {
    const deliveryId = randomUUID();
    const startedAt = new Date(this.now()).toISOString();
    const headers: OutgoingHttpHeaders = {
      ...webhookHeaderValues,
      [webhookHeaders.serviceEventId]: entry.eventId,
      [webhookHeaders.serviceEventType]: entry.type,
      [webhookHeaders.serviceDeliveryId]: deliveryId,
      [webhookHeaders.serviceSignature]: sign(body, endpoint.secret),
      "Content-Length": body.length,
    };
    const outcome = await send(endpoint.url, agent, headers, body, this.settings.responseTimeoutMs);
    return { ...outcome, deliveryId, startedAt };
  }

  private attempted(entry: DeliveryLogEntry, record: AttemptRecord): void {
    this.parts.log?.(attemptLine(entry, record));
    for (const listener of this.listeners) {
      try {
        listener(snapshot(entry), { ...record });
      } catch {
        // A failing observer must not break deliveries.
      }
    }
  }

  private settled(): void {
    this.pendingCount--;
    if (this.pendingCount > 0) return;
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  private open(organizationId: string): Result<OrganizationData> {
    if (this.closing) return refuse("unavailable", "the mock is shutting down and takes no more webhook endpoints or events");
    const org = this.dataset.organizationById.get(organizationId);
    return org ? ok(org) : refuse("invalid", `organisation ${JSON.stringify(organizationId)} is not an organisation of this dataset`);
  }

  private now(): number {
    return this.parts.scheduler.now ? this.parts.scheduler.now() : Date.now();
  }
}
