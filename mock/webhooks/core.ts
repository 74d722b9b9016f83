// What every webhook service of one mock is made with, whichever state keeps it (mock/state/):
// the settings, the timers, the seed (varied per world by its ordinal) and where lines go, and the
// service in this process over a world's dataset, for the states that keep deliveries in memory.
import type { Dataset } from "../data/dataset.js";
import type { WebhookPersistence, WebhookSnapshot } from "./persistence.js";
import type { WorldWebhooks } from "./port.js";
import type { AttemptObserver, EngineSettings, Scheduler } from "./settings.js";

/** A world's webhook service in this process: what a --state directory snapshots and restores. */
export interface LocalWebhooks extends WorldWebhooks {
  snapshot(): WebhookSnapshot;
  restore(saved: WebhookSnapshot): void;
}

export interface WebhookCore {
  settings: EngineSettings;
  scheduler: Scheduler;
  /** The default world's seed; a sandbox's is varied by its ordinal (seedOf). */
  seed: number;
  /** One line per delivery attempt, and the close report's lines. */
  log?: (line: string) => void;
  onError: (line: string) => void;
  /** Told of every delivery attempt of every world's service (metrics, JSON log lines). */
  observe?: AttemptObserver;
  /** The service in this process over a world's dataset (`ordinal` 0 for the default world), writing through `persistence` when given. */
  local(dataset: Dataset, ordinal: number, persistence?: WebhookPersistence): LocalWebhooks;
}

/** A world's seed: the mock's, varied per sandbox so two sandboxes never send the same event ids. */
export function seedOf(seed: number, ordinal: number): number {
  return seed + ordinal * 0x9e3779b1;
}
