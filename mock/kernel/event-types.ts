// The event types of the catalogue (generated from the AsyncAPI document), without the JSON Schema
// set-up: what a command's help and flags need, cheap to load.
import { webhookEventTypes, type WebhookEventType } from "../../generated/events.js";

export const EVENT_TYPES: readonly WebhookEventType[] = webhookEventTypes;
const TYPES: ReadonlySet<string> = new Set(EVENT_TYPES);

export function isEventType(value: unknown): value is WebhookEventType {
  return typeof value === "string" && TYPES.has(value);
}
