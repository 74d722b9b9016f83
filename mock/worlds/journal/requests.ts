// The journal's entries as callers see them (GET /_mock/requests, requests() in process), and the
// filter they are asked with: operationId, method, path, query values, status, the caller's label,
// unmatched, since. The control API's own calls are left out unless a filter asks for them.
import { controlPrefix as CONTROL_PREFIX } from "../../../generated/control-facts.js";
import { MockOptionError } from "../../kernel/option-error.js";
import { parseQuery, splitTarget } from "../../../src/query.js";
import type { SpecOperation } from "../../kernel/spec.js";
import type { JournalEntry } from "./journal.js";
import type { components } from "../../../generated/control-api.js";
import type { JournalView } from "./port.js";

/** A recorded exchange, as the control document describes it: what was asked, by whom, what it matched and how it was answered. */
export type RecordedRequest = components["schemas"]["RecordedRequest"];

/** A query value a filter asks for: the request must have exactly these values for the name. */
export type QueryValue = string | number | boolean | readonly (string | number | boolean)[];

/**
 * What requests() and verify() select on, every criterion given must hold: the control document's
 * RequestFilter, whose `since` may also be a Date or milliseconds since the epoch in process.
 */
export type RequestFilter = Omit<components["schemas"]["RequestFilter"], "query" | "since"> & { query?: Record<string, QueryValue>; since?: Date | string | number };

/** The entries a filter selects, newest first, with the journal's bound and what it let go (the control document's RequestList). */
export type RequestList = components["schemas"]["RequestList"];

const CRITERIA = ["operationId", "method", "path", "query", "status", "caller", "unmatched", "since", "control"] as const;

/** A filter checked once, where it enters: the cheap form entries are tested against (query names in lower case, values as text; since in ms). */
export type CheckedFilter = Omit<RequestFilter, "query" | "since" | "control"> & { given: RequestFilter; query?: [string, string[]][]; since?: number; control: boolean };

/** The filter checked against the operations the mock knows; a mistake throws a MockOptionError naming it. */
export function checkFilter(filter: RequestFilter | undefined, operations: ReadonlyMap<string, SpecOperation>): CheckedFilter {
  if (filter === undefined) return { given: {}, control: false };
  if (typeof filter !== "object" || filter === null || Array.isArray(filter)) throw new MockOptionError("a request filter is an object such as { operationId: \"listLeaveRequests\" }");
  for (const name of Object.keys(filter)) {
    if (!(CRITERIA as readonly string[]).includes(name)) throw new MockOptionError(`${name} is not a criterion of a request filter; the criteria are ${CRITERIA.join(", ")}`);
  }
  const checked: CheckedFilter = { given: filter, control: filter.control === true };
  const text = (name: keyof RequestFilter) => {
    const value = filter[name];
    if (value === undefined) return undefined;
    if (typeof value !== "string" || value === "") throw new MockOptionError(`filter.${name} must be a non-empty text, got ${JSON.stringify(value)}`);
    return value;
  };
  checked.operationId = text("operationId");
  if (checked.operationId !== undefined) {
    const operation = operations.get(checked.operationId);
    if (!operation) throw new MockOptionError(`filter.operationId: no operation ${JSON.stringify(checked.operationId)}; the operations are ${[...operations.keys()].join(", ")}`);
    if (operation.api === "control") checked.control = true;
  }
  checked.method = text("method")?.toUpperCase();
  checked.path = text("path");
  if (checked.path?.startsWith(CONTROL_PREFIX)) checked.control = true;
  checked.caller = text("caller");
  if (filter.status !== undefined && !(Number.isInteger(filter.status) && filter.status >= 100 && filter.status <= 599)) {
    throw new MockOptionError(`filter.status must be an HTTP status from 100 to 599, got ${JSON.stringify(filter.status)}`);
  }
  checked.status = filter.status;
  if (filter.unmatched !== undefined && typeof filter.unmatched !== "boolean") throw new MockOptionError(`filter.unmatched must be true or false, got ${JSON.stringify(filter.unmatched)}`);
  checked.unmatched = filter.unmatched;
  if (filter.since !== undefined) {
    const since = filter.since instanceof Date ? filter.since.getTime() : typeof filter.since === "string" ? Date.parse(filter.since) : filter.since;
    if (typeof since !== "number" || !Number.isFinite(since)) throw new MockOptionError(`filter.since must be a Date, an ISO 8601 time or milliseconds since the epoch, got ${JSON.stringify(filter.since)}`);
    checked.since = since;
  }
  if (filter.query !== undefined) {
    if (typeof filter.query !== "object" || filter.query === null || Array.isArray(filter.query)) throw new MockOptionError("filter.query is an object of parameter names and values, such as { PageNumber: 2 }");
    checked.query = Object.entries(filter.query).map(([name, value]) => {
      const values = (Array.isArray(value) ? value : [value]) as unknown[];
      if (values.some((v) => !["string", "number", "boolean"].includes(typeof v))) throw new MockOptionError(`filter.query.${name} must be a text, number or boolean, or a list of them`);
      return [name.toLowerCase(), values.map(String)];
    });
  }
  return checked;
}

