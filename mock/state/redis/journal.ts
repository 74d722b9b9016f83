// A world's request journal in Redis: every replica's requests in one list (newest first, at most
// the journal's capacity) and the counts coverage reads in one hash, so GET /_mock/requests,
// coverage and verify through any replica see them all. Reading fetches the list and the counts in
// one round trip and answers a view the in-memory journal's readers take as they are.
import { CONTROL_PREFIX } from "../../kernel/control-paths.js";
import type { JournalEntry } from "../../worlds/journal/entry.js";
import type { JournalView, WorldJournal } from "../../worlds/journal/port.js";
import { MAX_NAME_CHARS, namesOf, type OperationTally } from "../../worlds/journal/tally.js";
import { StoreUnavailableError } from "../../kernel/store-unavailable.js";
import type { RedisLink } from "./connection.js";
import type { WorldKeys } from "./keys.js";
import type { Scripts } from "./scripts.js";
import { Batcher } from "./batch.js";

/** How often a verify waiting on a shared journal looks for new entries. */
const WATCH_MS = 50;

/** One record as the scripts' collect() reads it: the entry, and what the counts need. */
export function recordArgs(entry: JournalEntry): (string | number)[] {
  const unmatched = entry.operationId === undefined && !entry.url.startsWith(CONTROL_PREFIX) ? "1" : "0";
  const names = entry.operationId === undefined ? [] : namesOf(entry.url).filter((name) => name.length <= MAX_NAME_CHARS);
  return [JSON.stringify(entry), entry.operationId ?? "", entry.status, unmatched, names.length, ...names];
}

export class RedisJournal implements WorldJournal {
  /** Entries answered while the store was unreachable: not in the journal (said when it is back). */
  lost = 0;

  constructor(
    private readonly link: RedisLink,
    private readonly scripts: Scripts,
    private readonly keys: WorldKeys,
    readonly capacity: number,
  ) {}

  get on(): boolean {
    return this.capacity > 0;
  }

  /** Recorded with the others of this turn of the event loop, before the answer goes out. */
  async record(entry: JournalEntry): Promise<void> {
    try {
      await this.records.add(entry);
    } catch (error) {
      // The answer stands (a read from what this replica holds); its record is what is lost.
      if (!(error instanceof StoreUnavailableError)) throw error;
      this.lost++;
    }
  }

  private readonly records = new Batcher<JournalEntry, void>(async (entries) => {
    await this.scripts.run("hrmRecord", [this.keys.journal, this.keys.tally], [this.capacity, ...entries.flatMap((entry) => recordArgs(entry))]);
    return entries.map(() => undefined);
  });

  async view(): Promise<JournalView> {
    const [entries, counts] = await this.scripts.read((client) => Promise.all([client.lrange(this.keys.journal, 0, -1), client.hgetall(this.keys.tally)]));
    return journalView(entries, counts, this.capacity);
  }

  async clear(): Promise<number> {
    return Number(await this.scripts.run("hrmClearJournal", [this.keys.journal, this.keys.tally], []));
  }

  watch(listener: () => void): () => void {
    let last: string | null | undefined;
    let stopped = false;
    const look = async () => {
      if (stopped) return;
      try {
        // The first look always tells: an entry may have come between the caller's view and this watch.
        const recorded = await this.link.client.hget(this.keys.tally, "r");
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
  for (const [field, value] of Object.entries(counts)) {
    const n = Number(value);
    const kind = field.slice(0, 2);
    if (kind === "n:") tallyOf(field.slice(2)).requests = n;
    else if (kind === "s:") {
      const at = field.lastIndexOf(":");
      tallyOf(field.slice(2, at)).statuses.set(Number(field.slice(at + 1)), n);
    } else if (kind === "p:") {
      // p:<operationId>:<name>: operation ids have no colon; a name may.
      const at = field.indexOf(":", 2);
      tallyOf(field.slice(2, at)).parameters.set(field.slice(at + 1), n);
    }
  }
  const parsed = entries.map((text) => JSON.parse(text) as JournalEntry);
  return {
    capacity,
    size: parsed.length,
    dropped: Number(counts.dropped ?? 0),
    tally: { operations, unmatched: Number(counts.u ?? 0) },
    newestFirst: () => parsed[Symbol.iterator](),
  };
}
