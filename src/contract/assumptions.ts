// The package's assumptions (x-assumption marks) judged against what a run saw. The run records
// named probes and facts in Observations; each mark's pointer has an evaluator here that answers
// held, did not hold or could not tell, with the reason. Every mark of the specs is reported: a mark
// without an evaluator says so rather than disappearing.
import { parameters, rateLimit } from "../../generated/facts.js";
import { headerOf, isFailure, isRateLimited, isSuccess, type Exchange } from "./exchange.js";
import { FAILURE_ENVELOPE_POINTER, type AssumptionMark, type OperationId } from "./openapi.js";
import { PERMISSION_NAME, probe, type Observations } from "./observations.js";
import { pageOf } from "./checks/paging.js";
import { dayOf } from "./checks/filters.js";
import { calendarDays, weekdays } from "./checks/records.js";
import { boundVerdict, isBoundMark } from "./bounds.js";
import { couldNotTell, didNotHold, held, summarize, type AssumptionResult, type Verdict } from "./results.js";
import { splitTarget } from "../query.js";


type Evaluator = (obs: Observations) => Verdict;

const probesNamed = (obs: Observations, prefix: string) => [...obs.probes.entries()].filter(([name]) => name === prefix || name.startsWith(`${prefix} `));

const notProbed = (obs: Observations, what: string) =>
  couldNotTell(`${what} was not probed${obs.limits.length ? ` (${obs.limits.join("; ")})` : ""}`);

/** The named probes (exact names or prefixes) answered with `want`; mismatches listed. */
function statusVerdict(obs: Observations, names: readonly string[], want: number, what: string): Verdict {
  const seen = names.flatMap((n) => probesNamed(obs, n));
  const answered = seen.filter(([, p]) => p.exchange.status !== undefined && !isRateLimited(p.exchange));
  if (answered.length === 0) return notProbed(obs, what);
  const wrong = answered
    .filter(([, p]) => p.exchange.status !== want)
    .map(([, p]) => `${p.exchange.target}${p.exchange.auth !== "key" ? ` (${p.exchange.auth})` : ""} → ${p.exchange.status}`);
  if (wrong.length) return didNotHold(`${wrong.length} of ${answered.length} answered other than ${want}: ${summarize(wrong, 2)}`);
  return held(`${what}: ${answered.length} request(s) answered ${want}`);
}

/** Several verdicts about parts of one assumption: any did not hold wins, then any could not tell. */
function combine(parts: readonly Verdict[]): Verdict {
  const failed = parts.filter((p) => p.outcome === "did not hold");
  if (failed.length) return didNotHold(failed.map((p) => p.detail).join("; "));
  const untold = parts.filter((p) => p.outcome === "could not tell");
  if (untold.length) {
    const heldParts = parts.filter((p) => p.outcome === "held").map((p) => p.detail);
    return couldNotTell([...untold.map((p) => p.detail), ...heldParts.map((d) => `otherwise held: ${d}`)].join("; "));
  }
  return held(parts.map((p) => p.detail).join("; "));
}

const LIST_OPS: OperationId[] = ["listLeaveRequests", "listLeaveTypes", "listDepartments", "listEmployees"];

function pastEndVerdict(obs: Observations): Verdict {
  const problems: string[] = [];
  let seen = 0;
  for (const op of LIST_OPS) {
    const past = obs.probes.get(probe.pastEnd(op))?.exchange;
    const first = obs.probes.get(probe.firstPage(op))?.exchange;
    if (!past || !first || !isSuccess(first)) continue;
    seen++;
    const page = pageOf(past.body);
    const firstPage = pageOf(first.body)!;
    if (!isSuccess(past) || !page) problems.push(`${past.target} → ${past.status}${isFailure(past) ? " failure" : ""}`);
    else if (page.data.length !== 0) problems.push(`${past.target} returned ${page.data.length} items`);
    else if (page.totalRecords !== firstPage.totalRecords || page.totalPages !== firstPage.totalPages) {
      problems.push(`${past.target} gave totals ${page.totalRecords}/${page.totalPages}, page 1 ${firstPage.totalRecords}/${firstPage.totalPages}`);
    }
  }
  if (seen === 0) return notProbed(obs, "a page past the end");
  return problems.length ? didNotHold(summarize(problems, 2)) : held(`${seen} list(s): a page past the end is 200, empty, with the true totals`);
}

