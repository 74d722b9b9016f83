// What a mock tells of its state when it is ready, whichever backend keeps it: the lines after the
// banner and the store the ready event names. The backend's report (StateReport) is the one source.
import type { StateReport } from "./backend.js";

/** The lines `hr-mock serve` prints after its banner, and the store its JSON ready event names. */
export function announcement(report: StateReport): { lines: string[]; store?: string } {
  if (report.shared) return { lines: [sharedLine(report.shared)], store: report.shared.store };
  if (report.state) return { lines: [stateLine(report.state)], store: report.state.dir };
  return { lines: [] };
}

/** With --state redis://…: the store every replica shares (its password masked). */
export function sharedLine(shared: NonNullable<StateReport["shared"]>): string {
  return `State shared through ${shared.store}${shared.cluster ? " (a Redis Cluster)" : ""}: every replica started with this URL and the same flags serves one mock.\n`;
}

/** With --state DIR: what came back, and each unfinished last change skipped (its full line went to stderr). */
export function stateLine(state: NonNullable<StateReport["state"]>): string {
  const { changes, endpoints, waiting } = state.restored;
  const skipped = state.skipped.map((s) => `${s.change.type ?? "a change of unreadable type"} at the end of ${s.file}`);
  const tail = skipped.length === 0 ? "" : `; skipped ${skipped.length} unfinished ${skipped.length === 1 ? "change" : "changes"} (${skipped.join(", ")})`;
  return `State kept in ${state.dir}: restored ${changes} data changes, ${endpoints} webhook endpoints, ${waiting} waiting deliveries${tail}.\n`;
}

/**
 * Where a --webhook-url endpoint registered at an earlier start is found again (else each replica's
 * start would add one more): a --state directory, or the shared Redis; none in memory.
 */
export function endpointsKeptIn(report: StateReport): string | undefined {
  return report.state?.dir ?? report.shared?.store;
}
