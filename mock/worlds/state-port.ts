// What the worlds need of the state behind them, whatever keeps it (memory, a --state directory, or
// Redis shared by replicas; mock/state/backend.ts chooses): each world's parts, and the sandboxes'
// register, list, reset and delete, answered at once or with promises (Redis). Through WorldsHere it
// tells Worlds when a world must start again or be forgotten here (a reset here, or another replica's).
import type { Awaitable } from "../kernel/awaitable.js";
import type { WebhookCore } from "../webhooks/core.js";
import type { WorldWebhooks } from "../webhooks/port.js";
import type { WorldJournal } from "./journal/port.js";
import type { SandboxDefinition, World } from "./world-shape.js";
import type { WorldStore } from "./world-store.js";

/** A world's parts, as its state keeps them. */
export interface WorldParts {
  /** Rate-limit counts and scripted faults. */
  store: WorldStore;
  /** The requests it answered. */
  journal: WorldJournal;
  /** Endpoints, deliveries and their log; none where the mock has no webhooks (MSW). */
  webhooks: WorldWebhooks | undefined;
}

/** Where a world's parts are made: the world, its place among the sandboxes made here, and the webhook engine's settings (none: no webhooks). */
export interface WorldPlace {
  world: World;
  /** 0 for the default world, then 1, 2, ... per sandbox made here (it seeds event ids). */
  ordinal: number;
  webhooks: WebhookCore | undefined;
}

/** What the state may do to the worlds of this process. */
export interface WorldsHere {
  /** The world's dataset back at its start here, its cached answers forgotten. */
  restart(world: World): void;
  /** The sandbox no longer known here: its keys stop, its webhooks are retired. */
  forget(world: World): void;
}

export type Registered = { ok: true } | { ok: false; held: number };

export interface WorldsState {
  /** Called once, by Worlds, before any world is made. */
  attach(here: WorldsHere): void;
  /** The parts of a world made here (the default world, a sandbox made or made known). */
  open(place: WorldPlace): WorldParts;
  /** Whether one more sandbox fits within `max`, as far as the state can tell at once (Redis tells at register). */
  room(max: number): Awaitable<Registered>;
  /** Registers a sandbox made here; refused when the mock holds `max` already (with Redis: through every replica). */
  register(definition: SandboxDefinition, max: number): Awaitable<Registered>;
  /** Every sandbox of the mock, oldest first. */
  definitions(): Awaitable<SandboxDefinition[]>;
  definition(id: string): Awaitable<SandboxDefinition | undefined>;
  /** The sandbox a key of the form sbx_… belongs to, if the state knows one. */
  sandboxOfKey(key: string): Awaitable<string | undefined>;
  /** The world back at its start for every replica (its dataset restarted here through WorldsHere); answers its parts from now on. */
  reset(place: WorldPlace): Awaitable<WorldParts>;
  /** The world gone for every replica (its keys stop first); Worlds then forgets it here. */
  remove(world: World): Awaitable<void>;
}
