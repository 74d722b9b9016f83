// What the webhook service hands a `--state` directory (mock/state/), and what it takes back at
// start: it says that something changed and gives live snapshots; the I/O is the state layer's.
import type { WaitingDelivery, DeliveryLogEntry } from "./delivery-log.js";
import type { Endpoint } from "./endpoints.js";
import type { TriggerRequest } from "./triggers.js";

export interface CloseReport {
  /** Events (per endpoint) still waiting for an attempt or a retry when the engine stopped. */
  waiting: WaitingDelivery[];
}

/** Where a `--state` directory keeps the service: told of every change, never doing I/O itself here. */
export interface WebhookPersistence {
  /** Something a snapshot holds changed (endpoints, the log, waiting deliveries). */
  changed(): void;
  /** Writes what changed now (on close). */
  flush(): void;
  /** A trigger changed the dataset: its input, as the service took it, and the time it used. */
  dataChanged(change: DataChange): void;
  /** Where the state is kept, for the close report. */
  where: string;
}

/** A trigger that changed the dataset, enough to replay it on the same start dataset. */
export interface DataChange {
  organizationId: string;
  /** The trigger as the service took it: type, record id, overrides. */
  input: TriggerRequest;
  /** The time the trigger used (a new leave request's request time), ISO. */
  at: string;
}

/** What a state directory keeps of the service: endpoints with their secrets, the log, waiting deliveries. */
export interface WebhookSnapshot {
  endpoints: Endpoint[];
  /** Oldest first. */
  log: DeliveryLogEntry[];
  /** The body of each event in the log, by event id, exactly as it is sent: what a resend sends again. */
  bodies: ReadonlyMap<string, Buffer>;
  /** Deliveries not finished: each the log entry it updates and the body exactly as it is sent. */
  waiting: { entry: DeliveryLogEntry; body: Buffer }[];
}
