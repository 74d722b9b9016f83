// A world's request journal: the last `capacity` exchanges the world answered, in a ring (memory is
// flat at the bound: one entry per request, nothing else kept per request), with how many older
// ones the ring has let go, and the counts coverage reads (tally.ts), which the ring's bound does
// not cut. The pipeline records every exchange once (mock/pipeline/record.ts); requests.ts reads
// entries, verify.ts waits for them.
import type { JournalEntry } from "./entry.js";
import type { JournalView, WorldJournal } from "./port.js";
import { Tally } from "./tally.js";

export type { JournalEntry, RecordedBody } from "./entry.js";

type Listener = (entry: JournalEntry) => void;

export class Journal implements WorldJournal, JournalView {
  private readonly ring: (JournalEntry | undefined)[];
  /** Where the next entry goes. */
  private next = 0;
  private held = 0;
  private droppedCount = 0;
  private readonly listeners = new Set<Listener>();
  /** Counts per operation since the start (or the last clear), for coverage. */
  readonly tally = new Tally();

  constructor(readonly capacity: number) {
    this.ring = new Array<JournalEntry | undefined>(capacity).fill(undefined);
  }

  /** Off: a journal of size 0 records nothing (--journal-size 0). */
  get on(): boolean {
    return this.capacity > 0;
  }

  /** Entries held now. */
  get size(): number {
    return this.held;
  }

  /** Entries the bound let go since the start or the last clear. */
  get dropped(): number {
    return this.droppedCount;
  }

  record(entry: JournalEntry): void {
    if (this.capacity === 0) return;
    if (this.held === this.capacity) this.droppedCount++;
    else this.held++;
    this.ring[this.next] = entry;
    this.next = this.next + 1 === this.capacity ? 0 : this.next + 1;
    this.tally.count(entry);
    if (this.listeners.size > 0) for (const listener of this.listeners) listener(entry);
  }

  /** The entries held, newest first. */
  *newestFirst(): Generator<JournalEntry> {
    for (let i = 1; i <= this.held; i++) yield this.ring[(this.next - i + this.capacity) % this.capacity]!;
  }

  /** Forgets every entry and count; answers how many entries it held. */
  clear(): number {
    const held = this.held;
    this.ring.fill(undefined);
    this.next = 0;
    this.held = 0;
    this.droppedCount = 0;
    this.tally.clear();
    return held;
  }

  /** In this process the journal is its own view. */
  view(): JournalView {
    return this;
  }

  watch(listener: () => void): () => void {
    return this.onRecord(() => listener());
  }

  /** Calls `listener` with each entry recorded from now on; answers the function that stops it. */
  onRecord(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
