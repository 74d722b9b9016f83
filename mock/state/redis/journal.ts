// A world's request journal in Redis: every replica's requests in one bounded list and the counts
// coverage reads in one hash, so the journal's readers through any replica see them all, as a view
// like the in-memory journal's. Records go in batches, before the answer (or with the admission).
import type { JournalEntry } from "../../worlds/journal/entry.js";
import type { JournalView, WorldJournal } from "../../worlds/journal/port.js";
import type { OperationTally } from "../../worlds/journal/tally.js";
import { StoreUnavailableError } from "../../kernel/store-unavailable.js";
import type { RedisLink } from "./connection.js";
import type { Scripts } from "./scripts.js";
import { Batcher } from "./batch.js";
import type { WorldKeys } from "./keys.js";
import { recordArgs } from "./record-args.js";
import { readTallyField, TALLY } from "./formats.js";

/** How often a verify waiting on a shared journal looks for new entries. */
const WATCH_MS = 50;

export class RedisJournal implements WorldJournal {
  constructor(
    private readonly link: RedisLink,
    private readonly scripts: Scripts,
    private readonly at: { readonly keys: WorldKeys; readonly gen: number },
    readonly capacity: number,
  ) {}

  /** Its entries are in Redis: this process holds none. */
  get inMemory(): { entries: number; bytes: number } {
    return { entries: 0, bytes: 0 };
  }

  get on(): boolean {
    return this.capacity > 0;
  }

  /** Recorded with the others of this turn of the event loop, before the answer goes out. */
  record(entry: JournalEntry): Promise<void> {
    return this.records.add(entry).catch((error: unknown) => {
      // The answer stands (a read from what this replica holds); its record is what is lost.
      if (!(error instanceof StoreUnavailableError)) throw error;
    });
  }

  private readonly records = new Batcher<JournalEntry, void>(async (entries) => {
    const { keys, gen } = this.at;
    // A record that could not be sent is not sent again.
    await this.scripts.run("hrmRecord", [keys.meta, keys.journal, keys.tally], [gen, this.capacity, ...entries.flatMap((entry) => recordArgs(entry))]);
    return entries.map(() => undefined);
  });

  async view(): Promise<JournalView> {
    const { keys } = this.at;
    const [entries, counts] = await this.scripts.read((client) => Promise.all([client.lrange(keys.journal, 0, -1), client.hgetall(keys.tally)]));
    return journalView(entries, counts, this.capacity);
  }

  async clear(): Promise<number> {
    const { keys } = this.at;
    return Number(await this.scripts.run("hrmClearJournal", [keys.journal, keys.tally], []));
  }

  /** Nothing of it is shared with other journals in this process (Redis bounds it): still readable. */
  detach(): void {}

  watch(listener: () => void): () => void {
    let last: string | null | undefined;
    let stopped = false;
    const look = async () => {
      if (stopped) return;
      try {
        // The first look always tells: an entry may have come between the caller's view and this watch.
        const recorded = await this.link.client.hget(this.at.keys.tally, TALLY.recorded);
        const changed = last === undefined || recorded !== last;
        last = recorded;
        if (changed) listener();
      } catch {
        // Unreachable for now: the next look tries again.
      }
      if (!stopped) timer = setTimeout(look, WATCH_MS);
    };
    let timer = setTimeout(look, 0);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }
}

/** The list and the counts as the journal's readers take them. */
function journalView(entries: string[], counts: Record<string, string>, capacity: number): JournalView {
  const operations = new Map<string, OperationTally>();
  const tallyOf = (op: string) => {
    let tally = operations.get(op);
    if (!tally) operations.set(op, (tally = { requests: 0, statuses: new Map(), parameters: new Map() }));
    return tally;
  };
  for (const [field, value] of Object.entries(counts)) readTallyField(field, Number(value), tallyOf);
  // Newest first by when each was answered: replicas' records reach the list in batches, not in that order.
  const parsed = entries.map((text) => JSON.parse(text) as JournalEntry).sort((x, y) => y.at - x.at);
  return {
    capacity,
    size: parsed.length,
    dropped: Number(counts[TALLY.dropped] ?? 0),
    tally: { operations, unmatched: Number(counts[TALLY.unmatched] ?? 0) },
    newestFirst: () => parsed[Symbol.iterator](),
  };
}
