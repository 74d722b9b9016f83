// The security rules an answer is held to when the checker does not know the deployment's keys (the
// proxy's traffic): what the deployment's own answers showed about a key is the evidence.
// - security.no-key: a request without a key, or whose Authorization is not a Bearer key, let in.
// - security.unknown-key: a key the deployment refused as unknown (401) earlier, let in.
// - security.permission: a key refused a permission (403) earlier, let in to an operation that needs it.
// - security.organisation: a record the request names (a details id, a balance's EmployeeId) that
//   was shown to a key of another organisation, answered with data where the contract says 404. Two
//   keys are of different organisations when their whole answers to the same unfiltered list (one
//   page held every record) share no record: one organisation's keys see the same records.
// "Let in" is a 2xx answer that is not the failure envelope. A key is known by an opaque caller id
// the caller gives, never by the key; what is kept is bounded, the oldest keys and ids going first.
import { isFailure, type Exchange } from "./exchange.js";
import type { ContractSpec, OperationId } from "./openapi.js";
import { Recent } from "./recent.js";
import type { Problem } from "./results.js";
import { parameters } from "../../generated/facts.js";

/** The rules' names, as reports print them. */
export const SECURITY_RULES = {
  noKey: "security.no-key",
  unknownKey: "security.unknown-key",
  permission: "security.permission",
  organisation: "security.organisation",
} as const;

export interface KeyEvidenceOptions {
  /** Keys remembered at most; default 256. */
  keys?: number;
  /** Record ids remembered with the keys they were shown to; default 10,000. */
  ids?: number;
}

export interface KeyEvidence {
  /**
   * The security problems of one answer, given who asked: `caller` identifies the key (undefined when
   * the request carried none, or more than one). The answer is then remembered as evidence.
   */
  check(op: OperationId, exchange: Exchange, caller: string | undefined): Problem[];
}

interface KeyState {
  /** The operation the deployment refused this key on as unknown (401). */
  unknownOn?: OperationId;
  /** Permission → the operation the deployment refused this key on for lacking it (403). */
  lacks: Map<string, OperationId>;
  /** List operation → the ids of a whole unfiltered answer to it. */
  whole: Map<OperationId, Set<string>>;
}

/** Query parameters that page or order a list without filtering it. */
const UNFILTERING = new Set([parameters.PageNumber.name, parameters.PageSize.name, parameters.OrderBy.name].map((n) => n.toLowerCase()));
/** Callers remembered per record id: enough to find one of another organisation. */
const CALLERS_PER_ID = 4;

const letIn = (exchange: Exchange) => exchange.status !== undefined && exchange.status >= 200 && exchange.status < 300 && !isFailure(exchange);

/** 401 or 403 when the answer refused the key, by its status or (answers that fail with 200) its envelope's code. */
function refusal(exchange: Exchange): 401 | 403 | undefined {
  const code = exchange.status === 401 || exchange.status === 403 ? exchange.status : isFailure(exchange) ? Number((exchange.body as any).code) : undefined;
  return code === 401 || code === 403 ? code : undefined;
}

const idOf = (value: unknown) => (typeof (value as any)?.id === "string" ? ((value as any).id as string).toLowerCase() : undefined);

