// One journal record as the scripts' collect() reads it (lua/admission.ts): the entry, and what
// the counts coverage reads need of it.
import { CONTROL_PREFIX } from "../../kernel/control-paths.js";
import type { JournalEntry } from "../../worlds/journal/entry.js";
import { MAX_NAME_CHARS, namesOf } from "../../worlds/journal/tally.js";

/** One record as the scripts' collect() reads it: the entry, and what the counts need. */
export function recordArgs(entry: JournalEntry): (string | number)[] {
  const unmatched = entry.operationId === undefined && !entry.url.startsWith(CONTROL_PREFIX) ? "1" : "0";
  const names = entry.operationId === undefined ? [] : namesOf(entry.url).filter((name) => name.length <= MAX_NAME_CHARS);
  return [JSON.stringify(entry), entry.operationId ?? "", entry.status, unmatched, names.length, ...names];
}
