// One request of the suite and its answer (an Exchange), and what an answer's envelope says:
// success, failure, rate limited. The layer below both the HTTP client, which retries on a rate
// limit, and the checks, which judge answers.
import { rateLimit } from "../../generated/facts.js";
import { rateLimited } from "../client/rate-limited.js";
import { isErrorStatus } from "../client/status.js";

export type Auth = "key" | "none" | "unknown-key" | "malformed";

export interface Exchange {
  /** Path and query as sent, without the base URL (safe to print: never carries a key). */
  target: string;
  path: string;
  query: [string, string][];
  auth: Auth;
  status?: number;
  headers: Record<string, string>;
  /** Parsed JSON body, or undefined when the body was not JSON. */
  body?: unknown;
  bodyText: string;
  /** Network failure (no status), one line. */
  error?: string;
  /** Milliseconds on the suite's clock when the answer came. */
  at: number;
}

/** The envelope's isSuccessful, or undefined when the body is no envelope. */
export function envelopeOutcome(body: unknown): boolean | undefined {
  if (body && typeof body === "object" && !Array.isArray(body) && typeof (body as any).isSuccessful === "boolean") {
    return (body as any).isSuccessful;
  }
  return undefined;
}

/** A success: a 2xx answer whose envelope says isSuccessful true. */
export function isSuccess(exchange: Exchange): boolean {
  return exchange.status !== undefined && exchange.status >= 200 && exchange.status < 300 && envelopeOutcome(exchange.body) === true;
}

/** A failure envelope: isSuccessful false, whatever the status. */
export function isFailure(exchange: Exchange): boolean {
  return envelopeOutcome(exchange.body) === false;
}

/** A header of an answer by its name in any case (an Exchange keeps the names lower-cased). */
export function headerOf(exchange: Exchange, name: string): string | undefined {
  return exchange.headers[name.toLowerCase()];
}

/**
 * A rate-limit failure, by the client's rule (src/client/rate-limited.ts), so the suite and the
 * client agree: of the failures (an error status, or a failure envelope whatever the status), the
 * spec's rate-limit status, else the envelope's rate-limit code, else Retry-After on a failure
 * envelope (the provider's only sign, service-api.md 7.6).
 */
export function isRateLimited(exchange: Exchange): boolean {
  if (exchange.status === undefined || (!isErrorStatus(exchange.status) && !isFailure(exchange))) return false;
  const code = (exchange.body as any)?.code;
  return rateLimited({ status: exchange.status, code: code === undefined || code === null ? undefined : String(code), retryAfter: headerOf(exchange, rateLimit.headers.retryAfter) });
}

/** One line about an answer for a report: status and, for failures, the message. */
export function describeAnswer(exchange: Exchange): string {
  if (exchange.error !== undefined) return `no answer (${exchange.error})`;
  const body = exchange.body as any;
  const message = typeof body?.message === "string" ? `: ${body.message.slice(0, 120)}` : "";
  return `${exchange.status}${envelopeOutcome(body) === false ? ` isSuccessful false${message}` : ""}`;
}
