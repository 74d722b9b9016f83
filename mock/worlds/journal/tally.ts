// What coverage reads, counted as each exchange is recorded: per operation, its requests, the
// statuses it answered and the query parameter names it was sent with; and the requests no
// operation matched. The journal's ring lets old entries go, these counts stay (bounded by the
// operations and the names of their parameters, not by the requests).
import { CONTROL_PREFIX } from "../../kernel/control-paths.js";
import type { JournalEntry } from "./entry.js";

export interface OperationTally {
  requests: number;
  /** Requests by the status answered. */
  statuses: Map<number, number>;
  /** Requests by query parameter name, as sent (letter case included). */
  parameters: Map<string, number>;
}

/** Distinct parameter names kept per operation: a client sending random names cannot grow memory. */
const MAX_NAMES = 64;

export class Tally {
  readonly operations = new Map<string, OperationTally>();
  /** Requests to a path of the read API's no operation has (an unknown path under /_mock/ is the control API's). */
  unmatched = 0;

  count(entry: JournalEntry): void {
    const { operationId } = entry;
    if (operationId === undefined) {
      if (!entry.url.startsWith(CONTROL_PREFIX)) this.unmatched++;
      return;
    }
    let tally = this.operations.get(operationId);
    if (!tally) this.operations.set(operationId, (tally = { requests: 0, statuses: new Map(), parameters: new Map() }));
    tally.requests++;
    tally.statuses.set(entry.status, (tally.statuses.get(entry.status) ?? 0) + 1);
    const queryStart = entry.url.indexOf("?");
    if (queryStart >= 0) countNames(entry.url.slice(queryStart + 1), tally.parameters);
  }

  clear(): void {
    this.operations.clear();
    this.unmatched = 0;
  }
}

/** Each name of a query string counted once per request. */
function countNames(search: string, counts: Map<string, number>): void {
  const seen: string[] = [];
  for (const pair of search.split("&")) {
    if (pair === "") continue;
    const equals = pair.indexOf("=");
    let name = equals < 0 ? pair : pair.slice(0, equals);
    if (name.includes("%") || name.includes("+")) name = decoded(name);
    if (seen.includes(name)) continue;
    seen.push(name);
    const before = counts.get(name);
    if (before !== undefined) counts.set(name, before + 1);
    else if (counts.size < MAX_NAMES) counts.set(name, 1);
  }
}

function decoded(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, " "));
  } catch {
    return name;
  }
}
