// The one error the client throws for a failed call, whatever shape the failure took: an HTTP
// error status, a 200 whose envelope says isSuccessful false (services that answer every failure
// with 200), or a body that is not the envelope at all.
import { rateLimit } from "../../generated/facts.js";
import { rateLimited } from "./rate-limited.js";
import { isErrorStatus } from "./status.js";

/** "network": no answer at all (the connection failed, after any retries); status is then 0. */
export type HrApiErrorKind = "auth" | "permission" | "validation" | "not_found" | "rate_limited" | "server" | "network" | "unknown";

export interface HrApiErrorDetails {
  /** HTTP status of the response (200 when the service answers failures with 200; 0 when none came). */
  status: number;
  /** The envelope's `code` ("429", …); undefined when the body had no envelope. */
  code?: string;
  message: string;
  /** Seconds to wait, from the Retry-After header (delta-seconds or HTTP-date). */
  retryAfter?: number;
  kind: HrApiErrorKind;
  /** The operation called, e.g. "listLeaveRequests", when the path is one of the spec's. */
  operationId?: string;
  /** The request URL (path and query; the API key travels in a header, never here). */
  url?: string;
  /** What failed underneath (the fetch error of a network failure). */
  cause?: unknown;
}

export class HrApiError extends Error implements HrApiErrorDetails {
  override name = "HrApiError";
  readonly status: number;
  readonly code?: string;
  readonly retryAfter?: number;
  readonly kind: HrApiErrorKind;
  readonly operationId?: string;
  readonly url?: string;

  constructor(details: HrApiErrorDetails) {
    super(details.message, details.cause === undefined ? undefined : { cause: details.cause });
    this.status = details.status;
    this.code = details.code;
    this.retryAfter = details.retryAfter;
    this.kind = details.kind;
    this.operationId = details.operationId;
    this.url = details.url;
  }
}

export function isHrApiError(value: unknown): value is HrApiError {
  return value instanceof HrApiError;
}

/** The kind a failure status names; "unknown" for statuses that name none (418, 2xx, …). */
export function kindFromStatus(status: number): HrApiErrorKind {
  if (status === 401) return "auth";
  if (status === 403) return "permission";
  if (status === 400 || status === 422) return "validation";
  if (status === 404) return "not_found";
  if (status === rateLimit.status) return "rate_limited";
  if (status >= 500 && status <= 599) return "server";
  return "unknown";
}

/**
 * The kind of a failure: from the HTTP status when it is an error status, else from the envelope's
 * `code` when it looks like one ("401"), which is how a service that answers failures with 200
 * still tells them apart. Whether it is the rate limit is rateLimited's rule (rate-limited.ts),
 * which also counts a Retry-After header (`retryAfter`, the header's value) on such a 200.
 */
export function classifyFailure(status: number, code: string | undefined, retryAfter?: string | null): HrApiErrorKind {
  if (rateLimited({ status, code, retryAfter })) return "rate_limited";
  if (isErrorStatus(status)) return kindFromStatus(status);
  if (code !== undefined && /^[1-5]\d\d$/.test(code.trim())) return kindFromStatus(Number(code.trim()));
  return "unknown";
}
