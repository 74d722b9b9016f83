// Is this failure the rate limit? One rule, read by the typed client (errors.ts, retry.ts) and the
// contract suite (src/contract), so the two never disagree about the same answer. The status, the
// envelope code and the header name are the spec's (generated/facts.ts rateLimit), not literals.
import { rateLimit } from "../../generated/facts.js";
import { isErrorStatus } from "./status.js";

/** What the rule looks at in an answer already known to be a failure. */
export interface FailedAnswer {
  /** The HTTP status as sent. */
  status: number;
  /** The failure envelope's `code`; undefined when the body is no envelope or has none. */
  code?: string;
  /** The Retry-After header's value as received; null or undefined when it is absent. */
  retryAfter?: string | null;
}

/** A code that is a failure status written as text ("404"), as the mock writes every code. */
const STATUS_CODE = /^[45]\d\d$/;

/**
 * True when a failed answer is the rate-limit failure. The most specific sign decides:
 * 1. an HTTP error status decides alone: the spec's rate-limit status (429, assumed) is the limit,
 *    any other is not, so a 503 with Retry-After (maintenance) is not;
 * 2. else (a service that answers failures with 200) the envelope's code: the spec's rate-limit
 *    code is the limit, a code naming another failure status ("503") is not;
 * 3. else a Retry-After header: the only sign of the rate-limit failure the provider documents
 *    (service-api.md 7.6), since it shows neither the status nor the codes.
 */
export function rateLimited({ status, code, retryAfter }: FailedAnswer): boolean {
  if (isErrorStatus(status)) return status === rateLimit.status;
  const trimmed = code?.trim();
  if (trimmed === rateLimit.code) return true;
  if (trimmed !== undefined && STATUS_CODE.test(trimmed)) return false;
  return retryAfter !== null && retryAfter !== undefined;
}
