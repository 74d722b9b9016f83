// A world as every layer sees it: its dataset, keys and parts (store, journal, webhooks), and what a
// sandbox is made again from. Worlds (world.ts) makes them; the state (state-port.ts) keeps their parts.
import type { ApiKeyOf } from "./api-keys.js";
import type { Dataset } from "../data/dataset.js";
import type { WorldWebhooks } from "../webhooks/port.js";
import type { WorldStore } from "./world-store.js";
import type { WorldJournal } from "./journal/port.js";

/** A key of a world: its organisation, permissions and label, and the world it acts in. */
export type ApiKey = ApiKeyOf<World>;
export type KeyRegistry = ReadonlyMap<string, ApiKey>;

export interface World {
  readonly id: string;
  readonly label: string | null;
  readonly createdAt: string;
  readonly dataset: Dataset;
  /** What a reset brings the dataset back to: the mock's start dataset, or the sandbox's data file's. */
  readonly start: Dataset;
  /** The data file the sandbox was made from, if any (kept so a --state directory can make it again). */
  readonly data?: unknown;
  /** The world's webhook endpoints and delivery log (absent where the mock has no webhooks: MSW). */
  webhooks: WorldWebhooks | undefined;
  /** Its keys' rate-limit counts and its scripted faults: in memory, or shared by replicas (Redis). */
  store: WorldStore;
  /** The requests it answered (bounded), and the counts its coverage report reads. */
  journal: WorldJournal;
  /** Its keys, in the order they were defined. */
  readonly keys: readonly ApiKey[];
  /** The demo key each of a sandbox's keys stands for, by key. */
  readonly demoKeyOf: ReadonlyMap<string, string>;
}

/** What a sandbox needs to be made again with the same id and keys (after a restart). */
export interface SandboxDefinition {
  id: string;
  label: string | null;
  createdAt: string;
  /** Each key with the demo key it stands for. */
  keys: { key: string; demoKey: string }[];
  /** The data file's content the sandbox started from, when it was not the mock's start dataset. */
  data?: unknown;
}

