// What every webhook service of one mock is made with, whichever state keeps it (mock/state/): the
// settings, the timers, the seed (varied per world) and where lines go, and the service in this
// process; and what that service hands a `--state` directory, whose I/O is the state layer's.
import type { Dataset } from "../data/dataset.js";
import type { DeliveryLogEntry } from "./delivery-log.js";
import type { Endpoint } from "./endpoints.js";
import type { WorldWebhooks } from "./port.js";
import type { EngineSettings, Scheduler, WebhookEngineOptions } from "./settings.js";
import type { TriggerRequest } from "./triggers.js";

/** A world's webhook service in this process: what a --state directory snapshots and restores. */
export interface LocalWebhooks extends WorldWebhooks {
  snapshot(): WebhookSnapshot;
  restore(saved: WebhookSnapshot): void;
}

/** `log` takes the close report's lines too. */
export interface WebhookCore extends Pick<WebhookEngineOptions, "log" | "observe"> {
  settings: EngineSettings;
  scheduler: Scheduler;
  /** The default world's seed; a sandbox's is varied by its ordinal (seedOf). */
  seed: number;
  onError: (line: string) => void;
  /** The service in this process over a world's dataset (`ordinal` 0 for the default world), writing through `persistence` when given. */
  local(dataset: Dataset, ordinal: number, persistence?: WebhookPersistence): LocalWebhooks;
}

/** A world's seed: the mock's, varied per sandbox so two sandboxes never send the same event ids. */
export function seedOf(seed: number, ordinal: number): number {
  return seed + ordinal * 0x9e3779b1;
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
