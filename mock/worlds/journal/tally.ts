// What coverage reads, counted as each exchange is recorded: per operation, its requests, the
// statuses it answered and the query parameter names it was sent with; and the requests no
// operation matched. The journal's ring lets old entries go, these counts stay (bounded by the
// operations and the names of their parameters, not by the requests).
import { controlPrefix as CONTROL_PREFIX } from "../../../generated/control-facts.js";
import { ownCopy } from "../../kernel/text.js";
import type { JournalEntry } from "./entry.js";
import { queryComponent, splitTarget } from "../../../src/query.js";

export interface OperationTally {
  requests: number;
  /** Requests by the status answered. */
  statuses: Map<number, number>;
  /** Requests by query parameter name, as sent (letter case included). */
  parameters: Map<string, number>;
}

/** Distinct parameter names kept per operation, and their longest: a client sending random names cannot grow memory. */
export const MAX_PARAMETER_NAMES = 64;
export const MAX_NAME_CHARS = 128;
/**
 * URLs whose parameter names are kept read: a repeated request (the response cache's) counts without
 * parsing or allocating. Only short ones, and few: this memory is outside the journals' budget.
 */
const READ_URLS = 256;
const READ_URL_CHARS = 256;

export class Tally {
  readonly operations = new Map<string, OperationTally>();
  private readonly namesByUrl = new Map<string, readonly string[]>();
  /** Requests to a path of the read API's no operation has (an unknown path under /_mock/ is the control API's). */
  unmatched = 0;

  count(entry: JournalEntry): void {
    const { operationId } = entry;
    if (operationId === undefined) {
      if (isUnmatched(entry)) this.unmatched++;
      return;
    }
    let tally = this.operations.get(operationId);
    if (!tally) this.operations.set(operationId, (tally = { requests: 0, statuses: new Map(), parameters: new Map() }));
    tally.requests++;
    tally.statuses.set(entry.status, (tally.statuses.get(entry.status) ?? 0) + 1);
    let names = this.namesByUrl.get(entry.url);
    if (names === undefined) {
      names = namesOf(entry.url);
      if (entry.url.length <= READ_URL_CHARS) {
        if (this.namesByUrl.size >= READ_URLS) this.namesByUrl.clear();
        this.namesByUrl.set(entry.url, names);
      }
    }
    for (const name of names) {
      const before = tally.parameters.get(name);
      if (before !== undefined) tally.parameters.set(name, before + 1);
      // A copy: a name read from a URL may be a view of the whole URL, which it would keep.
      else if (tally.parameters.size < MAX_PARAMETER_NAMES && name.length <= MAX_NAME_CHARS) tally.parameters.set(ownCopy(name), 1);
    }
  }

  clear(): void {
    this.operations.clear();
    this.namesByUrl.clear();
    this.unmatched = 0;
  }
}

/** A request to a path of the read API no operation has (counted as unmatched; Redis's scripts are told it per record). */
export function isUnmatched(entry: JournalEntry): boolean {
  return entry.operationId === undefined && !entry.url.startsWith(CONTROL_PREFIX);
}

const NONE: readonly string[] = [];

/** The distinct names of a URL's query, as sent. */
export function namesOf(url: string): readonly string[] {
  const { search } = splitTarget(url);
  if (search === "") return NONE;
  const names: string[] = [];
  for (const pair of search.split("&")) {
    if (pair === "") continue;
    const equals = pair.indexOf("=");
    let name = equals < 0 ? pair : pair.slice(0, equals);
    if (name.includes("%") || name.includes("+")) name = queryComponent(name);
    if (!names.includes(name)) names.push(name);
  }
  return names.length === 0 ? NONE : names;
}