/** Whether an entry is one of the control API's own calls. */
export function isControl(entry: JournalEntry, operations: ReadonlyMap<string, SpecOperation>): boolean {
  if (entry.operationId !== undefined) return operations.get(entry.operationId)?.api === "control";
  return entry.url.startsWith(CONTROL_PREFIX);
}

/** The criteria an entry fails, by name (none: it matches). */
export function failedCriteria(filter: CheckedFilter, entry: JournalEntry, operations: ReadonlyMap<string, SpecOperation>): (keyof RequestFilter)[] {
  const failed: (keyof RequestFilter)[] = [];
  if (!filter.control && isControl(entry, operations)) failed.push("control");
  if (filter.operationId !== undefined && entry.operationId !== filter.operationId) failed.push("operationId");
  if (filter.method !== undefined && entry.method !== filter.method) failed.push("method");
  if (filter.path !== undefined && splitTarget(entry.url).path !== filter.path) failed.push("path");
  if (filter.unmatched !== undefined && (entry.operationId === undefined) !== filter.unmatched) failed.push("unmatched");
  if (filter.query !== undefined && !queryMatches(filter.query, entry.url)) failed.push("query");
  if (filter.status !== undefined && entry.status !== filter.status) failed.push("status");
  if (filter.caller !== undefined && entry.caller !== filter.caller) failed.push("caller");
  if (filter.since !== undefined && entry.at < filter.since) failed.push("since");
  return failed;
}

export function matches(filter: CheckedFilter, entry: JournalEntry, operations: ReadonlyMap<string, SpecOperation>): boolean {
  return failedCriteria(filter, entry, operations).length === 0;
}

/** The values a request sent for a name, letter case of the name aside. */
export function sentValues(url: string, lowerName: string): string[] {
  const { search } = splitTarget(url);
  if (search === "") return [];
  const values: string[] = [];
  for (const [name, value] of new URLSearchParams(search)) if (name.toLowerCase() === lowerName) values.push(value);
  return values;
}

function queryMatches(wanted: [string, string[]][], url: string): boolean {
  return wanted.every(([name, values]) => {
    const sent = sentValues(url, name);
    return sent.length === values.length && sent.every((v, i) => v === values[i]);
  });
}

/** An entry as callers see it. */
export function viewOf(entry: JournalEntry, operations: ReadonlyMap<string, SpecOperation>): RecordedRequest {
  return {
    at: new Date(entry.at).toISOString(),
    method: entry.method,
    path: splitTarget(entry.url).path,
    query: parseQuery(splitTarget(entry.url).search),
    urlTruncated: entry.urlTruncated,
    operationId: entry.operationId ?? null,
    caller: entry.caller ?? null,
    status: entry.status,
    violations: [...(entry.violations ?? [])],
    nearest: (entry.nearest ?? []).flatMap((id) => {
      const operation = operations.get(id);
      return operation ? [{ operationId: id, method: operation.method, path: operation.path }] : [];
    }),
    durationMs: Math.round(entry.durationMs * 1000) / 1000,
    body: entry.body ?? null,
  };
}

/** The entries a filter selects, newest first, at most `limit`. */
export function listRequests(journal: JournalView, filter: CheckedFilter, operations: ReadonlyMap<string, SpecOperation>, limit = Number.POSITIVE_INFINITY): RequestList {
  const requests: RecordedRequest[] = [];
  for (const entry of journal.newestFirst()) {
    if (requests.length >= limit) break;
    if (matches(filter, entry, operations)) requests.push(viewOf(entry, operations));
  }
  return { requests, capacity: journal.capacity, dropped: journal.dropped };
}
