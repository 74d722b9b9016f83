// A world's webhook side as the control API and the in-process engine use it. In one process it is
// WebhookService (service.ts, answering at once); with --state redis:// a service whose endpoints,
// log and queue are in Redis and whose attempts any replica may make (answering promises).
import type { Awaitable } from "../kernel/awaitable.js";
import type { Result } from "../kernel/results.js";
import type { AttemptRecord, DeliveryFilter, DeliveryLogEntry, WaitingDelivery } from "./delivery-log.js";
import type { CreatedEndpoint, EndpointInput, EndpointView } from "./endpoints.js";
import type { TriggerResult } from "./publisher.js";
import type { BulkResendResult, ResendFilter, ResendResult } from "./resend.js";
import type { EngineSettings } from "./settings.js";
import type { TriggerInput } from "./triggers.js";

export interface WorldWebhooks {
  readonly settings: EngineSettings;
  addEndpoint(organizationId: string, input: EndpointInput): Awaitable<Result<CreatedEndpoint>>;
  listEndpoints(organizationId: string): Awaitable<EndpointView[]>;
  removeEndpoint(organizationId: string, id: string): Awaitable<Result<EndpointView>>;
  trigger(input: TriggerInput): Awaitable<Result<TriggerResult>>;
  resend(organizationId: string, eventId: string, endpointId?: string): Awaitable<Result<ResendResult>>;
  resendMatching(organizationId: string, filter: ResendFilter): Awaitable<Result<BulkResendResult>>;
  /** Newest first. */
  deliveries(filter?: DeliveryFilter): Awaitable<DeliveryLogEntry[]>;
  /** Calls the listener after every attempt this process makes; returns the function that stops it. */
  onAttempt(listener: (entry: DeliveryLogEntry, attempt: AttemptRecord) => void): () => void;
  /** Resolves when nothing is held, queued, sending or waiting for a retry. */
  idle(): Promise<void>;
  /** Deliveries not finished; where the queue is shared by replicas, this process's attempts in flight. */
  readonly pending: number;
  /** Stops taking triggers and endpoints, lets attempts in flight finish, reports what still waits. */
  close(): Promise<CloseReport>;
  readonly closed: boolean;
}

export interface CloseReport {
  /** Events (per endpoint) still waiting for an attempt or a retry when the engine stopped. */
  waiting: WaitingDelivery[];
}
