// The webhook side of the mock, as startMock wires it: the engine (the control API's operations reach
// each world's service through the request pipeline, mock/control/operations.ts). `attachWebhooks` is the one call mock/index.ts makes.
import type { Dataset } from "../data/dataset.js";
import { WebhookEngine, type TriggerOptions } from "./engine.js";
import type { TriggerResult } from "./publisher.js";
import { WebhookOptionError, type AttemptObserver, type EngineSettings, type WebhookEngineOptions } from "./settings.js";
import type { WorldWebhooks } from "./port.js";
import type { WebhookPersistence } from "./service.js";

export { WebhookEngine, type ResendOptions, type TriggerOptions } from "./engine.js";
export { EndpointError, ResendError, TriggerError, WebhookRefusal } from "./reasons.js";
export type { BulkResendResult, ResendFilter, ResendResult, ResentDelivery } from "./resend.js";
export type { Reason, RefusalKind } from "../kernel/results.js";
export { WebhookOptionError, type AttemptObserver, type EngineSettings, type Scheduler, type WebhookEngineOptions } from "./settings.js";
export type { CloseReport, DataChange, WebhookPersistence, WebhookSnapshot } from "./service.js";
export type { QueuedDelivery, TriggerResult } from "./publisher.js";
export type { CreatedEndpoint, EndpointInput, EndpointView, EventSelection } from "./endpoints.js";
export type { AttemptRecord, DeliveryFilter, DeliveryLogEntry, DeliveryState, WaitingDelivery } from "./delivery-log.js";

/** startMock's `webhooks` option. */
export type MockWebhookOptions = Omit<WebhookEngineOptions, "onError" | "observe">;

export interface AttachedWebhooks {
  engine: WebhookEngine;
  trigger(type: string, options?: TriggerOptions): Promise<TriggerResult>;
}

/** Builds the engine and the control API; throws WebhookOptionError for a bad option. */
export function attachWebhooks(input: {
  dataset: Dataset;
  options?: MockWebhookOptions;
  onError: (line: string) => void;
  /** A state directory's sink (--state); none keeps everything in memory only. */
  persistence?: WebhookPersistence;
  /** The default world's service kept elsewhere (--state redis://), made from the settings. */
  shared?: (settings: EngineSettings) => WorldWebhooks;
  /** Told of every attempt of every world's deliveries made in this process. */
  observe?: AttemptObserver;
}): AttachedWebhooks {
  const options = input.options ?? {};
  if (typeof options !== "object" || options === null) throw new WebhookOptionError("webhooks must be an object of options");
  const engine = new WebhookEngine(input.dataset, { ...options, onError: input.onError, observe: input.observe }, input.persistence, input.shared);
  return {
    engine,
    trigger: (type, triggerOptions) => engine.trigger(type, triggerOptions),
  };
}
