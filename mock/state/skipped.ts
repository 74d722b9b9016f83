// The last line of a world's journal that a crash left unfinished, and the line a start says of it.
import type { PartialChange } from "./snapshot.js";

/**
 * The last line of a world's journal that a crash left unfinished (a kill in the middle of a
 * write): the change it began is not replayed, and the start says so with this.
 */
export interface SkippedChange {
  world: string;
  /** The journal's path. */
  file: string;
  /** The bytes of the unfinished line. */
  bytes: number;
  /** What the unfinished line still shows of the change: its event type, organisation, record and time, as far as they are whole. */
  change: PartialChange;
}

/** A skipped change in one line, naming the file and what was lost, for the start's output. */
export function skippedLine(skipped: SkippedChange): string {
  const { type, organizationId, id, at } = skipped.change;
  const what = [
    type ? `a ${type} change` : "a change whose type cannot be read",
    organizationId && `of organisation ${organizationId}`,
    id && `(record ${id})`,
    at && `made at ${at}`,
  ].filter(Boolean);
  return `hr-mock: --state: the last line of ${skipped.file} is unfinished (${skipped.bytes} bytes; the mock was stopped in the middle of writing it) and is skipped: ${what.join(" ")} is lost; fire it again if it is needed.`;
}