export function createKeyEvidence(spec: ContractSpec, options: KeyEvidenceOptions = {}): KeyEvidence {
  const keys = new Recent<KeyState>(options.keys ?? 256);
  const shownTo = new Recent<string[]>(options.ids ?? 10_000);

  /** The ids a request names that the contract answers with 404 when they are not the caller's: not a list's filters. */
  function namedIds(op: OperationId, exchange: Exchange): [string, string][] {
    const info = spec.operation(op);
    if (info.isList) return [];
    const named: [string, string][] = [];
    if (info.pathParams.length === 1) named.push([info.pathParams[0], decodeURIComponent(exchange.path.split("/").pop() ?? "").toLowerCase()]);
    const own = new Set<string>(info.queryParams.map((n) => n.toLowerCase()));
    for (const [name, value] of exchange.query) if (own.has(name.toLowerCase())) named.push([name, value.toLowerCase()]);
    return named;
  }

  /** The list operation whose whole answers to keys `a` and `b` share no record, if any. */
  function apart(a: KeyState, b: KeyState): OperationId | undefined {
    for (const [op, ids] of a.whole) {
      const other = b.whole.get(op);
      if (other && ![...ids].some((id) => other.has(id))) return op;
    }
    return undefined;
  }

  function organisationProblem(op: OperationId, exchange: Exchange, caller: string, state: KeyState): Problem | undefined {
    for (const [name, id] of namedIds(op, exchange)) {
      const callers = shownTo.get(id) ?? [];
      if (callers.includes(caller)) continue;
      for (const other of callers) {
        const otherState = keys.get(other);
        const list = otherState && apart(state, otherState);
        if (list) {
          return {
            rule: SECURITY_RULES.organisation,
            pointer: "",
            message: `answered ${exchange.status} for the ${name} of a record shown to a key of another organisation (the two keys' whole ${list} answers share no record): the contract answers another organisation's id with 404`,
          };
        }
      }
    }
    return undefined;
  }

  /** What a let-in answer showed the key: its records (unless they were not the key's to see), a whole list. */
  function learn(op: OperationId, exchange: Exchange, caller: string, state: KeyState, records: boolean): void {
    const data = (exchange.body as any)?.data;
    const items: unknown[] = spec.operation(op).isList ? (Array.isArray(data?.data) ? data.data : []) : [data];
    for (const item of records ? items : []) {
      const id = idOf(item);
      if (id === undefined) continue;
      const callers = shownTo.get(id) ?? [];
      if (!callers.includes(caller) && callers.length < CALLERS_PER_ID) callers.push(caller);
      shownTo.set(id, callers);
    }
    const unfiltered = exchange.query.every(([name]) => UNFILTERING.has(name.toLowerCase()));
    if (spec.operation(op).isList && unfiltered && data?.pageNumber === 1 && items.length > 0 && items.length === data?.totalRecords) {
      state.whole.set(op, new Set(items.map(idOf).filter((id): id is string => id !== undefined)));
    }
  }

  return {
    check(op, exchange, caller) {
      const status = exchange.status;
      if (exchange.auth === "none" || exchange.auth === "malformed") {
        if (!letIn(exchange)) return [];
        const what = exchange.auth === "none" ? "without a key (no Authorization header)" : "whose Authorization is not a Bearer key";
        return [{ rule: SECURITY_RULES.noKey, pointer: "", message: `answered ${status} to a request ${what}: the contract refuses it with 401` }];
      }
      if (caller === undefined) return [];
      const state: KeyState = keys.get(caller) ?? { lacks: new Map(), whole: new Map() };
      const permission = spec.operation(op).permission;
      const refused = refusal(exchange);
      if (refused === 401) state.unknownOn ??= op;
      if (refused === 403 && permission && !state.lacks.has(permission)) state.lacks.set(permission, op);
      const problems: Problem[] = [];
      if (letIn(exchange)) {
        if (state.unknownOn) {
          problems.push({ rule: SECURITY_RULES.unknownKey, pointer: "", message: `answered ${status} to a key the deployment itself refused as unknown (401 on ${state.unknownOn}): the contract refuses an unknown key with 401` });
        }
        const lackedOn = permission ? state.lacks.get(permission) : undefined;
        if (lackedOn) {
          problems.push({ rule: SECURITY_RULES.permission, pointer: "", message: `answered ${status} to a key the deployment itself refused the permission ${permission} (403 on ${lackedOn}): the contract refuses it with 403` });
        }
        const other = organisationProblem(op, exchange, caller, state);
        if (other) problems.push(other);
        learn(op, exchange, caller, state, other === undefined);
      }
      keys.set(caller, state);
      return problems;
    },
  };
}
