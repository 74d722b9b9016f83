// What a world's webhook service does whichever store keeps it: organisations opened (or refused
// while closing), events published with one seeded publisher, resends picked from the log, closing
// once. The store's part keeps endpoints, the log and the queue: here (service.ts) or in Redis.
import { randomUUID } from "node:crypto";
import type { WebhookEvent } from "../../generated/events.js";
import type { Dataset, OrganizationData } from "../data/dataset.js";
import type { Awaitable } from "../kernel/awaitable.js";
import { seededRandom } from "../kernel/random.js";
import { ok, refuse, type Result } from "../kernel/results.js";
import type { AttemptListener } from "./attempt.js";
import type { DeliveryFilter, DeliveryLogEntry, LoggedDelivery } from "./delivery-log.js";
import { shownUrl, type Endpoint } from "./endpoints.js";
import { createOccurredAtClock, seededUuids } from "./event-body.js";
import type { CloseReport, WorldWebhooks } from "./port.js";
import { createPublisher, type Publish, type PublisherParts } from "./publisher.js";
import { pickEvent, pickMatching, resentView, type BulkResendResult, type ResendFilter, type ResendPick, type ResendResult, type ResentDelivery } from "./resend.js";
import type { EngineSettings } from "./settings.js";
import type { TriggerInput, TriggerRequest } from "./triggers.js";

export abstract class WebhookServiceBase implements Partial<WorldWebhooks> {
  protected readonly listeners = new Set<AttemptListener>();
  protected readonly random: () => number;
  private readonly newId: () => string;
  private readonly occurredAt = createOccurredAtClock();
  private closing: Promise<CloseReport> | undefined;

  constructor(
    readonly settings: EngineSettings,
    seed: number,
    protected readonly onError: (line: string) => void,
  ) {
    this.random = seededRandom(seed ^ 0x5eed);
    this.newId = seededUuids(seed ^ 0x1d5);
  }

  /** The world's dataset as this process holds it now. */
  protected abstract get dataset(): Dataset;
  /** The organisation's log with the events' bodies (oldest first), and its endpoints. */
  protected abstract logOf(organizationId: string): Awaitable<[readonly LoggedDelivery[], readonly Endpoint[]]>;
  /** Resends queued, each a new log entry linked to the original; kept before the answer is given. */
  protected abstract queueResends(picks: readonly ResendPick[]): Awaitable<Result<ResentDelivery[]>>;
  protected abstract shutDown(): Promise<CloseReport>;
  abstract deliveries(filter?: DeliveryFilter): Awaitable<DeliveryLogEntry[]>;

  /** Sends a logged event again, as the provider's redelivery: the same id and body bytes, a new delivery id, signed when sent. */
  async resend(organizationId: string, eventId: string, endpointId?: string): Promise<Result<ResendResult>> {
    const org = this.open(organizationId);
    if (!org.ok) return org;
    const picked = pickEvent(...(await this.logOf(organizationId)), eventId, endpointId);
    if (!picked.ok) return picked;
    const queued = await this.queueResends(picked.value);
    if (!queued.ok) return queued;
    return ok({ event: JSON.parse(picked.value[0].body.toString("utf8")) as WebhookEvent, deliveries: queued.value });
  }

  /** Sends again, once per event and endpoint, the finished deliveries the filter matches; with dryRun only says which. */
  async resendMatching(organizationId: string, filter: ResendFilter): Promise<Result<BulkResendResult>> {
    const org = this.open(organizationId);
    if (!org.ok) return org;
    const picked = pickMatching(...(await this.logOf(organizationId)), filter, this.settings);
    if (!picked.ok) return picked;
    const { picks, notKept } = picked.value;
    const dryRun = filter.dryRun === true;
    const queued = dryRun ? ok(picks.map((pick) => resentView(pick, null))) : await this.queueResends(picks);
    if (!queued.ok) return queued;
    return ok({ dryRun, count: queued.value.length, notKept, deliveries: queued.value });
  }

  /** Calls the listener after every attempt; returns the function that stops it. */
  onAttempt(listener: AttemptListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): Promise<CloseReport> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  get closed(): boolean {
    return this.closing !== undefined;
  }

  /** A publisher over the dataset as it is now, with this service's seeded picks, ids and clock. */
  protected publisher(parts: Pick<PublisherParts, "endpoints" | "deliver" | "now">): Publish {
    const { dataset, random, newId, occurredAt, onError } = this;
    return createPublisher({ ...parts, dataset, duplicateRate: this.settings.duplicateRate, random, newId, occurredAt, reportError: onError });
  }

  protected open(organizationId: string): Result<OrganizationData> {
    if (this.closing) return refuse("unavailable", "the mock is shutting down and takes no more webhook endpoints or events");
    const org = this.dataset.organizationById.get(organizationId);
    return org ? ok(org) : refuse("invalid", `organisation ${JSON.stringify(organizationId)} is not an organisation of this dataset`);
  }
}

/** A trigger as it is published and kept: ids in events are lower case, as the dataset's are, whatever case the caller typed. */
export function triggerRequest(input: TriggerInput): TriggerRequest {
  return { type: input.type, ...(input.id === undefined ? {} : { id: input.id.toLowerCase() }), ...(input.set === undefined ? {} : { set: input.set }) };
}

/** A new log entry of a delivery to the endpoint: one shape for first deliveries, duplicates and resends. */
export function newEntry(endpoint: Endpoint, what: Pick<DeliveryLogEntry, "eventId" | "type" | "duplicate" | "resendOf" | "state" | "queuedAt">): DeliveryLogEntry {
  // Key order is the control API's Delivery, as lists show it.
  const { eventId, type, duplicate, resendOf, state, queuedAt } = what;
  return { id: randomUUID(), eventId, type, organizationId: endpoint.organizationId, endpointId: endpoint.id, url: shownUrl(endpoint), duplicate, resendOf, state, queuedAt, nextAttemptAt: null, attempts: [] };
}
