// The three ways a replica works with Redis, chosen once when the backend opens (index.ts):
//   cluster             every request asks Redis, and its record goes with the admission, before
//                       the answer (a Cluster has no tracking of keys across nodes here);
//   single server       records go a little after their answers, in batches (late-records.ts), and
//                       a journal read first has every replica send what it holds;
//   single server, no rate limit
//                       as the single server, and a request asks Redis nothing while Redis has not
//                       said the world changed (tracking.ts): it is admitted here.
// The world state, the journal and the backend call the mode's methods; none of them asks which.
import type { JournalEntry } from "../../worlds/journal/entry.js";
import type { AdmitRequest, WorldAdmission } from "../../worlds/world-store.js";
import type { RedisLink } from "./connection.js";
import type { WorldKeys } from "./keys.js";
import { LateRecords, type RecordedWorld } from "./late-records.js";
import type { Scripts } from "./scripts.js";
import { Tracking } from "./tracking.js";

/** A world as the mode sees it: where it is in Redis, and the generation and changes this replica holds. */
export interface ModeWorld extends RecordedWorld {
  readonly n: number;
}

export interface RedisMode {
  readonly name: "cluster" | "single server" | "single server, no rate limit";
  /** An admission answered here without asking Redis, or undefined: Redis answers. */
  admitHere(world: ModeWorld, request: AdmitRequest): WorldAdmission | undefined;
  /** Whether records go after their answers (recordLate), rather than with the admission script. */
  readonly recordsLate: boolean;
  /** Takes a record to send after the answer (recordsLate), or sends it now through `now`. */
  record(world: RecordedWorld, entry: JournalEntry, now: () => void | Promise<void>): void | Promise<void>;
  /** Resolves once every replica would see a change just made here. */
  told(world: RecordedWorld): Promise<void>;
  /** Resolves once every replica has sent what it holds of the world's journal. */
  barrier(worldId: string): Promise<void>;
  /** The world is gone here: what this replica held of it for Redis goes too. */
  leave(world: RecordedWorld): void;
  /** What this replica holds for Redis sent now. */
  flush(): Promise<void>;
  close(): void;
}

export interface ModeOptions {
  rateLimit: number | "off";
  journalCapacity: number;
  onError(line: string): void;
}

/** The mode of this link: a Cluster, or a single server with or without the rate limit. */
export async function chooseMode(link: RedisLink, scripts: Scripts, options: ModeOptions): Promise<RedisMode> {
  if (link.cluster) return new ClusterMode();
  const tracking = new Tracking(link);
  const late = new LateRecords({ link, scripts, tracking, capacity: options.journalCapacity, onError: options.onError });
  await tracking.open();
  return options.rateLimit === "off" ? new UnlimitedSingleServerMode(tracking, late, scripts) : new SingleServerMode(tracking, late);
}

class ClusterMode implements RedisMode {
  readonly name = "cluster";
  readonly recordsLate = false;
  admitHere(): undefined {
    return undefined;
  }
  record(_world: RecordedWorld, _entry: JournalEntry, now: () => void | Promise<void>): void | Promise<void> {
    return now();
  }
  async told(): Promise<void> {}
  async barrier(): Promise<void> {}
  leave(): void {}
  async flush(): Promise<void> {}
  close(): void {}
}

class SingleServerMode implements RedisMode {
  readonly name: RedisMode["name"] = "single server";
  readonly recordsLate = true;

  constructor(
    protected readonly tracking: Tracking,
    private readonly late: LateRecords,
  ) {}

  admitHere(_world: ModeWorld, _request: AdmitRequest): WorldAdmission | undefined {
    return undefined;
  }

  record(world: RecordedWorld, entry: JournalEntry): void {
    this.late.push(world, entry);
  }

  async told(world: RecordedWorld): Promise<void> {
    // Not taken as current here until read again. The change stands whatever happens to the
    // telling: a replica not told hears of it from Redis.
    this.tracking.changed(world.keys);
    await this.late.barrier(world.world.id).catch(() => undefined);
  }

  barrier(worldId: string): Promise<void> {
    return this.late.barrier(worldId);
  }

  leave(world: RecordedWorld): void {
    this.late.forget(world.world.id);
    this.tracking.drop(world.keys);
  }

  flush(): Promise<void> {
    return this.late.flushAll();
  }

  close(): void {
    this.tracking.close();
  }
}

class UnlimitedSingleServerMode extends SingleServerMode {
  override readonly name = "single server, no rate limit";

  constructor(
    tracking: Tracking,
    late: LateRecords,
    private readonly scripts: Scripts,
  ) {
    super(tracking, late);
  }

  /** Here, while Redis holds the world as this replica does, without faults, and would say at once if that changed. */
  override admitHere(world: ModeWorld, request: AdmitRequest): WorldAdmission | undefined {
    if (!this.current(world.keys, world)) return undefined;
    if (!request.permitted) return { kind: "forbidden" };
    const entry = request.entryIfAdmitted?.();
    if (entry) this.record(world, entry);
    return { kind: "admitted", recorded: entry !== undefined };
  }

  private current(keys: WorldKeys, world: ModeWorld): boolean {
    const facts = this.tracking.facts(keys);
    return facts !== undefined && facts.gen === world.gen && facts.n === world.n && !facts.gone && facts.faults === 0 && this.scripts.up;
  }
}
