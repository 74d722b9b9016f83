// A world's journal as the pipeline records into it and its readers (GET /_mock/requests,
// requests(), verify(), coverage) look at it: in this process (journal.ts, answering at once), or in
// Redis, shared by replicas (mock/state/redis/journal.ts, answering promises). Readers take a view:
// the entries newest first, the bound, what it dropped, and the counts coverage reads.
import type { Awaitable } from "../../kernel/awaitable.js";
import type { JournalEntry } from "./entry.js";
import type { OperationTally } from "./tally.js";

export interface TallyView {
  readonly operations: ReadonlyMap<string, OperationTally>;
  /** Requests to a path of the read API no operation has. */
  readonly unmatched: number;
}

export interface JournalView {
  /** The bound in entries (0: off). */
  readonly capacity: number;
  /** Entries held now. */
  readonly size: number;
  /** Entries the bound let go since the start or the last clear. */
  readonly dropped: number;
  readonly tally: TallyView;
  newestFirst(): Iterable<JournalEntry>;
  /** The memory all worlds' journals of this process share, when it bounds this one too. */
  readonly budget?: { readonly limitBytes: number };
}

export interface WorldJournal {
  readonly capacity: number;
  /** The entries this process holds in memory and what they weigh (GET /_mock/metrics): none for a journal kept elsewhere. */
  readonly inMemory: { entries: number; bytes: number };
  /** Off: a journal of capacity 0 records nothing. */
  readonly on: boolean;
  record(entry: JournalEntry): Awaitable<void>;
  view(): Awaitable<JournalView>;
  /** Forgets every entry and count; answers how many entries it held. */
  clear(): Awaitable<number>;
  /** Calls `listener` when entries may have been recorded; answers the function that stops it. */
  watch(listener: () => void): () => void;
  /** Its world was deleted: it leaves what it shares with other journals of this process (a memory budget), readable still. */
  detach(): void;
}
