// What came close to a filter that verify() did not find, in the contract's terms rather than by
// string distance: a request of the same operation with other parameter values, another status or
// another caller, a request refused for what it broke (its violations), or a path no operation has
// whose nearest operation (mock/pipeline/near-miss.ts) is the one expected.
import type { SpecOperation } from "../../kernel/spec.js";
import { operationsAt } from "../../kernel/path-template.js";
import type { JournalEntry } from "./journal.js";
import type { JournalView } from "./port.js";
import { failedCriteria, sentValues, type CheckedFilter, type RequestFilter } from "./requests.js";
import { splitTarget } from "../../../src/query.js";

/** Near misses shown in a message; the rest are counted. */
const SHOWN = 5;

/** Criteria that say which operation (or path) is meant: an entry failing one of them is not near, unless its path is. */
const IDENTITY: ReadonlySet<keyof RequestFilter> = new Set(["operationId", "method", "path", "unmatched", "control"]);

/** The filter in words: "listLeaveRequests (GET /v1/leaverequest/list) with PageNumber=2, answered 200". */
export function describeFilter(filter: CheckedFilter, operations: ReadonlyMap<string, SpecOperation>): string {
  const operation = filter.operationId === undefined ? undefined : operations.get(filter.operationId);
  const parts: string[] = [];
  if (operation) parts.push(`${operation.operationId} (${filter.method ?? operation.method} ${filter.path ?? operation.path})`);
  else if (filter.method !== undefined || filter.path !== undefined) parts.push(`${filter.method ?? "any method"} ${filter.path ?? "on any path"}`);
  else parts.push(filter.unmatched ? "a request no operation matched" : "a request");
  if (operation && filter.unmatched) parts.push("matching no operation");
  const { given } = filter;
  if (given.query !== undefined) parts.push(`with ${Object.entries(given.query).map(([name, value]) => `${name}=${Array.isArray(value) ? value.join(`&${name}=`) : String(value)}`).join(" and ")}`);
  if (filter.status !== undefined) parts.push(`answered ${filter.status}`);
  if (filter.caller !== undefined) parts.push(`from ${JSON.stringify(filter.caller)}`);
  if (filter.since !== undefined) parts.push(`since ${new Date(filter.since).toISOString()}`);
  if (filter.unmatched === false) parts.push("(matched by an operation)");
  return parts.join(", ").replace(/, with /, " with ");
}

/** The near misses of the journal's entries, newest first: the first few as lines, and how many in all. */
export function describeNearMisses(journal: JournalView, filter: CheckedFilter, operations: ReadonlyMap<string, SpecOperation>): { shown: string[]; length: number } {
  const shown: string[] = [];
  let length = 0;
  for (const entry of journal.newestFirst()) {
    const line = nearMiss(entry, filter, operations);
    if (line === undefined) continue;
    length++;
    if (shown.length < SHOWN) shown.push(line);
  }
  return { shown, length };
}

function nearMiss(entry: JournalEntry, filter: CheckedFilter, operations: ReadonlyMap<string, SpecOperation>): string | undefined {
  const failed = failedCriteria(filter, entry, operations);
  if (failed.length === 0) return undefined;
  const head = `${entry.method} ${entry.url} → ${entry.status}${entry.caller ? ` [${entry.caller}]` : ""}`;
  if (failed.some((criterion) => IDENTITY.has(criterion))) {
    // Another operation or path: near only when it is a path no operation has, and the one meant is its nearest.
    const meant = filter.operationId ?? operationAt(filter, operations);
    if (entry.operationId !== undefined || meant === undefined || !entry.nearest?.includes(meant)) return undefined;
    const others = entry.nearest.filter((id) => id !== meant);
    return `${head}: no operation has ${entry.status === 405 ? `${entry.method} on ` : ""}${splitTarget(entry.url).path}; its nearest is ${meant}${others.length > 0 ? ` (also ${others.join(", ")})` : ""}`;
  }
  const why: string[] = [];
  if (failed.includes("query")) why.push(...queryDifferences(filter, entry));
  if (failed.includes("status")) why.push(`answered ${entry.status}, not ${filter.status}`);
  if (failed.includes("caller")) why.push(`sent by ${entry.caller === undefined ? "no known key" : JSON.stringify(entry.caller)}, not ${JSON.stringify(filter.caller)}`);
  if (failed.includes("since")) why.push(`arrived at ${new Date(entry.at).toISOString()}, before ${new Date(filter.since!).toISOString()}`);
  const broke = entry.violations && entry.violations.length > 0 ? `; refused: ${entry.violations.map((v) => v.message).join(" ")}` : "";
  return `${head}: ${why.join("; ")}${broke}`;
}

/** The operation whose template the filter's method and path name, if one does. */
function operationAt(filter: CheckedFilter, operations: ReadonlyMap<string, SpecOperation>): string | undefined {
  if (filter.path === undefined) return undefined;
  return operationsAt(operations.values(), filter.path).find((op) => filter.method === undefined || op.method === filter.method)?.operationId;
}

/** "PageNumber is "1", not "2"", "LeaveStatus absent, not "Approved"". */
function queryDifferences(filter: CheckedFilter, entry: JournalEntry): string[] {
  const out: string[] = [];
  const given = filter.given.query ?? {};
  const names = Object.keys(given);
  for (const [i, [lower, wanted]] of (filter.query ?? []).entries()) {
    const sent = sentValues(entry.url, lower);
    if (sent.length === wanted.length && sent.every((v, j) => v === wanted[j])) continue;
    const show = (values: string[]) => (values.length === 1 ? JSON.stringify(values[0]) : JSON.stringify(values));
    out.push(`${names[i]} ${sent.length === 0 ? "absent" : `is ${show(sent)}`}, not ${show(wanted)}`);
  }
  return out;
}