function searchVerdict(obs: Observations, area: "leave-requests" | "leave-types" | "departments"): Verdict {
  const lower = obs.probes.get(probe.search(area, "lower"))?.exchange;
  const swapped = obs.probes.get(probe.search(area, "swapped"))?.exchange;
  if (!lower || !swapped) return notProbed(obs, `a ${area} search`);
  if (!isSuccess(lower) || !isSuccess(swapped)) return didNotHold(`${lower.target} → ${lower.status}, ${swapped.target} → ${swapped.status}`);
  const a = pageOf(lower.body)?.totalRecords;
  const b = pageOf(swapped.body)?.totalRecords;
  if (a === 0) return didNotHold(`${lower.target} found nothing, though the term was taken from inside a name of this list`);
  if (a !== b) return didNotHold(`${lower.target} found ${a}, ${swapped.target} found ${b}: letter case matters`);
  return held(`a term from inside a name found ${a} in lower and in swapped case`);
}

function forbiddenVerdict(obs: Observations): Verdict {
  const lacking = (["leave", "employeeManagement"] as const).filter((g) => obs.access[g].state === "forbidden");
  if (lacking.length === 0) return couldNotTell("the key holds both permissions, so no request could be refused for lack of one; run with a key lacking one to check");
  const wrong = lacking.map((g) => obs.access[g].exchange!).filter((e) => e.status !== 403);
  if (wrong.length) return didNotHold(wrong.map((e) => `${e.target} refused with ${e.status}`).join("; "));
  return held(`a missing permission was answered 403 (${lacking.map((g) => PERMISSION_NAME[g]).join(", ")})`);
}

function employeePermissionVerdict(obs: Observations): Verdict {
  const { leave, employeeManagement: em, employees } = obs.access;
  if (employees.state === "unknown" || em.state === "unknown") return notProbed(obs, "the employee list");
  if (leave.state === "granted" && em.state === "granted") {
    return employees.state === "granted"
      ? couldNotTell("the key holds both permissions; a key with only one would tell which the employee list needs")
      : didNotHold(`the employee list refused a key that holds both permissions (${employees.exchange?.status})`);
  }
  if (employees.state === em.state) return held(`the employee list follows Employee Management: View (${em.state} for this key)`);
  return didNotHold(`Employee Management: View is ${em.state} for this key but the employee list is ${employees.state}`);
}

function notFoundVerdict(obs: Observations): Verdict {
  const parts = [statusVerdict(obs, [probe.unknownId("getLeaveRequest"), probe.unknownId("getDepartment"), probe.unknownId("getLeaveBalance")], 404, "an unknown id")];
  const withData = probesNamed(obs, "unknown-id")
    .concat(probesNamed(obs, "foreign-id"))
    .filter(([, p]) => isFailure(p.exchange) && (p.exchange.body as any).data !== null);
  if (withData.length) parts.push(didNotHold(`${withData[0][1].exchange.target} failed with data ${JSON.stringify((withData[0][1].exchange.body as any).data)}`));
  parts.push(
    obs.foreignIdsGiven
      ? statusVerdict(obs, ["foreign-id"], 404, "an id of another organisation")
      : couldNotTell("no id of another organisation was given (otherOrganization in --ids), so that half is untested"),
  );
  return combine(parts);
}

function failureEnvelopeVerdict(obs: Observations, validate: (pointer: string, value: unknown) => string[]): Verdict {
  const failures = obs.exchanges.filter((e) => isFailure(e) || (e.status !== undefined && e.status >= 400));
  if (failures.length === 0) return couldNotTell("no failure was seen");
  const problems: string[] = [];
  for (const e of failures) {
    const body = e.body as any;
    const errors = validate(FAILURE_ENVELOPE_POINTER, body);
    if (errors.length) problems.push(`${e.target} → ${e.status}: ${errors[0]}`);
    else if (body.data !== null) problems.push(`${e.target} → ${e.status}: data is ${body.data === undefined ? "absent" : "not null"}`);
    else if (!body.message.trim()) problems.push(`${e.target} → ${e.status}: empty message`);
  }
  for (const [, p] of obs.probes) {
    if (!p.parameters || !isFailure(p.exchange)) continue;
    const message = String((p.exchange.body as any).message ?? "").toLowerCase();
    if (!p.parameters.some((name) => message.includes(name.toLowerCase()))) {
      problems.push(`${p.exchange.target}: message ${JSON.stringify((p.exchange.body as any).message)} names no ${p.parameters.join(" or ")}`);
    }
  }
  return problems.length ? didNotHold(summarize(problems, 2)) : held(`${failures.length} failures: the envelope with a non-"00" code, a message naming the parameter, data null`);
}

