// Journal records on their way to Redis, on a single server: a replica's records go together,
// LATE_MS after the first or once MOST are held, one script call for many requests (with requests
// admitted here without asking Redis, tracking.ts, asking before each answer had cost a round trip
// per turn of the event loop). A reader of a journal (GET /_mock/requests, coverage, verify, a
// clear) first asks every replica to send what it holds for the world, on the flush channel, and
// reads once each has said it did (or after BARRIER_MS, for a replica that does not answer): a
// request answered before the read is in it, whichever replica answered it. Through an outage of
// the store, batches are kept (at most about the journal's capacity per world) and sent again, in
// order, when it answers: each is numbered in the replica's sequence for the world, and Redis keeps
// none twice (a batch whose answer was lost to a hung server ran when it woke). The script drops
// records of a generation the world has left (a reset, a delete), as the journal itself was.
import { randomUUID } from "node:crypto";
import { StoreUnavailableError } from "../../kernel/store-unavailable.js";
import type { JournalEntry } from "../../worlds/journal/entry.js";
import type { RedisLink } from "./connection.js";
import { recordArgs } from "./record-args.js";
import { RECORDS_PER_CALL } from "./batch.js";
import { flushChannels, type WorldKeys } from "./keys.js";
import type { Scripts } from "./scripts.js";
import type { Tracking } from "./tracking.js";

/** How long a record waits for others before it goes. */
const LATE_MS = 10;
const MOST = RECORDS_PER_CALL;
/** How long a reader waits for the replicas' word that they sent what they held. */
export const BARRIER_MS = 1000;

/** A world as its records need it: where they go, and the generation they belong to. */
export interface RecordedWorld {
  readonly world: { readonly id: string };
  readonly keys: WorldKeys;
  readonly gen: number;
}

interface Held {
  keys: WorldKeys;
  /** Not yet in a batch, oldest first. */
  records: { gen: number; entry: JournalEntry }[];
  /** Batches made and not yet kept by Redis, in their order. */
  batches: { seq: number; gen: number; count: number; args: (string | number)[] }[];
  /** The last batch's number. */
  seq: number;
  /** The sending so far: sends of one world go one after the other, in order. */
  sent: Promise<void>;
}

interface Barrier {
  heard: number;
  /** How many replicas were asked, once PUBLISH has answered. */
  asked?: number;
  done(): void;
}

export interface LateRecordsParts {
  link: RedisLink;
  scripts: Scripts;
  tracking: Tracking;
  capacity: number;
  onError(line: string): void;
}

export class LateRecords {
  private readonly worlds = new Map<string, Held>();
  private readonly barriers = new Map<string, Barrier>();
  private readonly channels: { flush: string; flushed: string };
  private timer: NodeJS.Timeout | undefined;
  /** This replica, in the recorders' keys. */
  private readonly replica = randomUUID();

  constructor(private readonly parts: LateRecordsParts) {
    this.channels = flushChannels(parts.link.address.db);
    parts.tracking.listen(this.channels.flush, (message) => void this.asked(message));
    parts.tracking.listen(this.channels.flushed, (nonce) => this.heard(nonce));
    parts.link.onChange((up) => {
      if (up) void this.flushAll();
    });
  }

  /** Holds the record of a request the world's replica answered; it goes soon. */
  push(at: RecordedWorld, entry: JournalEntry): void {
    if (this.parts.capacity === 0) return;
    let held = this.worlds.get(at.world.id);
    if (!held) this.worlds.set(at.world.id, (held = { keys: at.keys, records: [], batches: [], seq: 0, sent: Promise.resolve() }));
    held.records.push({ gen: at.gen, entry });
    if (held.records.length >= MOST) void this.flush(at.world.id);
    else if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        void this.flushAll();
      }, LATE_MS);
    }
  }

  /** Sends what this replica holds for the world; answers when it is in Redis (or kept, the store being down). */
  flush(worldId: string): Promise<void> {
    const held = this.worlds.get(worldId);
    if (!held) return Promise.resolve();
    if (held.records.length === 0 && held.batches.length === 0) return held.sent;
    this.batch(held);
    held.sent = held.sent.then(() => this.send(held));
    return held.sent;
  }

  /** What every replica held for the world is in Redis: a reader's view then holds every request answered before it. */
  async barrier(worldId: string): Promise<void> {
    await this.flush(worldId);
    if (!this.parts.tracking.ready) return;
    const nonce = randomUUID();
    let timer: NodeJS.Timeout | undefined;
    const barrier: Barrier = { heard: 0, done: () => undefined };
    const all = new Promise<void>((resolve) => {
      barrier.done = resolve;
      timer = setTimeout(resolve, BARRIER_MS);
    });
    this.barriers.set(nonce, barrier);
    try {
      barrier.asked = await this.parts.scripts.read((client) => client.publish(this.channels.flush, `${worldId} ${nonce}`));
      if (barrier.heard >= barrier.asked) barrier.done();
      await all;
    } finally {
      clearTimeout(timer);
      this.barriers.delete(nonce);
    }
  }

  /** The world gone here: what it held is not sent (the script would drop it). */
  forget(worldId: string): void {
    this.worlds.delete(worldId);
  }

  /** Sends everything held (stopping: nothing answered is left behind). */
  async flushAll(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await Promise.all([...this.worlds.keys()].map((worldId) => this.flush(worldId)));
  }

  /** Another replica (or this one) reads a journal: this replica sends what it holds, then says so. */
  private async asked(message: string): Promise<void> {
    const [worldId, nonce] = message.split(" ");
    await this.flush(worldId);
    await this.parts.scripts.read((client) => client.publish(this.channels.flushed, nonce)).catch(() => undefined);
  }

  private heard(nonce: string): void {
    const barrier = this.barriers.get(nonce);
    if (!barrier) return;
    barrier.heard++;
    if (barrier.asked !== undefined && barrier.heard >= barrier.asked) barrier.done();
  }

  /** The records held, in numbered batches of one generation each; the oldest go past about the capacity. */
  private batch(held: Held): void {
    const { records } = held;
    for (let from = 0; from < records.length; ) {
      const { gen } = records[from];
      const args: (string | number)[] = [];
      let to = from;
      while (to < records.length && to - from < MOST && records[to].gen === gen) args.push(...recordArgs(records[to++].entry));
      held.batches.push({ seq: ++held.seq, gen, count: to - from, args });
      from = to;
    }
    records.length = 0;
    let kept = held.batches.reduce((sum, batch) => sum + batch.count, 0);
    while (held.batches.length > 1 && kept - held.batches[0].count >= this.parts.capacity) kept -= held.batches.shift()!.count;
  }

  /** Each batch in turn, until Redis keeps them all or cannot be reached (the rest wait for it). */
  private async send(held: Held): Promise<void> {
    const { keys } = held;
    while (held.batches.length > 0) {
      const { seq, gen, args } = held.batches[0];
      try {
        await this.parts.scripts.run("hrmRecord", [keys.meta, keys.journal, keys.tally, keys.recorder(this.replica)], [gen, this.parts.capacity, seq, ...args]);
      } catch (error) {
        if (error instanceof StoreUnavailableError) return;
        this.parts.onError(`hr-mock: journal records of a world could not be kept in ${this.parts.link.address.shown}: ${(error as Error).message}`);
      }
      held.batches.shift();
    }
  }
}
