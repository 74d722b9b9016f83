// The mock's webhook event engine (design.md, "The mock, as data flows through it"): a trigger
// changes the dataset as the event implies, builds the event, validates it against the AsyncAPI
// schema, and queues it per subscribed endpoint; each endpoint's lane attempts deliveries with
// its own bounded concurrency, retries failures on the spec's schedule, and logs every attempt.
//
// Time: `timeScale` multiplies the retry delays and the response timeout (10 s in the spec). The
// timeout keeps a floor (`responseTimeoutFloorMs`, default 1 s), because a compressed timeout of
// a few milliseconds would fail healthy receivers: at timeScale 0.001 the retries of two days take
// about 150 s and the timeout is 1 s; at timeScale 1 everything runs at the spec's pace.
import { randomUUID } from "node:crypto";
import type { OutgoingHttpHeaders } from "node:http";
import type { WebhookEvent, WebhookEventType } from "../../generated/events.js";
import { DELIVERY_ID_HEADER, EVENT_ID_HEADER, EVENT_TYPE_HEADER, SIGNATURE_HEADER, sign } from "../../src/webhooks/node/index.js";
import type { Dataset, OrganizationData } from "../data/dataset.js";
import { seededRandom } from "../server/random.js";
import { deliveryHeaders, deliveryRules, eventValidator, isEventType } from "./asyncapi.js";
import { DeliveryLog, snapshot, type AttemptRecord, type DeliveryFilter, type DeliveryLogEntry } from "./delivery-log.js";
import { EndpointLane } from "./endpoint-lane.js";
import { EndpointRegistry, viewOf, type CreatedEndpoint, type Endpoint, type EndpointInput, type EndpointView } from "./endpoints.js";
import { buildEvent, createOccurredAtClock, seededUuids } from "./event-body.js";
import { createAgent, send } from "./send.js";
import { BUILDERS, TriggerError, UUID_PATTERN, type TriggerContext } from "./triggers.js";

export { TriggerError } from "./triggers.js";
export { EndpointError } from "./endpoints.js";

const TEST_MESSAGE = "This is a test event from the HR service mock.";
/** Deliveries listed one per line when the engine closes with some still waiting. */
const MAX_WAITING_LINES = 20;