function daysVerdict(obs: Observations): Verdict {
  const problems: string[] = [];
  let seen = 0;
  for (const item of obs.leaveRequests) {
    const start = dayOf(item?.startDate);
    const end = dayOf(item?.endDate);
    if (start === undefined || end === undefined || typeof item.days !== "number") continue;
    seen++;
    const calendar = calendarDays(start, end);
    const workdays = weekdays(start, end);
    if (calendar === undefined || workdays === undefined) continue;
    if (item.days < 0 || item.days > workdays) problems.push(`${String(item.id).slice(0, 8)}… has ${item.days} days from ${start} to ${end}, which hold ${workdays} weekdays`);
  }
  if (seen === 0) return couldNotTell("no leave request seen");
  if (problems.length) return didNotHold(summarize(problems, 2));
  return couldNotTell(`consistent on ${seen} requests (0 ≤ days ≤ Monday–Friday days in the range), but holidays and the employees' days off are not shown`);
}

function balanceVerdicts(obs: Observations) {
  const month = new Date(obs.now).getUTCMonth();
  const totals: string[] = [];
  const remaining: string[] = [];
  let typed = 0;
  for (const { balance: b, leaveType: t } of obs.balances) {
    const want = Math.max(0, b.totalDays - b.daysTaken - b.leavePending);
    if (b.daysRemaining !== want) {
      remaining.push(`daysRemaining ${b.daysRemaining} but ${b.totalDays} − ${b.daysTaken} − ${b.leavePending} gives ${want}`);
    }
    if (!t?.carryForward) continue;
    typed++;
    const max = t.maxLeaveDays;
    const carry = t.carryForward.maxCarryForwardLimit;
    const expired = month > t.carryForward.expirationDate;
    if (expired ? b.totalDays !== max : b.totalDays < max || b.totalDays > max + carry) {
      totals.push(`totalDays ${b.totalDays} for ${t.name} (maxLeaveDays ${max}, carry at most ${carry}, ${expired ? "expired" : "not expired"} this month)`);
    }
  }
  const n = obs.balances.length;
  return {
    remaining: n === 0 ? notProbed(obs, "a leave balance") : remaining.length ? didNotHold(summarize(remaining, 2)) : held(`${n} balance(s) agree`),
    total:
      typed === 0
        ? couldNotTell("no balance of a leave type whose carry-forward rule was seen")
        : totals.length
          ? didNotHold(summarize(totals, 2))
          : held(`${typed} balance(s) within maxLeaveDays plus at most maxCarryForwardLimit (exactly maxLeaveDays after the expiry month)`),
  };
}

