// One journal record as the scripts' collect() reads it (lua/admission.ts): the entry, and what
// the counts coverage reads need of it.
import type { JournalEntry } from "../../worlds/journal/entry.js";
import { isUnmatched, MAX_NAME_CHARS, namesOf } from "../../worlds/journal/tally.js";

/** One record as the scripts' collect() reads it: the entry, and what the counts need. */
export function recordArgs(entry: JournalEntry): (string | number)[] {
  const unmatched = isUnmatched(entry) ? "1" : "0";
  const names = entry.operationId === undefined ? [] : namesOf(entry.url).filter((name) => name.length <= MAX_NAME_CHARS);
  return [JSON.stringify(entry), entry.operationId ?? "", entry.status, unmatched, names.length, ...names];
}
