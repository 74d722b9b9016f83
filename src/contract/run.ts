// The state of one run: the client, what is known so far (ids, items, access per permission), the
// named probes the assumptions read, and the check results. Probes call `call` for every request,
// which validates each answer against the spec as one "responses" check.
import { PERMISSION_NAME, type AccessState, type Observations, type PermissionGroup, type Probe } from "./observations.js";
import { BudgetExhausted, type HttpClient } from "./http.js";
import type { Clock } from "./network.js";
import { describeAnswer, isFailure, isRateLimited, isSuccess, type Auth, type Exchange } from "./exchange.js";
import type { KnownIds } from "./ids-file.js";
import type { ContractSpec, OperationId } from "./openapi.js";
import { checkResponseAgainstSpec } from "./checks/responses.js";
import { notChecked, violation, type Area, type CheckResult, type Finding } from "./results.js";

export type QueryInput = Record<string, string | number | boolean | readonly string[] | undefined>;

export interface CallOptions {
  query?: QueryInput;
  /** Value of the path's {id}. */
  id?: string;
  auth?: Auth;
  /** Record the answer under this probe name for the assumptions. */
  probe?: string;
  /** Parameters a failure message should name (FailureEnvelope assumption). */
  parameters?: string[];
}

const AUTH_LABEL: Record<Auth, string> = { key: "", none: " without a key", "unknown-key": " with an unknown key", malformed: " with a malformed Authorization header" };


export function queryPairs(query: QueryInput = {}): [string, string][] {
  const pairs: [string, string][] = [];
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) pairs.push([name, v]);
    else pairs.push([name, String(value)]);
  }
  return pairs;
}


export class Run {
  readonly checks: CheckResult[] = [];
  readonly probes = new Map<string, Probe>();
  readonly access: Observations["access"] = {
    leave: { state: "unknown" },
    employeeManagement: { state: "unknown" },
    employees: { state: "unknown" },
  };
  readonly limits: string[] = [];
  /** Leave requests by id: list items, replaced by details when fetched. */
  readonly leaveRequests = new Map<string, any>();
  readonly documents: any[] = [];
  readonly balances: { balance: any; leaveType?: any }[] = [];
  readonly leaveTypes = new Map<string, any>();
  readonly departments = new Map<string, any>();
  readonly departmentDetails = new Map<string, any>();
  budgetExhausted: BudgetExhausted | undefined;

  constructor(
    readonly spec: ContractSpec,
    readonly http: HttpClient,
    readonly ids: KnownIds,
    readonly clock: Clock,
  ) {}

  record(area: Area, name: string, finding: Finding): void {
    this.checks.push({ area, name, ...finding });
  }

  /** A short, stable name of a request for check names: operation, id and query. */
  label(op: OperationId, options: CallOptions = {}): string {
    const query = new URLSearchParams(queryPairs(options.query)).toString();
    return `${op}${options.id !== undefined ? ` ${options.id}` : ""}${query ? ` ?${decodeURIComponent(query)}` : ""}${AUTH_LABEL[options.auth ?? "key"]}`;
  }

  /** One GET of an operation; the answer is validated against the spec and returned. */
  async call(op: OperationId, options: CallOptions = {}): Promise<Exchange> {
    const info = this.spec.operation(op);
    const path = info.path.replace("{id}", encodeURIComponent(options.id ?? ""));
    const exchange = await this.http.get(path, queryPairs(options.query), options.auth ?? "key");
    this.record("responses", `${this.label(op, options)}: answer matches the spec`, checkResponseAgainstSpec(this.spec, op, exchange));
    if (options.probe) this.probes.set(options.probe, { exchange, parameters: options.parameters });
    return exchange;
  }

  /**
   * For a request the contract says must succeed: true when it did; otherwise records why the
   * check named `name` could not go on (rate limit, server error) or the violation (refused).
   */
  expectSuccess(area: Area, name: string, exchange: Exchange): boolean {
    if (isSuccess(exchange)) return true;
    const answer = describeAnswer(exchange);
    if (isRateLimited(exchange)) this.record(area, name, notChecked(`rate limited: ${answer}`));
    else if (exchange.status !== undefined && exchange.status >= 500) this.record(area, name, notChecked(`server error: ${answer}`));
    else if (isFailure(exchange)) this.record(area, name, violation(`a valid request was refused: ${exchange.target} → ${answer}`));
    else this.record(area, name, violation(`${exchange.target} → ${answer}, no envelope with isSuccessful true`));
    return false;
  }

  /** Runs one part of the suite; when the request budget runs out, its checks are reported as not run. */
  async step(name: string, body: () => Promise<void>): Promise<void> {
    if (this.budgetExhausted) {
      this.record("connection", name, notChecked(this.budgetExhausted.message));
      return;
    }
    try {
      await body();
    } catch (error) {
      if (!(error instanceof BudgetExhausted)) throw error;
      this.budgetExhausted = error;
      this.limits.push(`the request budget of ${error.maxRequests} was used up`);
      this.record("connection", name, notChecked(`${error.message}; the rest of this part was not run`));
    }
  }

  /** Whether a permission group may be probed; when not, says so once per operation of the group. */
  canProbe(group: PermissionGroup, ops: readonly OperationId[]): boolean {
    const { state, exchange } = this.access[group];
    if (state === "granted") return true;
    const answer = exchange ? `${exchange.target} → ${describeAnswer(exchange)}` : "no answer";
    const why =
      state === "forbidden"
        ? `could not tell: ${group === "employees" ? "the employee list refused this key" : `the key lacks ${PERMISSION_NAME[group]}`} (${answer})`
        : `could not tell: the first request did not succeed (${answer})`;
    for (const op of ops) this.record("connection", `${op}: every check`, notChecked(why));
    return false;
  }

  setAccess(group: PermissionGroup, state: AccessState, exchange: Exchange): void {
    this.access[group] = { state, exchange };
    if (state === "forbidden") this.limits.push(group === "employees" ? "the employee list refused this key" : `the key lacks ${PERMISSION_NAME[group]}`);
  }

  rememberLeaveRequest(item: any, fromDetails = false): void {
    if (typeof item?.id !== "string") return;
    if (fromDetails || !this.leaveRequests.has(item.id)) this.leaveRequests.set(item.id, item);
    if (fromDetails && Array.isArray(item.documents)) this.documents.push(...item.documents);
  }

  observations(): Observations {
    return {
      now: this.clock.now(),
      exchanges: this.http.exchanges,
      probes: this.probes,
      access: this.access,
      leaveRequests: [...this.leaveRequests.values()],
      documents: this.documents,
      balances: this.balances,
      limits: this.limits,
      foreignIdsGiven: Object.values(this.ids.otherOrganization ?? {}).some((v) => v !== undefined),
    };
  }
}
