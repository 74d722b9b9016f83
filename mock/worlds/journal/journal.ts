// A world's request journal: the last `capacity` exchanges the world answered, in a ring (one entry
// per request, nothing else), fewer when the memory all worlds' journals share runs out (budget.ts
// takes the oldest of the largest), with how many it let go, and the counts coverage reads (tally.ts),
// which neither bound cuts. requests.ts reads entries, verify.ts waits for them.
import type { BudgetedJournal, JournalBudget } from "./budget.js";
import { entryBytes, type JournalEntry } from "./entry.js";
import type { JournalView, WorldJournal } from "./port.js";
import { Tally } from "./tally.js";

export type { JournalEntry, RecordedBody } from "./entry.js";

type Listener = (entry: JournalEntry) => void;

export class Journal implements WorldJournal, JournalView, BudgetedJournal {
  private readonly ring: (JournalEntry | undefined)[];
  /** Where the next entry goes. */
  private next = 0;
  private held = 0;
  private heldBytes = 0;
  private droppedCount = 0;
  private readonly listeners = new Set<Listener>();
  /** Counts per operation since the start (or the last clear), for coverage. */
  readonly tally = new Tally();

  /** `shared`: the memory it shares with the other worlds' journals (none: only `capacity` bounds it). */
  constructor(
    readonly capacity: number,
    private shared?: JournalBudget,
  ) {
    this.ring = new Array<JournalEntry | undefined>(capacity).fill(undefined);
    shared?.join(this);
  }

  /** Off: a journal of size 0 records nothing (--journal-size 0). */
  get on(): boolean {
    return this.capacity > 0;
  }

  /** What this process holds of the journal: all of it (GET /_mock/metrics). */
  get inMemory(): { entries: number; bytes: number } {
    return { entries: this.size, bytes: this.bytes };
  }

  /** Entries held now. */
  get size(): number {
    return this.held;
  }

  /** What its entries weigh now, in bytes (entry.ts's estimate). */
  get bytes(): number {
    return this.heldBytes;
  }

  /** Entries let go since the start or the last clear: at the capacity, or for the shared memory. */
  get dropped(): number {
    return this.droppedCount;
  }

  /** The memory it shares with the other worlds' journals, if any. */
  get budget(): JournalBudget | undefined {
    return this.shared;
  }

  record(entry: JournalEntry): void {
    if (this.capacity === 0) return;
    let delta = entryBytes(entry);
    if (this.held === this.capacity) {
      this.droppedCount++;
      delta -= entryBytes(this.ring[this.next]!);
    } else this.held++;
    this.ring[this.next] = entry;
    // Newest first is by arrival (`at`), as the shared journal reads it: an entry recorded after one
    // that arrived later (a slower answer overlapping a quicker one) moves back to where it arrived.
    for (let i = this.next, steps = 1; steps < this.held; steps++) {
      const before = i === 0 ? this.capacity - 1 : i - 1;
      if (this.ring[before]!.at <= entry.at) break;
      this.ring[i] = this.ring[before];
      this.ring[before] = entry;
      i = before;
    }
    this.next = this.next + 1 === this.capacity ? 0 : this.next + 1;
    this.heldBytes += delta;
    this.tally.count(entry);
    this.shared?.changed(delta);
    if (this.listeners.size > 0) for (const listener of this.listeners) listener(entry);
  }

  /** Forgets the oldest entry, counted as dropped; answers the bytes it weighed (0 when empty). For the budget. */
  dropOldest(): number {
    if (this.held === 0) return 0;
    const at = (this.next - this.held + this.capacity) % this.capacity;
    const bytes = entryBytes(this.ring[at]!);
    this.ring[at] = undefined;
    this.held--;
    this.droppedCount++;
    this.heldBytes -= bytes;
    return bytes;
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
    const bytes = this.heldBytes;
    this.heldBytes = 0;
    this.shared?.changed(-bytes);
    return held;
  }

  /** In this process the journal is its own view. */
  view(): JournalView {
    return this;
  }

  watch(listener: () => void): () => void {
    return this.onRecord(() => listener());
  }

  /** Leaves the shared memory (its world was deleted): it keeps what it holds for whoever still reads it. */
  detach(): void {
    this.shared?.leave(this);
    this.shared = undefined;
  }

  /** Calls `listener` with each entry recorded from now on; answers the function that stops it. */
  onRecord(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
