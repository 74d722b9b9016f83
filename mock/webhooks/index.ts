// The webhook side of the mock, as startMock wires it: the core every world's service is made with
// (its state makes each one, mock/state/), and the engine over the default world's service.
import { webhookCore } from "./engine.js";
import type { WebhookCore } from "./core.js";
import { WebhookOptionError, type AttemptObserver, type WebhookEngineOptions } from "./settings.js";

export { WebhookEngine, type ResendOptions, type TriggerOptions } from "./engine.js";
export type { WebhookCore } from "./core.js";
export { EndpointError, ResendError, TriggerError, WebhookRefusal } from "./reasons.js";
export type { BulkResendResult, ResendFilter, ResendResult } from "./resend.js";
export { WebhookOptionError, type AttemptObserver, type Scheduler } from "./settings.js";
export type { TriggerResult } from "./publisher.js";
export type { DeliveryLogEntry } from "./delivery-log.js";

/** startMock's `webhooks` option. */
export type MockWebhookOptions = Omit<WebhookEngineOptions, "onError" | "observe">;

/** The core of startMock's webhook services from its `webhooks` option; throws WebhookOptionError for a bad option. */
export function mockWebhookCore(seed: number, options: MockWebhookOptions | undefined, onError: (line: string) => void, observe?: AttemptObserver): WebhookCore {
  const given = options ?? {};
  if (typeof given !== "object" || given === null) throw new WebhookOptionError("webhooks must be an object of options");
  return webhookCore(seed, { ...given, onError, observe });
}
