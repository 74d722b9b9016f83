// The memory all worlds' journals share (x-mock-limits.journalMemoryMb, --journal-memory): each
// journal reports what its entries weigh as it records and forgets them (entry.ts's entryBytes),
// and when the sum passes the budget the oldest entries of the journal holding the most go, until it
// is under again. One world's flood costs that world its history first; a quiet world keeps its own.

/** What the budget needs of a journal (journal.ts's Journal). */
export interface BudgetedJournal {
  /** The bytes its entries weigh now. */
  readonly bytes: number;
  /** Forgets its oldest entry (counted as dropped); answers the bytes that freed (0 when empty). */
  dropOldest(): number;
}

export class JournalBudget {
  private readonly journals: BudgetedJournal[] = [];
  private held = 0;

  constructor(readonly limitBytes: number) {}

  /** The bytes all its journals' entries weigh now. */
  get bytes(): number {
    return this.held;
  }

  /** Counts `journal`'s entries from now on (it holds none yet). */
  join(journal: BudgetedJournal): void {
    if (!this.journals.includes(journal)) this.journals.push(journal);
  }

  /** Stops counting `journal` (its world was deleted): what it holds is no longer the mock's. */
  leave(journal: BudgetedJournal): void {
    const at = this.journals.indexOf(journal);
    if (at < 0) return;
    this.journals.splice(at, 1);
    this.held -= journal.bytes;
  }

  /** A journal's entries weigh `delta` bytes more (less when negative); past the budget, the largest journals give up their oldest. */
  changed(delta: number): void {
    this.held += delta;
    while (this.held > this.limitBytes) {
      // One journal per world (at most 101): a scan when full is cheaper than keeping them in order on every request.
      let largest: BudgetedJournal | undefined;
      for (let i = 0; i < this.journals.length; i++) if (largest === undefined || this.journals[i].bytes > largest.bytes) largest = this.journals[i];
      const freed = largest === undefined ? 0 : largest.dropOldest();
      if (freed === 0) return;
      this.held -= freed;
    }
  }
}