function documentVerdict(obs: Observations): Verdict {
  if (obs.documents.length === 0) return couldNotTell("no document was seen in the leave request details");
  const links = obs.documents.filter((d) => /^https?:\/\//.test(d?.document));
  const opaque = obs.documents.filter((d) => typeof d?.document === "string" && d.document.startsWith("app://"));
  const other = obs.documents.filter((d) => !links.includes(d) && !opaque.includes(d));
  const wrongOpaque = opaque.filter((d) => d.document !== `app://documents/${d.id}`);
  if (other.length || wrongOpaque.length) {
    return didNotHold([...other, ...wrongOpaque].map((d) => `document ${JSON.stringify(d.document)}`).slice(0, 2).join("; "));
  }
  if (opaque.length === 0) return couldNotTell(`${links.length} document(s) seen, all links; no private one to tell`);
  return held(`${opaque.length} private document(s) as app://documents/<id>, ${links.length} link(s)`);
}

function rateLimitVerdicts(obs: Observations, assumedLimit: number | undefined) {
  const limited = obs.exchanges.filter(isRateLimited);
  const none = couldNotTell("no rate-limit failure was seen; the suite paces itself and never pushes a service into its limit on purpose");
  if (limited.length === 0) {
    const withHeaders = obs.exchanges.filter((e) => headerOf(e, rateLimit.headers.rateLimitLimit) !== undefined);
    return { status: none, retryAfter: none, headers: withHeaders.length ? headerVerdict(withHeaders) : none };
  }
  const { windowSeconds, status, headers } = rateLimit;
  const windowStart = limited[0].at - windowSeconds * 1000;
  // The requests with this key in the window up to the first rate-limit failure, that one included.
  const recent = obs.exchanges.filter((e) => e.at >= windowStart && e.at <= limited[0].at && e.auth === "key").length;
  const retryAfter = (e: Exchange) => headerOf(e, headers.retryAfter);
  const badRetry = limited.filter((e) => !/^\s*[1-9]\d*\s*$/.test(retryAfter(e) ?? ""));
  // Other clients of the same key count too, so only a rate-limit failure after fewer requests than assumed tells.
  const early = assumedLimit !== undefined && recent <= assumedLimit;
  const otherStatus = limited.filter((e) => e.status !== status);
  return {
    status: otherStatus.length
      ? didNotHold(`the rate limit was answered with HTTP ${otherStatus[0].status}, not ${status} (${otherStatus[0].target}, a failure envelope with ${headers.retryAfter})`)
      : early
        ? didNotHold(`a ${status} came after ${recent} requests of this run in ${windowSeconds} s, fewer than the ${assumedLimit} assumed (other clients of the key count too)`)
        : held(`${limited.length} ${status} answer(s), after ${recent} requests of this run in ${windowSeconds} s`),
    retryAfter: badRetry.length
      ? didNotHold(`${headers.retryAfter} ${JSON.stringify(retryAfter(badRetry[0]) ?? null)} on ${badRetry[0].target}`)
      : held(`${limited.length} rate-limit answer(s) with ${headers.retryAfter} in whole seconds`),
    headers: headerVerdict(limited),
  };
}

function headerVerdict(exchanges: readonly Exchange[]): Verdict {
  const { rateLimitLimit, rateLimitRemaining } = rateLimit.headers;
  const bad = exchanges.filter((e) => !/^\d+$/.test(headerOf(e, rateLimitLimit) ?? "") || !/^\d+$/.test(headerOf(e, rateLimitRemaining) ?? ""));
  if (bad.length) return didNotHold(`${bad[0].target} → ${bad[0].status} without whole-number ${rateLimitLimit} and ${rateLimitRemaining}`);
  return held(`${exchanges.length} answer(s) carry ${rateLimitLimit} and ${rateLimitRemaining}`);
}

function serverErrorVerdict(obs: Observations, validate: (pointer: string, value: unknown) => string[]): Verdict {
  const errors = obs.exchanges.filter((e) => e.status !== undefined && e.status >= 500);
  if (errors.length === 0) return couldNotTell("no 5xx answer was seen");
  const bad = errors.filter((e) => validate(FAILURE_ENVELOPE_POINTER, e.body).length > 0);
  return bad.length ? didNotHold(`${bad[0].target} → ${bad[0].status} without the failure envelope`) : held(`${errors.length} 5xx answer(s) with the failure envelope`);
}

const PARAMETER_400 = [
  "page-size-above-max",
  "page-size-zero",
  "page-number-zero",
  "not-a-number",
  "bad-uuid",
  probe.missingRequired,
  probe.statusUnknownName,
  probe.statusOutOfRange,
  probe.startOnly,
  probe.endOnly,
  probe.endBeforeStart,
];

function leaveStatusVerdict(obs: Observations): Verdict {
  const accepted = [probe.statusLower, probe.statusNumber].map((n) => obs.probes.get(n)?.exchange).filter((e): e is Exchange => !!e);
  const parts: Verdict[] = [];
  if (accepted.length === 0) parts.push(notProbed(obs, "LeaveStatus"));
  const refused = accepted.filter((e) => !isSuccess(e));
  if (refused.length) parts.push(didNotHold(refused.map((e) => `${e.target} → ${e.status}`).join("; ")));
  else if (accepted.length) parts.push(held(`${accepted.map((e) => splitTarget(e.target).search).join(" and ")} accepted`));
  parts.push(statusVerdict(obs, [probe.statusUnknownName, probe.statusOutOfRange], 400, "an unknown status"));
  return combine(parts);
}

function sameDayVerdict(obs: Observations): Verdict {
  const e = obs.probes.get(probe.sameDay)?.exchange;
  if (!e) return notProbed(obs, "StartDate equal to EndDate");
  const total = pageOf(e.body)?.totalRecords;
  if (!isSuccess(e)) return didNotHold(`${e.target} → ${e.status}`);
  return total && total > 0 ? held(`${e.target} includes the request starting that day`) : didNotHold(`${e.target} left out a request starting that day: bounds are not inclusive`);
}

function eligibilityDefaultVerdict(obs: Observations): Verdict {
  const first = obs.probes.get(probe.firstPage("listLeaveTypes"))?.exchange;
  const zero = obs.probes.get(probe.eligibility(0))?.exchange;
  if (!first || !isSuccess(first)) return notProbed(obs, "the leave type list");
  const items = pageOf(first.body)!.data as any[];
  const other = items.filter((t) => t?.eligibilityCriteria !== 0);
  if (other.length) return didNotHold(`without EligibilityCriteria ${other.length} of ${items.length} types have criteria ${other.map((t) => t.eligibilityCriteria).join(", ")}`);
  if (zero && isSuccess(zero) && pageOf(zero.body)!.totalRecords !== pageOf(first.body)!.totalRecords) {
    return didNotHold(`no EligibilityCriteria gives ${pageOf(first.body)!.totalRecords} types, EligibilityCriteria=0 gives ${pageOf(zero.body)!.totalRecords}`);
  }
  return held(`no EligibilityCriteria: ${items.length} organisation-wide types, as EligibilityCriteria=0 gives`);
}

function companyLeaveTypesVerdict(obs: Observations): Verdict {
  const company = obs.probes.get(probe.companyOrgWide)?.exchange;
  const all = obs.probes.get(probe.eligibility(0))?.exchange;
  if (!company || !all) return notProbed(obs, "CompanyId on the leave type list");
  if (!isSuccess(company) || !isSuccess(all)) return didNotHold(`${company.target} → ${company.status}`);
  const a = pageOf(company.body)!.totalRecords;
  const b = pageOf(all.body)!.totalRecords;
  if (a !== b) return didNotHold(`organisation-wide types: ${b} in all, ${a} for the company; every company should see all of them`);
  return couldNotTell(`organisation-wide part held (${a} types for the company as for all); criteria 1 to 4 need eligibility details the API does not show`);
}

function employeePageVerdict(obs: Observations): Verdict {
  const e = obs.probes.get(probe.employeesPage2)?.exchange;
  if (!e) return notProbed(obs, "PageNumber on the employee list");
  if (!isSuccess(e)) return didNotHold(`${e.target} → ${e.status}`);
  const page = pageOf(e.body);
  return page?.pageNumber === 2 ? held(`${e.target} returned page 2`) : didNotHold(`${e.target} returned pageNumber ${page?.pageNumber}`);
}

function employeeStatusVerdict(obs: Observations): Verdict {
  const seen = probesNamed(obs, "employee-status").map(([, p]) => p.exchange);
  if (seen.length === 0) return notProbed(obs, "Status on the employee list");
  const refused = seen.filter((e) => !isSuccess(e));
  return refused.length ? didNotHold(refused.map((e) => `${e.target} → ${e.status}`).join("; ")) : held(`${seen.map((e) => splitTarget(e.target).search).join(", ")} accepted`);
}

/** Evaluators by the pointer of the mark in the OpenAPI document. */
export function openapiEvaluators(validate: (pointer: string, value: unknown) => string[], rateLimit?: number, marks: readonly AssumptionMark[] = []): Record<string, Evaluator> {
  const bounds = Object.fromEntries(marks.filter((m) => m.scope === "api" && isBoundMark(m.sentence)).map((m) => [m.pointer, boundVerdict(m.pointer, validate)]));
  return {
    ...bounds,
    "/paths/~1v1~1employee~1list/get": employeePermissionVerdict,
    "/info": () => couldNotTell("not probed: the suite sends each parameter name in the provider's case only, so it never relies on this leniency"),
    "/components/schemas/DepartmentBase/properties/membersCount": () =>
      couldNotTell("the employee list shows neither an employee's department nor a terminated status, so members cannot be counted"),
    "/components/schemas/LeaveBalance/properties/daysTaken": () =>
      couldNotTell("the API does not show how a request that runs into the next year is split between the two years' balances"),
    "/components/parameters/PageNumber": (obs) =>
      combine([pastEndVerdict(obs), statusVerdict(obs, ["page-number-zero"], 400, "PageNumber=0")]),
    "/components/parameters/PageSize": (obs) => {
      const max = obs.probes.get(probe.pageSizeMax("listLeaveRequests"))?.exchange;
      const largest = `PageSize=${parameters.PageSize.maximum}`;
      const maxPart = !max
        ? notProbed(obs, largest)
        : isSuccess(max) && pageOf(max.body)?.pageSize === parameters.PageSize.maximum
          ? held(`${largest} accepted`)
          : didNotHold(`${max.target} → ${max.status}${pageOf(max.body) ? `, pageSize ${pageOf(max.body)!.pageSize}` : ""}`);
      return combine([maxPart, statusVerdict(obs, ["page-size-above-max", "page-size-zero"], 400, "PageSize out of range")]);
    },
    "/components/parameters/LeaveStatus": leaveStatusVerdict,
    "/components/parameters/StartDate": (obs) => combine([statusVerdict(obs, [probe.startOnly, probe.endOnly], 400, "one date without the other"), sameDayVerdict(obs)]),
    "/components/parameters/EndDate": (obs) => statusVerdict(obs, [probe.endOnly, probe.endBeforeStart], 400, "EndDate alone or before StartDate"),
    "/components/parameters/LeaveRequestSearchTerm": (obs) => searchVerdict(obs, "leave-requests"),
    "/components/parameters/LeaveTypeCompanyId": companyLeaveTypesVerdict,
    "/components/parameters/LeaveTypeSearchTerm": (obs) => searchVerdict(obs, "leave-types"),
    "/components/parameters/EligibilityCriteriaFilter": eligibilityDefaultVerdict,
    "/components/parameters/DepartmentSearchTerm": (obs) => searchVerdict(obs, "departments"),
    "/components/parameters/EmployeePageNumber": employeePageVerdict,
    "/components/schemas/LeaveRequestSummary/properties/days": daysVerdict,
    "/components/schemas/FailureEnvelope": (obs) => failureEnvelopeVerdict(obs, validate),
    "/components/schemas/LeaveDocument/properties/document": documentVerdict,
    "/components/schemas/LeaveBalance/properties/totalDays": (obs) => balanceVerdicts(obs).total,
    "/components/schemas/LeaveBalance/properties/daysRemaining": (obs) => balanceVerdicts(obs).remaining,
    "/components/schemas/EmployeeStatus": employeeStatusVerdict,
    "/components/responses/BadRequest": (obs) => statusVerdict(obs, PARAMETER_400, 400, "an invalid parameter"),
    "/components/responses/Unauthorized": (obs) => statusVerdict(obs, ["no-key", "unknown-key", "malformed-key"], 401, "a request without a valid key"),
    "/components/responses/Forbidden": forbiddenVerdict,
    "/components/responses/NotFound": notFoundVerdict,
    "/components/responses/TooManyRequests": (obs) => rateLimitVerdicts(obs, rateLimit).status,
    "/components/responses/ServerError": (obs) => serverErrorVerdict(obs, validate),
    "/components/headers/Retry-After": (obs) => rateLimitVerdicts(obs, rateLimit).retryAfter,
    "/components/headers/RateLimit-Limit": (obs) => rateLimitVerdicts(obs, rateLimit).headers,
    "/components/headers/WWW-Authenticate": wwwAuthenticateVerdict,
  };
}

function wwwAuthenticateVerdict(obs: Observations): Verdict {
  const unauthorized = obs.exchanges.filter((e) => e.status === 401);
  if (unauthorized.length === 0) return couldNotTell("no 401 was seen");
  const missing = unauthorized.filter((e) => e.headers["www-authenticate"] !== "Bearer");
  return missing.length === 0
    ? held(`${unauthorized.length} 401 answer(s), each with WWW-Authenticate: Bearer`)
    : didNotHold(`${missing[0].target} → 401 with WWW-Authenticate ${JSON.stringify(missing[0].headers["www-authenticate"] ?? null)}`);
}

export const WEBHOOK_REASON = "about webhook deliveries, which a suite reading the API with GET requests never receives";

export function evaluateAssumptions(
  marks: readonly AssumptionMark[],
  obs: Observations,
  validate: (pointer: string, value: unknown) => string[],
  rateLimit?: number,
): AssumptionResult[] {
  const evaluators = openapiEvaluators(validate, rateLimit, marks);
  return marks.map((mark) => {
    let verdict: Verdict;
    if (mark.scope === "webhooks") verdict = couldNotTell(WEBHOOK_REASON);
    else if (evaluators[mark.pointer]) verdict = evaluators[mark.pointer](obs);
    else verdict = couldNotTell("no automatic check for this assumption");
    return { ...mark, ...verdict };
  });
}
