// runContractSuite: one pass over a deployment with GET requests only. It learns ids from the
// lists (or the ids file), tells which permissions the key holds, probes every operation, judges
// the assumptions from what it saw, and returns the report.
import { evaluateAssumptions } from "./assumptions.js";
import { PERMISSION_NAME, type AccessState } from "./observations.js";
import { createHttpClient } from "./http.js";
import { realClock, type Clock } from "./network.js";
import { describeAnswer, envelopeOutcome, isRateLimited, type Exchange } from "./exchange.js";
import { wrongApiHint } from "./hints.js";
import type { KnownIds } from "./ids-file.js";
import { loadContractSpec, type OperationId } from "./openapi.js";
import { redactUrl, totalsOf, type SuiteReport } from "./report.js";
import { Run } from "./run.js";
import { checkLeaveDates, checkStatusAgreement } from "./checks/records.js";
import { probeAuth } from "./probes/auth.js";
import { probeDepartments } from "./probes/departments.js";
import { probeEmployees } from "./probes/employees.js";
import { probeLeaveBalance } from "./probes/leave-balance.js";
import { probeLeaveRequests } from "./probes/leave-requests.js";
import { probeLeaveTypes } from "./probes/leave-types.js";
import { firstPage } from "./probes/lists.js";
import { contractCoverage } from "./coverage.js";

export interface SuiteOptions {
  baseUrl: string;
  apiKey: string;
  ids?: KnownIds;
  /** Caps every request, retries included. */
  maxRequests?: number;
  /** Pacing: sustained requests a second (default 4) and burst (default 8). */
  requestsPerSecond?: number;
  burst?: number;
  fetch?: typeof fetch;
  clock?: Clock;
  timeoutMs?: number;
  /** The bundled OpenAPI document; default generated/openapi.json. */
  openapiPath?: string;
  /** Called with a short line as each part starts (the CLI prints it on stderr). */
  onProgress?: (line: string) => void;
}

/**
 * The key read nothing: neither the leave nor the department list answered with data, so no check
 * of the contract could run. Not a pass: the CLI exits 1 with this one line, which names the cause
 * the answers show: the key refused, every answer a server error, or the rate limit.
 */
export class KeyRefused extends Error {
  constructor(readonly baseUrl: string, readonly answers: string, cause: "key" | "server" | "rate limit" = "key") {
    super(
      cause === "server"
        ? `the first requests at ${baseUrl} were answered with server errors (${answers}), so nothing could be checked; the key was not refused: run again once the service answers`
        : cause === "rate limit"
          ? `the first requests at ${baseUrl} were rate limited (${answers}), so nothing could be checked; the key was not refused: another client may be spending its budget, wait or lower --rate`
          : `the API key read nothing at ${baseUrl}, so nothing could be checked (${answers}); use a key with ${PERMISSION_NAME.leave} and ${PERMISSION_NAME.employeeManagement}`,
    );
  }
}

/** What the discovery answers that read nothing have in common: refusals of the key, server errors, or the rate limit. */
export function readNothingCause(answers: readonly Exchange[]): "key" | "server" | "rate limit" {
  if (answers.every(isRateLimited)) return "rate limit";
  if (answers.every((e) => e.status !== undefined && e.status >= 500)) return "server";
  return "key";
}

/**
 * Every discovery request answered 404: the paths are not where the base URL says, which tells
 * nothing of the key. Not a pass either: the CLI exits 1 with this one line.
 */
export class WrongBaseUrl extends Error {
  constructor(readonly baseUrl: string, readonly answers: string) {
    super(`every discovery request answered 404 at ${baseUrl} (${answers}): wrong base URL? The paths shown are appended to it as given, so it must end where they begin`);
  }
}

/** Access from the first answer of a group: a 2xx that is not an explicit failure grants it. */
export function accessFrom(exchange: Exchange): AccessState {
  const outcome = envelopeOutcome(exchange.body);
  const status = exchange.status;
  if (status === undefined) return "unknown";
  if (status >= 200 && status < 300 && outcome !== false) return "granted";
  if (outcome === false && (status === 401 || status === 403 || (status >= 200 && status < 300))) return "forbidden";
  return "unknown";
}

