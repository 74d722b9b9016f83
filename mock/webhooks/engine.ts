// The webhook engine as startMock hands it out (`mock.webhooks`, `mock.trigger`): a facade over the
// default world's service for in-process callers. Their input meets no HTTP edge, so it is checked
// here against the control API schemas an HTTP caller's body meets; a refusal is thrown carrying the
// reason. The control API calls `service` directly, its input checked at its edge.
import type { Dataset, OrganizationData } from "../data/dataset.js";
import { organizationAt } from "../data/lazy-organizations.js";
import type { AttemptRecord, DeliveryFilter, DeliveryLogEntry } from "./delivery-log.js";
import type { CreatedEndpoint, EndpointInput, EndpointView } from "./endpoints.js";
import type { TriggerResult } from "./publisher.js";
import { refuse, type Reason, type Result } from "../kernel/results.js";
import type { Awaitable } from "../kernel/awaitable.js";
import { EndpointError, ResendError, TriggerError, valueOr, type WebhookRefusal } from "./reasons.js";
import type { BulkResendResult, ResendFilter, ResendResult } from "./resend.js";
import { requestProblem, type RequestSchema } from "../kernel/json-schema.js";
import { WebhookService } from "./service.js";
import { seedOf, type WebhookCore } from "./core.js";
import type { CloseReport, WorldWebhooks } from "./port.js";
import type { TriggerRequest } from "./triggers.js";
import { realScheduler, resolveSettings, type EngineSettings, type WebhookEngineOptions } from "./settings.js";

export interface ResendOptions {
  /** Only to this endpoint (one that receives the event's type, or was sent the event before). */
  endpointId?: string;
  /** 1 or 2 (the dataset's position) or an organisation id; default 1. */
  organisation?: number | string;
}

export interface TriggerOptions extends Pick<ResendOptions, "organisation"> {
  /** The record the event is about (triggerSubjects in generated/control-facts.ts); a suitable one when absent. */
  id?: string;
  /** Fields of the record the trigger creates (the control API's TriggerRequest `set`, per type). */
  set?: Record<string, unknown>;
}

/** The core every world's service is made with; WebhookOptionError names a bad option. */
export function webhookCore(seed: number, options: WebhookEngineOptions = {}): WebhookCore {
  const settings = resolveSettings(options);
  const core: WebhookCore = {
    settings,
    scheduler: options.scheduler ?? realScheduler,
    seed: options.seed ?? seed,
    log: options.log,
    observe: options.observe,
    onError: options.onError ?? ((line) => process.stderr.write(`${line}\n`)),
    local: (dataset, ordinal, persistence) => new WebhookService(dataset, settings, { ...core, persistence, seed: seedOf(core.seed, ordinal) }),
  };
  return core;
}

export class WebhookEngine {
  readonly settings: EngineSettings;
  /** For callers whose input was checked at their own edge (the control API). */
  readonly service: WorldWebhooks;

  /** Over the default world's service as its state made it, or over one made here from the options. */
  constructor(
    private readonly dataset: Dataset,
    options: WebhookEngineOptions | { core: WebhookCore; service: WorldWebhooks } = {},
  ) {
    const made = "core" in options ? options : undefined;
    const core = made?.core ?? webhookCore(dataset.seed, options as WebhookEngineOptions);
    this.settings = core.settings;
    this.service = made?.service ?? core.local(dataset, 0);
  }

  /** Registers an endpoint; the answer holds the secret, shown this once. Throws EndpointError. */
  addEndpoint(input: EndpointInput, organisation?: number | string): Promise<CreatedEndpoint> {
    return this.checked("AddEndpointRequest", input, organisation, EndpointError, (id) => this.service.addEndpoint(id, input));
  }

  async listEndpoints(organisation?: number | string): Promise<EndpointView[]> {
    return this.service.listEndpoints(valueOr(this.organization(organisation), EndpointError).id);
  }