/** Timers the engine uses; tests may inject their own. */
export interface Scheduler {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realScheduler: Scheduler = {
  setTimeout: (callback, ms) => {
    const timer = setTimeout(callback, ms);
    // A forgotten engine must not keep a process alive; the HTTP server does that while it serves.
    timer.unref();
    return timer;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface WebhookEngineOptions {
  /** Multiplies retry delays and the response timeout; above 0, default 1. 0.001 turns two days into about 150 s. */
  timeScale?: number;
  /** The real service's URL rules: https only, no private or internal hosts. Default false (development mode). */
  strictUrls?: boolean;
  /** Development mode only: accept address literals in private or internal ranges (10.0.0.5, fd00::1). Default false. */
  allowPrivateUrls?: boolean;
  /** Probability 0..1 that an event is delivered twice to an endpoint (same event id, new delivery id). Default 0. */
  duplicateRate?: number;
  /** Hold new events briefly and send them in random order. Default false. */
  shuffle?: boolean;
  /** How long shuffle holds events, milliseconds (not scaled). Default 100. */
  shuffleWindowMs?: number;
  /** Attempts in flight per endpoint at most. Default 10. */
  concurrency?: number;
  /** Lower bound of the scaled response timeout, milliseconds. Default 1000. */
  responseTimeoutFloorMs?: number;
  /** Seed of picks, seeded ids, duplicates and shuffles; default the dataset's seed. */
  seed?: number;
  /** Delivery log size: entries (event × endpoint) kept; default 10,000. */
  logLimit?: number;
  /** One line per delivery attempt (never a secret or a URL's query string). */
  log?: (line: string) => void;
  /** Internal errors, one line each (an event that fails its schema); default stderr. */
  onError?: (line: string) => void;
  scheduler?: Scheduler;
}

export interface TriggerOptions {
  /** The record the event is about (see SUBJECTS in triggers.ts); a suitable one when absent. */
  id?: string;
  /** 1 or 2 (the dataset's position) or an organisation id; default 1. */
  organisation?: number | string;
}

export interface QueuedDelivery {
  endpointId: string;
  url: string;
  duplicate: boolean;
}

export interface TriggerResult {
  /** The body exactly as delivered. */
  event: WebhookEvent;
  /** One entry per delivery queued (an endpoint twice when a duplicate is sent). */
  deliveries: QueuedDelivery[];
}

export interface WaitingDelivery {
  eventId: string;
  type: WebhookEventType;
  endpointId: string;
  url: string;
  duplicate: boolean;
  attempts: number;
  /** When the next attempt would have been due; null when it had not been attempted yet. */
  nextAttemptAt: string | null;
  lastError: string | null;
}

export interface CloseReport {
  /** Events (per endpoint) still waiting for an attempt or a retry when the engine stopped. */
  waiting: WaitingDelivery[];
}

export interface EngineSettings {
  timeScale: number;
  strictUrls: boolean;
  allowPrivateUrls: boolean;
  duplicateRate: number;
  shuffle: boolean;
  concurrency: number;
  /** The response timeout in force: max(floor, spec timeout × timeScale). */
  responseTimeoutMs: number;
  /** Scaled delay before each attempt, milliseconds; the first is 0. */
  retryDelaysMs: number[];
  maxEndpointsPerOrganisation: number;
}

/** Ranges of the numeric options set from the command line too (hr-mock serve's flags use them). */
export const OPTION_RANGES = {
  timeScale: { ok: (x: number) => x > 0 && x <= 100, text: "a number above 0 and at most 100" },
  duplicateRate: { ok: (x: number) => x >= 0 && x <= 1, text: "a number from 0 to 1" },
} as const;

/** A misconfigured engine: one sentence. */
export class WebhookOptionError extends Error {
  override readonly name = "WebhookOptionError";
}

interface Job {
  entry: DeliveryLogEntry;
  body: Buffer;
  lane: EndpointLane<Job>;
  timer?: unknown;
}

type AttemptListener = (entry: DeliveryLogEntry, attempt: AttemptRecord) => void;

export class WebhookEngine {
  readonly settings: EngineSettings;
  private readonly registry: EndpointRegistry;
  private readonly lanes = new Map<string, EndpointLane<Job>>();
  private readonly log: DeliveryLog;
  private readonly jobs = new Set<Job>();
  private readonly listeners = new Set<AttemptListener>();
  private idleWaiters: Array<() => void> = [];
  private readonly random: () => number;
  private readonly newId: () => string;
  private readonly occurredAt = createOccurredAtClock();
  private readonly validate = eventValidator();
  private readonly scheduler: Scheduler;
  private readonly shuffleWindowMs: number;
  private readonly headerNames = deliveryHeaders();
  private closing: Promise<CloseReport> | undefined;

  constructor(
    private readonly dataset: Dataset,
    private readonly options: WebhookEngineOptions = {},
  ) {
    const rules = deliveryRules();
    const timeScale = inRange("timeScale", options.timeScale ?? 1);
    const duplicateRate = inRange("duplicateRate", options.duplicateRate ?? 0);
    const concurrency = options.concurrency ?? 10;
    if (!(Number.isInteger(concurrency) && concurrency >= 1 && concurrency <= 1000)) {
      throw new WebhookOptionError(`concurrency must be a whole number from 1 to 1000, got ${concurrency}`);
    }
    const floor = options.responseTimeoutFloorMs ?? 1000;
    if (!(typeof floor === "number" && Number.isFinite(floor) && floor >= 1)) {
      throw new WebhookOptionError(`responseTimeoutFloorMs must be a number of milliseconds of at least 1, got ${floor}`);
    }
    this.shuffleWindowMs = options.shuffleWindowMs ?? 100;
    if (!(typeof this.shuffleWindowMs === "number" && this.shuffleWindowMs >= 0 && this.shuffleWindowMs <= 60_000)) {
      throw new WebhookOptionError(`shuffleWindowMs must be milliseconds from 0 to 60000, got ${this.shuffleWindowMs}`);
    }
    const logLimit = options.logLimit ?? 10_000;
    if (!(Number.isSafeInteger(logLimit) && logLimit >= 1)) {
      throw new WebhookOptionError(`logLimit must be a whole number of entries of at least 1, got ${logLimit}`);
    }
    this.checkHeaderNames();
    this.settings = Object.freeze({
      timeScale,
      strictUrls: options.strictUrls ?? false,
      allowPrivateUrls: options.allowPrivateUrls ?? false,
      duplicateRate,
      shuffle: options.shuffle ?? false,
      concurrency,
      responseTimeoutMs: Math.max(floor, Math.round(rules.responseTimeoutSeconds * 1000 * timeScale)),
      retryDelaysMs: rules.retryScheduleSeconds.map((s) => s * 1000 * timeScale),
      maxEndpointsPerOrganisation: rules.maxEndpointsPerOrganisation,
    });
    const seed = options.seed ?? dataset.seed;
    this.random = seededRandom(seed ^ 0x5eed);
    this.newId = seededUuids(seed ^ 0x1d5);
    this.scheduler = options.scheduler ?? realScheduler;
    this.registry = new EndpointRegistry({ strictUrls: this.settings.strictUrls, allowPrivateUrls: this.settings.allowPrivateUrls });
    this.log = new DeliveryLog(logLimit);
  }

  // ---- endpoints --------------------------------------------------------------------------

  /** Registers an endpoint; the answer holds the secret, shown this once. Throws EndpointError. */
  addEndpoint(input: EndpointInput, organisation?: number | string): CreatedEndpoint {
    this.assertOpen();
    const org = this.organization(organisation);
    const { endpoint, created } = this.registry.add(org.id, input);
    this.lanes.set(endpoint.id, new EndpointLane<Job>(endpoint, createAgent(endpoint.url, this.settings.concurrency)));
    return created;
  }

  listEndpoints(organisation?: number | string): EndpointView[] {
    return this.registry.list(this.organization(organisation).id).map(viewOf);
  }

  /** Removes an endpoint: its waiting deliveries are cancelled, attempts in flight end normally. Returns it as it was. */
  removeEndpoint(id: string, organisation?: number | string): EndpointView | undefined {
    const endpoint = this.registry.remove(this.organization(organisation).id, id);
    if (!endpoint) return undefined;
    const lane = this.lanes.get(endpoint.id);
    if (lane) {
      // The lane stays known until the engine closes, so close() also waits for its last attempts.
      lane.removed = true;
      this.stopLane(lane, "cancelled");
      if (lane.inFlight === 0) lane.agent.destroy();
    }
    this.checkIdle();
    return viewOf(endpoint);
  }

  /** The Test action: a webhook.test event to this endpoint, whatever its event selection. */
  testEndpoint(id: string, organisation?: number | string): Promise<TriggerResult> {
    return this.trigger("webhook.test", { id, organisation });
  }

  // ---- triggers ---------------------------------------------------------------------------

  /**
   * Changes the dataset as the event implies, builds and validates the event, and queues it for
   * every endpoint of the organisation that receives its type. Throws TriggerError.
   */
  async trigger(type: string, options: TriggerOptions = {}): Promise<TriggerResult> {
    this.assertOpen();
    if (!isEventType(type)) {
      throw new TriggerError(400, "type", `Bad request: type ${JSON.stringify(String(type).slice(0, 60))} is not an event type of the catalogue (type).`);
    }
    if (options.id !== undefined && (typeof options.id !== "string" || !UUID_PATTERN.test(options.id))) {
      throw new TriggerError(400, "id", `Bad request: id must be a uuid, got ${JSON.stringify(String(options.id).slice(0, 60))} (id).`);
    }
    // Ids in events are lower case, as the dataset's are, whatever case the caller typed.
    const id = options.id?.toLowerCase();
    const org = this.organization(options.organisation);

    let targets: Endpoint[];
    let data: unknown;
    if (type === "webhook.test") {
      const endpoint = id !== undefined ? this.registry.get(org.id, id) : this.registry.list(org.id)[0];
      if (!endpoint) {
        throw id !== undefined
          ? new TriggerError(404, "id", `Not found: no webhook endpoint with id ${id} in this organisation (id).`)
          : new TriggerError(409, undefined, "Conflict: this organisation has no webhook endpoint to test; add one first.");
      }
      targets = [endpoint];
      data = { endpointId: endpoint.id, message: TEST_MESSAGE };
    } else {
      const context: TriggerContext = {
        dataset: this.dataset,
        org,
        id,
        newId: this.newId,
        pick: (items) => (items.length === 0 ? undefined : items[Math.floor(this.random() * items.length)]),
        now: new Date(),
      };
      data = (BUILDERS[type] as (ctx: TriggerContext) => unknown)(context);
      targets = this.registry.subscribers(org.id, type);
    }

    const event = buildEvent(type, data as never, {
      apiVersion: deliveryRules().apiVersion,
      occurredAt: this.occurredAt(),
      organizationId: org.id,
    }) as WebhookEvent;
    const problems = this.validate(event);
    if (problems.length > 0) {
      // A bug in the mock: never send a body the contract does not allow.
      this.reportError(`hr-mock webhooks: ${type} event ${event.id} does not match the AsyncAPI schema and was not sent: ${problems.join("; ")}`);
      throw new TriggerError(500, undefined, `Internal error: the ${type} event the mock built does not match the AsyncAPI schema, so it was not sent; the mock's log has the details.`);
    }
    const body = Buffer.from(JSON.stringify(event), "utf8");
    const deliveries: QueuedDelivery[] = [];
    for (const endpoint of targets) {
      const lane = this.lanes.get(endpoint.id);
      if (!lane) continue;
      deliveries.push(this.enqueueNew(event, body, lane, false));
      if (this.settings.duplicateRate > 0 && this.random() < this.settings.duplicateRate) {
        deliveries.push(this.enqueueNew(event, body, lane, true));
      }
    }
    return { event, deliveries };
  }

  // ---- the log ----------------------------------------------------------------------------

  deliveries(filter: DeliveryFilter & { organisation?: number | string } = {}): DeliveryLogEntry[] {
    const organizationId = filter.organizationId ?? (filter.organisation !== undefined ? this.organization(filter.organisation).id : undefined);
    return this.log.find({ ...filter, organizationId }).map(snapshot);
  }

  /** Calls the listener after every attempt; returns the function that stops it. */
  onAttempt(listener: AttemptListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Resolves when nothing is held, queued, sending or waiting for a retry. */
  idle(): Promise<void> {
    if (this.jobs.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Deliveries not finished yet (held, queued, sending or waiting for a retry). */
  get pending(): number {
    return this.jobs.size;
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
    const inFlight: Promise<void>[] = [];
    for (const lane of this.lanes.values()) {
      this.stopLane(lane, "stopped");
      if (lane.inFlight > 0) inFlight.push(new Promise((resolve) => this.onLaneDrained(lane, resolve)));
    }
    await Promise.all(inFlight);
    for (const lane of this.lanes.values()) lane.agent.destroy();
    const waiting = this.log
      .find({ limit: Number.POSITIVE_INFINITY })
      .filter((e) => e.state === "stopped")
      .reverse()
      .map((e) => {
        const last = e.attempts[e.attempts.length - 1];
        return {
          eventId: e.eventId,
          type: e.type,
          endpointId: e.endpointId,
          url: e.url,
          duplicate: e.duplicate,
          attempts: e.attempts.length,
          nextAttemptAt: last?.nextRetryAt ?? null,
          lastError: last ? attemptResult(last) : null,
        };
      });
    this.checkIdle();
    this.logWaiting(waiting);
    return { waiting };
  }

  private readonly drainWaiters = new Map<EndpointLane<Job>, Array<() => void>>();
  private onLaneDrained(lane: EndpointLane<Job>, resolve: () => void): void {
    const list = this.drainWaiters.get(lane) ?? [];
    list.push(resolve);
    this.drainWaiters.set(lane, list);
  }

  /** Ends every job of the lane that is not in flight, with the given final state. */
  private stopLane(lane: EndpointLane<Job>, state: "cancelled" | "stopped"): void {
    if (lane.holdTimer !== undefined) this.scheduler.clearTimeout(lane.holdTimer);
    lane.holdTimer = undefined;
    const waiting = [...lane.held.splice(0), ...lane.queue.drain()];
    for (const job of this.jobs) if (job.lane === lane && job.timer !== undefined) waiting.push(job);
    for (const job of waiting) {
      if (job.timer !== undefined) this.scheduler.clearTimeout(job.timer);
      job.timer = undefined;
      job.entry.state = state;
      if (state === "cancelled") job.entry.nextAttemptAt = null;
      this.jobs.delete(job);
    }
  }

  private enqueueNew(event: WebhookEvent, body: Buffer, lane: EndpointLane<Job>, duplicate: boolean): QueuedDelivery {
    const url = printableUrl(lane.endpoint.url);
    const entry: DeliveryLogEntry = {
      eventId: event.id,
      type: event.type,
      organizationId: event.organizationId,
      endpointId: lane.endpoint.id,
      url,
      duplicate,
      state: "queued",
      queuedAt: new Date().toISOString(),
      nextAttemptAt: null,
      attempts: [],
    };
    this.log.add(entry);
    const job: Job = { entry, body, lane };
    this.jobs.add(job);
    if (this.settings.shuffle) this.hold(job);
    else this.enqueue(job);
    return { endpointId: lane.endpoint.id, url, duplicate };
  }

  private hold(job: Job): void {
    const { lane } = job;
    job.entry.state = "held";
    lane.held.push(job);
    lane.holdTimer ??= this.scheduler.setTimeout(() => {
      lane.holdTimer = undefined;
      const held = lane.held.splice(0);
      // Fisher-Yates with the seeded generator: a run can be reproduced with the same seed.
      for (let i = held.length - 1; i > 0; i--) {
        const j = Math.floor(this.random() * (i + 1));
        [held[i], held[j]] = [held[j], held[i]];
      }
      for (const h of held) this.enqueue(h);
    }, this.shuffleWindowMs);
  }

  private enqueue(job: Job): void {
    job.entry.state = "queued";
    job.lane.queue.push(job);
    this.pump(job.lane);
  }

  private pump(lane: EndpointLane<Job>): void {
    while (!lane.removed && lane.inFlight < this.settings.concurrency && lane.queue.length > 0) {
      const job = lane.queue.shift();
      if (job) void this.attempt(job);
    }
  }

  private async attempt(job: Job): Promise<void> {
    const { entry, lane, body } = job;
    const endpoint = lane.endpoint;
    entry.state = "sending";
    entry.nextAttemptAt = null;
    lane.inFlight++;
    const attemptNumber = entry.attempts.length + 1;
    const deliveryId = randomUUID();
    const startedAt = new Date();
    const headers: OutgoingHttpHeaders = {
      ...this.deliveryHeaders(entry, deliveryId, body, endpoint.secret),
      "Content-Length": body.length,
    };
    const outcome = await send(endpoint.url, lane.agent, headers, body, this.settings.responseTimeoutMs);
    lane.inFlight--;

    const succeeded = outcome.error === undefined && outcome.status !== undefined && outcome.status >= 200 && outcome.status < 300;
    const delay = this.settings.retryDelaysMs[attemptNumber];
    const retry = !succeeded && delay !== undefined && !lane.removed;
    const nextRetryAt = retry ? new Date(Date.now() + delay) : undefined;
    const record: AttemptRecord = {
      attempt: attemptNumber,
      deliveryId,
      startedAt: startedAt.toISOString(),
      durationMs: outcome.durationMs,
      status: outcome.status ?? null,
      error: outcome.error ?? (outcome.status !== undefined && outcome.status >= 300 && outcome.status < 400 ? "redirect not followed" : null),
      answer: outcome.answer ?? null,
      outcome: succeeded ? "succeeded" : "failed",
      nextRetryAt: nextRetryAt?.toISOString() ?? null,
    };
    entry.attempts.push(record);

    if (succeeded) {
      this.finish(job, "succeeded");
    } else if (lane.removed) {
      this.finish(job, "cancelled");
    } else if (!retry) {
      this.finish(job, "failed");
    } else if (this.closing) {
      entry.state = "stopped";
      this.jobs.delete(job);
    } else {
      entry.state = "retry-scheduled";
      entry.nextAttemptAt = record.nextRetryAt;
      job.timer = this.scheduler.setTimeout(() => {
        job.timer = undefined;
        if (this.jobs.has(job)) this.enqueue(job);
      }, delay);
    }
    this.writeLog(entry, record);
    for (const listener of this.listeners) {
      try {
        listener(snapshot(entry), { ...record });
      } catch {
        // A failing observer must not break deliveries.
      }
    }
    if (lane.removed && lane.inFlight === 0) lane.agent.destroy();
    if (lane.inFlight === 0) {
      const waiters = this.drainWaiters.get(lane);
      if (waiters) {
        this.drainWaiters.delete(lane);
        for (const resolve of waiters) resolve();
      }
    }
    if (!this.closing) this.pump(lane);
    this.checkIdle();
  }

  private finish(job: Job, state: "succeeded" | "failed" | "cancelled"): void {
    job.entry.state = state;
    job.entry.nextAttemptAt = null;
    this.jobs.delete(job);
  }

  /** The AsyncAPI headers of one attempt, signed now with the endpoint's secret. */
  private deliveryHeaders(entry: DeliveryLogEntry, deliveryId: string, body: Buffer, secret: string): Record<string, string> {
    return {
      "Content-Type": this.headerNames.contentType,
      "User-Agent": this.headerNames.userAgent,
      [EVENT_ID_HEADER]: entry.eventId,
      [EVENT_TYPE_HEADER]: entry.type,
      [DELIVERY_ID_HEADER]: deliveryId,
      [SIGNATURE_HEADER]: sign(body, secret),
    };
  }

  /** The headers this engine sends must be exactly the ones the AsyncAPI document requires. */
  private checkHeaderNames(): void {
    const sent = Object.keys(this.deliveryHeaders({ eventId: "", type: "webhook.test" } as DeliveryLogEntry, "", Buffer.alloc(0), "whsec_check"));
    const wanted = this.headerNames.names;
    if (sent.length !== wanted.length || !wanted.every((name) => sent.includes(name))) {
      throw new Error(`hr-mock webhooks: the engine sends headers ${sent.join(", ")} but the AsyncAPI document requires ${wanted.join(", ")}`);
    }
  }

  /** On close, the deliveries that will not be sent, so a developer stopping the mock sees them. */
  private logWaiting(waiting: readonly WaitingDelivery[]): void {
    const log = this.options.log;
    if (!log || waiting.length === 0) return;
    log(`webhooks stopped: ${waiting.length} ${waiting.length === 1 ? "delivery was" : "deliveries were"} still waiting and will not be sent:`);
    for (const w of waiting.slice(0, MAX_WAITING_LINES)) {
      const tried = w.attempts === 0 ? "not attempted yet" : `${w.attempts} ${w.attempts === 1 ? "attempt" : "attempts"}, last ${w.lastError}`;
      log(`  ${w.type} ${w.eventId}${w.duplicate ? " (duplicate)" : ""} -> ${w.url} (${tried}${w.nextAttemptAt ? `; next was due at ${w.nextAttemptAt}` : ""})`);
    }
    if (waiting.length > MAX_WAITING_LINES) log(`  … and ${waiting.length - MAX_WAITING_LINES} more (mock.webhooks.close() reports them all)`);
  }

  private writeLog(entry: DeliveryLogEntry, record: AttemptRecord): void {
    if (!this.options.log) return;
    const result = attemptResult(record);
    const next =
      record.outcome === "succeeded"
        ? ""
        : record.nextRetryAt
          ? `; next attempt at ${record.nextRetryAt}`
          : entry.state === "failed"
            ? "; no attempts left"
            : `; ${entry.state}`;
    this.options.log(
      `webhook ${entry.type} ${entry.eventId}${entry.duplicate ? " (duplicate)" : ""} -> ${entry.url} attempt ${record.attempt}: ${record.outcome} (${result}, ${record.durationMs} ms)${next}`,
    );
  }

  private reportError(line: string): void {
    (this.options.onError ?? ((l: string) => process.stderr.write(`${l}\n`)))(line);
  }

  private checkIdle(): void {
    if (this.jobs.size > 0 || this.idleWaiters.length === 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  private assertOpen(): void {
    if (this.closing) throw new TriggerError(503, undefined, "Service unavailable: the mock is shutting down and takes no more webhook endpoints or events.");
  }

  private organization(organisation: number | string | undefined = 1): OrganizationData {
    const orgs = this.dataset.organizations;
    const org = typeof organisation === "number" ? orgs[organisation - 1] : this.dataset.organizationById.get(organisation);
    if (!org) {
      throw new TriggerError(400, undefined, `Bad request: organisation ${JSON.stringify(organisation)} is not 1 to ${orgs.length} nor an organisation id of this dataset.`);
    }
    return org;
  }
}

function inRange(name: keyof typeof OPTION_RANGES, value: unknown): number {
  const range = OPTION_RANGES[name];
  if (typeof value !== "number" || !Number.isFinite(value) || !range.ok(value)) {
    throw new WebhookOptionError(`${name} must be ${range.text}, got ${String(value)}`);
  }
  return value;
}

/** What an attempt got, in a few words: "HTTP 500", "HTTP 302, redirect not followed", "ECONNREFUSED: …". */
function attemptResult(record: AttemptRecord): string {
  const parts = [record.status !== null ? `HTTP ${record.status}` : undefined, record.error ?? undefined].filter((p) => p !== undefined);
  return parts.length > 0 ? parts.join(", ") : "failed";
}

/** Origin and path only: a query string may carry a receiver's token. */
function printableUrl(url: URL): string {
  return `${url.origin}${url.pathname}`;
}
