// The one seam between the mock and the state behind it: the composition root opens one backend from
// --state (open.ts: memory, a directory, or redis://…), and the rest of the mock sees only this
// interface. Nothing outside mock/state/ asks which backend runs.
import type { Dataset } from "../data/dataset.js";
import type { Worlds } from "../worlds/world.js";
import type { WorldsState } from "../worlds/state-port.js";
import type { SkippedChange } from "./world-files.js";
import type { Fingerprint } from "./store.js";
import type { OperatorLog } from "../kernel/operator-log.js";

export type { Fingerprint } from "./store.js";

/** What openBackend takes; the memory backend reads the rate limit and the journal's bounds alone. */
export interface BackendOptions {
  rateLimit: number | "off";
  /** Requests each world's journal holds (0: off). */
  journalSize: number;
  /** Megabytes all worlds' journals share; default the control document's x-mock-limits. */
  journalMemoryMb?: number;
  /** --state: a directory, or a Redis URL; none: memory. */
  state?: string;
  /** How lines name where `state` came from (HR_MOCK_STATE); default --state. */
  stateNamed?: string;
  /** The password of a Redis address given apart from it, and where it came from (HR_MOCK_REDIS_PASSWORD, a file). */
  password?: { password: string; from: string };
  /** One line per delivery attempt (--log), for deliveries a Redis backend's pump makes. */
  log?: (line: string) => void;
  /** Where a Redis backend tells that its store was lost and is back (default: onError's lines). */
  lifecycle?: OperatorLog["lifecycle"];
  onError(line: string): void;
}

/** Whether the store can be used: reached once since the start, and reachable now. */
export interface Readiness {
  /** The store was reached at least once since the start (memory, directory: true once open). */
  reached: boolean;
  /** The store is reachable now (Redis: its connection is up). */
  reachable: boolean;
}

/** Which store keeps the state, as probes and lines name it: its kind, and (Redis) its address with the password masked. */
export interface StoreName {
  kind: "memory" | "directory" | "redis";
  address?: string;
}

/** What GET /_mock/metrics shows of a store outside the process: whether it answers, and the round trips made to it (by script, or "read"). */
export interface StoreMetrics {
  up: boolean;
  roundTrips: ReadonlyMap<string, number>;
}

/** What startMock's answer tells of the state (RunningMock's `state` and `shared`). */
export interface StateReport {
  /** A --state directory: where, what was restored at start, what a crash left unfinished. */
  state?: { dir: string; restored: { changes: number; endpoints: number; waiting: number }; skipped: SkippedChange[] };
  /** Redis: the store (password masked), and whether it is a Redis Cluster. */
  shared?: { store: string; cluster: boolean };
}

export interface StateBackend extends WorldsState {
  /** The fingerprint the state was made with; undefined for a new (or a memory) state. */
  readonly fingerprint: Fingerprint | undefined;
  /** Checks the start dataset against the state (else a StateError of one line) and brings the default world in line; a new state records the fingerprint. */
  restore(dataset: Dataset, fingerprint: Fingerprint): Promise<void>;
  /** Once the worlds exist: sandboxes kept come back, the default world is in line, deliveries start. */
  start(worlds: Worlds): Promise<void>;
  /** What RunningMock tells of the state. */
  report(): StateReport;
  /** Whether the store's own pump makes the webhook deliveries, their lines printed with the request lines (--log), rather than the engine. */
  readonly pumpsDeliveries: boolean;
  /** Which store it is, for what reports on it (a readiness probe): never to branch on. */
  readonly store: StoreName;
  /** Synchronously: whether the store was reached since the start, and is reachable now. */
  readiness(): Readiness;
  /** The store's series for GET /_mock/metrics; undefined when the state is in this process (memory, a directory): no store to report on. */
  metrics(): StoreMetrics | undefined;
  /** Hands back what this replica holds for the store (journal entries, delivery leases it is not using, what must persist); the backend stays usable. */
  flush(): Promise<void>;
  /** Flushes, stops, and lets go of the store (a directory's lock, Redis's connections). */
  close(): Promise<void>;
}