  /** Removes an endpoint: its waiting deliveries are cancelled, attempts in flight end normally. Returns it as it was, or undefined. */
  async removeEndpoint(id: string, organisation?: number | string): Promise<EndpointView | undefined> {
    const removed = await this.service.removeEndpoint(valueOr(this.organization(organisation), EndpointError).id, id);
    return removed.ok ? removed.value : undefined;
  }

  /** The Test action: a webhook.test event to this endpoint, whatever its event selection. Rejects with a TriggerError. */
  testEndpoint(id: string, organisation?: number | string): Promise<TriggerResult> {
    return this.trigger("webhook.test", { id, organisation });
  }

  /** Changes the dataset as the event implies and queues the event for every endpoint that receives its type. Rejects with a TriggerError. */
  trigger(type: string, options: TriggerOptions = {}): Promise<TriggerResult> {
    const request = { type, ...(options.id === undefined ? {} : { id: options.id }), ...(options.set === undefined ? {} : { set: options.set }) };
    return this.checked("TriggerRequest", request, options.organisation, TriggerError, (id) => this.service.trigger({ ...(request as TriggerRequest), organizationId: id }));
  }

  /**
   * Sends an event of the log again, as the provider's redelivery (same id and bytes, a new delivery
   * id): to `endpointId` only, or to every endpoint it went to that is still registered. Rejects with
   * a ResendError (kind "not-found" for an event the organisation's log lacks).
   */
  resend(eventId: string, options: ResendOptions = {}): Promise<ResendResult> {
    const request = options.endpointId === undefined ? {} : { endpointId: options.endpointId };
    return this.checked("ResendRequest", request, options.organisation, ResendError, (id) => this.service.resend(id, String(eventId), options.endpointId));
  }

  /** Sends again, once per event and endpoint, the finished deliveries the filter matches (dryRun: only says which); past the bounds on waiting deliveries, a ResendError. */
  resendMatching(filter: ResendFilter & { organisation?: number | string } = {}): Promise<BulkResendResult> {
    const { organisation, ...request } = filter;
    return this.checked("BulkResendRequest", request, organisation, ResendError, (id) => this.service.resendMatching(id, request));
  }

  async deliveries(filter: DeliveryFilter & { organisation?: number | string } = {}): Promise<DeliveryLogEntry[]> {
    const organizationId = filter.organizationId ?? (filter.organisation !== undefined ? valueOr(this.organization(filter.organisation), TriggerError).id : undefined);
    return this.service.deliveries({ ...filter, organizationId });
  }

  onAttempt(listener: (entry: DeliveryLogEntry, attempt: AttemptRecord) => void): () => void {
    return this.service.onAttempt(listener);
  }

  idle(): Promise<void> {
    return this.service.idle();
  }

  get pending(): number {
    return this.service.pending;
  }

  close(): Promise<CloseReport> {
    return this.service.close();
  }

  get closed(): boolean {
    return this.service.closed;
  }

  /** The call's value once the request met its schema and the organisation was found; else the refusal thrown as `ErrorClass`. */
  private async checked<T>(schema: RequestSchema, request: unknown, organisation: number | string | undefined, ErrorClass: new (reason: Reason) => WebhookRefusal, call: (organizationId: string) => Awaitable<Result<T>>): Promise<T> {
    const problem = requestProblem(schema, request);
    if (problem) throw new ErrorClass(problem);
    const org = valueOr(this.organization(organisation), ErrorClass);
    return valueOr(await call(org.id), ErrorClass);
  }

  /** An organisation named by position (1, 2) or id, as in-process callers name it. */
  private organization(organisation: number | string = 1): Result<OrganizationData> {
    const org = typeof organisation === "number" ? organizationAt(this.dataset, organisation) : this.dataset.organizationById.get(organisation);
    if (org) return { ok: true, value: org };
    return refuse("invalid", `organisation ${JSON.stringify(organisation)} is not 1 to ${this.dataset.organizationIds.length} nor an organisation id of this dataset`);
  }
}
