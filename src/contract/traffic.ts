// The contract suite's checks applied to traffic the suite did not choose: one answer at a time, as
// a proxy sees a client's requests and a deployment's answers. The answer against the spec
// (responses.ts), and for a successful answer to a valid request the semantic checks: paging
// coherence (paging.ts), the filters and order the request asked for (query-filters.ts, filters.ts),
// the records' own rules (records.ts), and a detail against the list item seen earlier for the same
// id (details.ts); for every answer, the security rules as far as the answers seen tell them
// (key-evidence.ts). Every problem is a Problem with its rule and pointer. What is remembered between
// answers (list items, leave type names, what each key was shown) is bounded: the oldest go first.
import { isSuccess, type Exchange } from "./exchange.js";
import type { ContractSpec, OperationId } from "./openapi.js";
import { summarize, type Finding, type Problem } from "./results.js";
import { departmentDetailProblems, leaveRequestDetailProblems } from "./checks/details.js";
import { checkItemsMatch, checkOrder, type ItemPredicate } from "./checks/filters.js";
import { pageOf, pageProblems } from "./checks/paging.js";
import { directionOf, LIST_ORDER, requestedFilters, type QueryValue } from "./checks/query-filters.js";
import { checkLeaveDates, checkStatusAgreement } from "./checks/records.js";
import { answerProblems, isSchemaProblem } from "./checks/responses.js";
import { createKeyEvidence } from "./key-evidence.js";
import { Recent } from "./recent.js";
import { parameters } from "../../generated/facts.js";

export interface TrafficOptions {
  /** List items kept per kind to compare details with; default 10,000. */
  rememberItems?: number;
  /** Problems told per answer at most (the rest counted in one more); default 20. */
  maxProblemsPerAnswer?: number;
}

export interface CheckAnswerOptions {
  /**
   * false when the request itself broke the contract: the answer is still held to the spec, but
   * the semantic checks, which read the request, are not made.
   */
  semantic?: boolean;
  /**
   * Who asked: an opaque id of the request's key (never the key), undefined when it carried none or
   * more than one. The security rules (key-evidence.ts) read what the answers showed about each key.
   */
  caller?: string;
}

export interface TrafficChecker {
  /** The problems of one answer to an operation; the exchange is not kept. */
  check(op: OperationId, exchange: Exchange, options?: CheckAnswerOptions): Problem[];
  /** List items held for the details checks, all kinds together. */
  readonly remembered: number;
}

const idOf = (value: unknown) => (typeof (value as any)?.id === "string" ? ((value as any).id as string).toLowerCase() : undefined);

