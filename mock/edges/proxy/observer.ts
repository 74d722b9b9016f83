// What the proxy does with each exchange once the client has its answer: the request held to the
// contract (pipeline/request-check.ts, Prism), the answer held to it by the contract suite's checks
// (src/contract/traffic.ts), one line per violation as it is found, counts per operation and status,
// and the records the answer carried handed to the recording. Nothing of an exchange is kept once it
// is checked but counts, each distinct violation (bounded) and the recording's records; no key,
// secret or unknown parameter's value reaches a line or the report.
import { createHash } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { isSuccess, type Auth, type Exchange } from "../../../src/contract/exchange.js";
import type { OperationId } from "../../../src/contract/openapi.js";
import type { TrafficChecker } from "../../../src/contract/traffic.js";
import { controlPrefix as CONTROL_PREFIX } from "../../../generated/control-facts.js";
import { bearerKey } from "../../../src/bearer.js";
import { splitTarget } from "../../../src/query.js";
import { jsonOrUndefined } from "../../kernel/json-text.js";
import { oneLine } from "../../kernel/text.js";
import type { CheckedRequest, RequestCheck } from "../../pipeline/request-check.js";
import { createRedactor, redactedTarget } from "./redact.js";
import { createTally } from "./tally.js";

/** An exchange as the proxy saw it, handed over after the client has its answer. */
export interface SeenExchange {
  method: string;
  /** Path and query as the client sent them. */
  url: string;
  headers: IncomingHttpHeaders;
  /** The Authorization header's values as sent (repeats kept). */
  authorizations: string[];
  /** The upstream's answer: its body decoded, or undefined with `note` saying why it is not checked. */
  answer?: { status: number; headers: Record<string, string>; body?: Buffer; note?: string };
  /** The proxy answered itself (the upstream gave no answer): the envelope's status. */
  answeredByProxy?: number;
  /** Nobody was answered (the client left first): why. */
  unanswered?: string;
}

/** What the recording is given: each successful answer of an operation, and whose key asked. */
export interface RecordingSink {
  take(operationId: OperationId, query: readonly [string, string][], body: unknown, caller: string): void;
}

export interface ObserverOptions {
  checkRequest(request: CheckedRequest): Promise<RequestCheck>;
  traffic: TrafficChecker;
  upstream: string;
  /** One line per violation, as it is found. */
  log(line: string): void;
  recording?: RecordingSink;
  now: () => Date;
}

/** Distinct violations listed in the report at most (the rest are counted). */
const MAX_LISTED = 1000;

export function createObserver(options: ObserverOptions) {
  const tally = createTally({ upstream: options.upstream, maxListed: MAX_LISTED, now: options.now });

  async function observe(seen: SeenExchange): Promise<void> {
    const redact = createRedactor(seen.authorizations);
    const { path } = splitTarget(seen.url);
    // The mock's own control API is not the contract: passed on, counted, not judged.
    if (path.startsWith(CONTROL_PREFIX)) {
      tally.notChecked("the mock's control API (/_mock/), not part of the contract");
      return;
    }
    // A browser's CORS preflight asks the upstream's CORS policy, not an operation of the contract.
    if (seen.method === "OPTIONS" && seen.headers.origin !== undefined && seen.headers["access-control-request-method"] !== undefined) {
      tally.notChecked("CORS preflights (OPTIONS), passed on to the upstream");
      return;
    }
    const request = await options.checkRequest({ method: seen.method, url: seen.url, headers: { ...seen.headers, authorization: seen.authorizations.length > 1 ? seen.authorizations : seen.authorizations[0] } });
    const operation = request.operation?.operationId as OperationId | undefined;
    const target = redactedTarget(seen.url, request.operation);
    const label = operation ?? `${seen.method} ${redact(path.slice(0, 80))}`;
    const where = { method: seen.method, target, status: seen.answer?.status ?? seen.answeredByProxy };
    const report = (side: "request" | "answer", problem: { rule: string; pointer: string; message: string }) => {
      const entry = { operation: label, side, rule: problem.rule, pointer: redact(problem.pointer), message: redact(oneLine(problem.message)) };
      if (tally.violation(entry, where)) options.log(`${entry.operation} ${side} ${entry.rule}${entry.pointer ? ` ${entry.pointer}` : ""}: ${entry.message} [${seen.method} ${target} → ${where.status ?? "no answer"}]`);
    };
    for (const problem of request.problems) report("request", problem);

    if (seen.unanswered !== undefined) {
      tally.notChecked(seen.unanswered);
      return;
    }
    if (seen.answeredByProxy !== undefined || !seen.answer) {
      tally.answeredByProxy(seen.answeredByProxy ?? 0);
      return;
    }
    const { status, headers, body, note } = seen.answer;
    tally.exchange(label, status);
    if (!operation) return;
    if (seen.method === "HEAD") {
      tally.notChecked("answers to HEAD, which carry no body");
      return;
    }
    if (body === undefined) {
      tally.notChecked(note ?? "the answer's body could not be read");
      return;
    }
    const exchange = exchangeOf(seen, path, status, headers, body, target);
    const checkOptions = { semantic: request.problems.length === 0, caller: callerOf(seen.authorizations) };
    for (const problem of options.traffic.check(operation, exchange, checkOptions)) report("answer", problem);
    if (options.recording && request.problems.length === 0 && isSuccess(exchange)) {
      // A key an upstream echoes in a record is not recorded either.
      const scrubbed = redact(exchange.bodyText);
      const body = scrubbed === exchange.bodyText ? exchange.body : jsonOrUndefined(scrubbed);
      if (body !== undefined) options.recording.take(operation, exchange.query, body, seen.authorizations[0] ?? "");
    }
  }

  return { observe, report: () => tally.report() };
}

/** How the request carried its key: one Bearer credential, none, or something else. */
function authOf(authorizations: readonly string[]): Auth {
  if (authorizations.length === 0) return "none";
  if (authorizations.length === 1 && !bearerKey(authorizations[0]).ok) return "malformed";
  return "key";
}

/** The key's identity for the security rules: a digest, so the key itself is not kept; none for zero or several headers. */
function callerOf(authorizations: readonly string[]): string | undefined {
  return authorizations.length === 1 ? createHash("sha256").update(authorizations[0].trim()).digest("base64url").slice(0, 22) : undefined;
}

function exchangeOf(seen: SeenExchange, path: string, status: number, headers: Record<string, string>, body: Buffer, target: string): Exchange {
  const bodyText = body.toString("utf8");
  return {
    target,
    path,
    query: [...new URLSearchParams(splitTarget(seen.url).search)],
    auth: authOf(seen.authorizations),
    status,
    headers,
    body: jsonOrUndefined(bodyText),
    bodyText,
    at: Date.now(),
  };
}