const LISTS: OperationId[] = ["listLeaveRequests", "listLeaveTypes", "listDepartments", "listEmployees"];

export async function runContractSuite(options: SuiteOptions): Promise<SuiteReport> {
  const spec = loadContractSpec(options.openapiPath);
  const clock = options.clock ?? realClock;
  const baseUrl = redactUrl(options.baseUrl);
  const http = createHttpClient({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    fetch: options.fetch,
    clock,
    requestsPerSecond: options.requestsPerSecond,
    burst: options.burst,
    maxRequests: options.maxRequests,
    timeoutMs: options.timeoutMs,
  });
  const run = new Run(spec, http, options.ids ?? {}, clock);
  const progress = (line: string) => options.onProgress?.(`${line} (${http.requestCount} requests so far)`);
  const started = clock.now();

  // No progress line before the first answer: an unreachable URL gets a single line from the CLI.
  const first = new Map<OperationId, Exchange>();
  await run.step("discovery", async () => {
    for (const op of LISTS) first.set(op, await firstPage(run, op));
  });
  const leave = first.get("listLeaveRequests");
  const em = first.get("listDepartments");
  const employees = first.get("listEmployees");
  if (leave) run.setAccess("leave", accessFrom(leave), leave);
  if (em) run.setAccess("employeeManagement", accessFrom(em), em);
  if (employees) run.setAccess("employees", accessFrom(employees), employees);
  const discovery = [...first.values()];
  if (discovery.length > 0 && discovery.every((e) => e.status === 404)) {
    throw new WrongBaseUrl(baseUrl, discovery.map((e) => `${e.target} → 404`).join("; "));
  }
  if (leave && em && run.access.leave.state !== "granted" && run.access.employeeManagement.state !== "granted") {
    throw new KeyRefused(baseUrl, [leave, em].map((e) => `${e.target} → ${describeAnswer(e)}`).join("; "), readNothingCause([leave, em]));
  }

  progress(`discovery done (leave: ${run.access.leave.state}, employee management: ${run.access.employeeManagement.state}); departments`);
  await run.step("departments", async () => {
    if (em && run.canProbe("employeeManagement", ["listDepartments", "getDepartment"])) await probeDepartments(run, em);
  });
  progress("leave types, leave requests and balances");
  await run.step("leave types", async () => {
    const types = first.get("listLeaveTypes");
    if (types && run.canProbe("leave", ["listLeaveTypes"])) await probeLeaveTypes(run, types);
  });
  await run.step("leave requests", async () => {
    if (leave && run.canProbe("leave", ["listLeaveRequests", "getLeaveRequest"])) await probeLeaveRequests(run, leave);
  });
  await run.step("leave balance", async () => {
    if (run.canProbe("leave", ["getLeaveBalance"])) await probeLeaveBalance(run);
  });
  progress("employee list");
  await run.step("employee list", async () => {
    if (employees && run.canProbe("employees", ["listEmployees"])) await probeEmployees(run, employees);
  });
  progress("authentication");
  await run.step("authentication", () => probeAuth(run));

  const seen = [...run.leaveRequests.values()];
  run.record("records", "leave requests: leaveStatusId and leaveStatus agree", checkStatusAgreement(seen, spec.statusNames));
  run.record("records", "leave requests: dates and days", checkLeaveDates(seen));

  const assumptions = evaluateAssumptions(spec.assumptions, run.observations(), spec.validate, spec.rateLimit);
  const totals = totalsOf(run.checks, assumptions, http.requestCount);
  const hint = totals.checks.violation > 0 ? wrongApiHint(http.exchanges) : undefined;
  return {
    baseUrl,
    checks: run.checks,
    assumptions,
    totals,
    durationMs: clock.now() - started,
    exitCode: totals.checks.violation > 0 ? 1 : 0,
    coverage: contractCoverage(spec, http.exchanges, baseUrl, new Date(clock.now())),
    ...(hint ? { hint } : {}),
  };
}