export function createTrafficChecker(spec: ContractSpec, options: TrafficOptions = {}): TrafficChecker {
  const limit = options.rememberItems ?? 10_000;
  const maxProblems = options.maxProblemsPerAnswer ?? 20;
  const leaveRequests = new Recent<any>(limit);
  const departments = new Recent<any>(limit);
  const leaveTypeNames = new Recent<string>(limit);
  const keys = createKeyEvidence(spec, { ids: limit });
  const context = { statusNames: spec.statusNames, leaveTypeName: (id: string) => leaveTypeNames.get(id) };

  function semanticProblems(op: OperationId, exchange: Exchange): Problem[] {
    const value = queryValue(exchange.query);
    const problems: Problem[] = [];
    const body = exchange.body as any;
    if (spec.operation(op).isList) {
      const asked = { pageNumber: whole(value(parameters.PageNumber.name)), pageSize: whole(value(parameters.PageSize.name)) };
      problems.push(...pageProblems(body, asked, spec.defaultPageSize));
      const items = pageOf(body)?.data ?? [];
      for (const filter of requestedFilters(op, value, context)) {
        problems.push(...fromFinding("filters", itemsPointer(items, filter.predicate), checkItemsMatch(filter.label, items, filter.predicate, filter.unknownReason)));
      }
      const field = LIST_ORDER[op];
      if (field) {
        const orderBy = value(parameters.OrderBy.name);
        const label = orderBy === undefined ? `${op} without OrderBy` : `OrderBy=${orderBy}`;
        problems.push(...fromFinding("order", "/data/data", checkOrder(label, items, field, directionOf(orderBy))));
      }
      remember(op, items);
      if (op === "listLeaveRequests") problems.push(...recordProblems(items, "/data/data"));
    } else if (op === "getLeaveRequest") {
      const item = leaveRequests.get(idOf(body?.data) ?? "");
      if (item) problems.push(...leaveRequestDetailProblems(item, body, spec.leaveRequestListFields));
      problems.push(...recordProblems([body?.data], "/data"));
    } else if (op === "getDepartment") {
      const item = departments.get(idOf(body?.data) ?? "");
      if (item) problems.push(...departmentDetailProblems(item, body, spec.departmentSharedFields));
    }
    return problems;
  }

  function remember(op: OperationId, items: readonly unknown[]): void {
    for (const item of items) {
      const id = idOf(item);
      if (id === undefined) continue;
      if (op === "listLeaveRequests") leaveRequests.set(id, item);
      else if (op === "listDepartments") departments.set(id, item);
      else if (op === "listLeaveTypes" && typeof (item as any).name === "string") leaveTypeNames.set(id, (item as any).name);
    }
  }

  function recordProblems(items: readonly unknown[], pointer: string): Problem[] {
    const shown = items.filter((i) => i && typeof i === "object");
    if (shown.length === 0) return [];
    return [...fromFinding("records", pointer, checkStatusAgreement(shown, spec.statusNames)), ...fromFinding("records", pointer, checkLeaveDates(shown))];
  }

  return {
    get remembered() {
      return leaveRequests.size + departments.size + leaveTypeNames.size;
    },
    check(op, exchange, checkOptions = {}) {
      const found = answerProblems(spec, op, exchange).problems;
      // A body without the envelope fails every schema rule below it: the missing envelope is the one finding.
      const answer = found.some((p) => p.rule === "envelope") ? found.filter((p) => !isSchemaProblem(p)) : grouped(found);
      const security = keys.check(op, exchange, checkOptions.caller);
      const semantic = checkOptions.semantic !== false && answer.length === 0 && isSuccess(exchange) ? semanticProblems(op, exchange) : [];
      return capped([...answer, ...security, ...semantic], maxProblems);
    },
  };
}

/** A query as the service reads it: parameter names in any letter case, the last value wins. */
export function queryValue(query: readonly [string, string][]): QueryValue {
  return (name) => {
    const lower = name.toLowerCase();
    let found: string | undefined;
    for (const [key, value] of query) if (key.toLowerCase() === lower) found = value;
    return found;
  };
}

function whole(text: string | undefined): number | undefined {
  return text !== undefined && /^\d+$/.test(text) ? Number(text) : undefined;
}

function fromFinding(rule: string, pointer: string, finding: Finding): Problem[] {
  return finding.outcome === "violation" ? [{ rule, pointer, message: finding.detail }] : [];
}

/** The first item that does not match, as a pointer; the page's items when none can be named. */
function itemsPointer(items: readonly unknown[], predicate: ItemPredicate): string {
  const index = items.findIndex((item) => {
    const match = predicate(item);
    return match !== true && match !== undefined;
  });
  return index < 0 ? "/data/data" : `/data/data/${index}`;
}

const INDEX = /\/\d+(?=\/|$)/g;

/** The same schema error on many items told once, its pointer with * for the index and a count. */
function grouped(problems: readonly Problem[]): Problem[] {
  const groups = new Map<string, { first: Problem; star: string; count: number }>();
  for (const problem of problems) {
    const star = isSchemaProblem(problem) ? problem.pointer.replace(INDEX, "/*") : problem.pointer;
    const key = `${problem.rule} ${star} ${problem.message}`;
    const group = groups.get(key);
    if (group) group.count++;
    else groups.set(key, { first: problem, star, count: 1 });
  }
  return [...groups.values()].map(({ first, star, count }) => (count > 1 ? { ...first, pointer: star, message: `${first.message} (${count} items)` } : first));
}

function capped(problems: Problem[], max: number): Problem[] {
  if (problems.length <= max) return problems;
  const rest = problems.slice(max - 1);
  return [...problems.slice(0, max - 1), { rule: "more", pointer: "", message: `and ${rest.length} more problems in this answer: ${summarize(rest.map((p) => `${p.rule} ${p.pointer}`), 3)}` }];
}
