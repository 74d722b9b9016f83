// Publishing, one path for every event type: the trigger changes the dataset and gives the event's
// data, the event is built, checked against its AsyncAPI message schema, and fanned out to each
// endpoint that gets it (twice to some, with the duplicate option). No I/O: `deliver` queues.
import type { components } from "../../generated/control-api.js";
import type { WebhookEvent } from "../../generated/events.js";
import type { OrganizationData } from "../data/dataset.js";
import { subscribes, type Endpoint } from "./endpoints.js";
import { buildEvent } from "./event-body.js";
import { ok, type Result } from "../kernel/results.js";
import { eventProblems } from "../kernel/json-schema.js";
import { buildEventData, type TriggerContext, type TriggerRequest } from "./triggers.js";
import type { EngineSettings } from "./settings.js";

export type QueuedDelivery = components["schemas"]["QueuedDelivery"];
/** The body exactly as delivered, typed by its event type. */
export type TriggerResult = Omit<components["schemas"]["TriggerResult"], "event"> & { event: WebhookEvent };

export interface PublisherParts extends Pick<TriggerContext, "dataset" | "newId">, Pick<EngineSettings, "duplicateRate"> {
  /** The organisation's endpoints, oldest first. */
  endpoints(organizationId: string): readonly Endpoint[];
  /** Queues one delivery of the serialized body to the endpoint. */
  deliver(endpoint: Endpoint, event: WebhookEvent, body: Buffer, duplicate: boolean): QueuedDelivery;
  /** The seeded generator of picks and duplicates. */
  random: () => number;
  /** `occurredAt` texts that never repeat. */
  occurredAt: () => string;
  now: () => Date;
  /** Internal errors, one line each. */
  reportError: (line: string) => void;
}

export type Publish = (org: OrganizationData, request: TriggerRequest) => Result<TriggerResult>;

export function createPublisher(parts: PublisherParts): Publish {
  const pick = <T>(items: readonly T[]): T | undefined => (items.length === 0 ? undefined : items[Math.floor(parts.random() * items.length)]);
  return (org, { type, id, set }) => {
    const endpoints = parts.endpoints(org.id);
    const built = buildEventData(type, { dataset: parts.dataset, org, id, set: set ?? {}, newId: parts.newId, pick, now: parts.now(), endpoints });
    if (!built.ok) return built;
    const event = buildEvent(type, built.value.data, org.id, parts.occurredAt());
    const problems = eventProblems(event);
    if (problems.length > 0) {
      // A bug in the mock: never send a body the contract does not allow.
      parts.reportError(`hr-mock webhooks: ${type} event ${event.id} does not match the AsyncAPI schema and was not sent: ${problems.join("; ")}`);
      throw new Error(`the ${type} event the mock built does not match the AsyncAPI schema, so it was not sent; the mock's log has the details`);
    }
    const body = Buffer.from(JSON.stringify(event), "utf8");
    const deliveries: QueuedDelivery[] = [];
    for (const endpoint of built.value.only ?? endpoints.filter((e) => subscribes(e, type))) {
      deliveries.push(parts.deliver(endpoint, event, body, false));
      if (parts.duplicateRate > 0 && parts.random() < parts.duplicateRate) deliveries.push(parts.deliver(endpoint, event, body, true));
    }
    return ok({ event, deliveries });
  };
}
