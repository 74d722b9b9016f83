/**
 * The typed client of the HR service's read API: one method per operation, envelope unwrapping,
 * HrApiError, retries and paging. Runs in browsers and Node (fetch only).
 */
export { createClient, createHrClient, type HrClient, type HrClientOptions, type HrOperations } from "./create-client.js";
export { classifyFailure, HrApiError, isHrApiError, kindFromStatus, type HrApiErrorDetails, type HrApiErrorKind } from "./errors.js";
export { parseRetryAfter } from "./retry-after.js";
export {
  backoffDelay,
  createRetryingFetch,
  defaultRetryOn,
  RETRY_DEFAULTS,
  retryDelay,
  type FetchLike,
  type RetryOptions,
  type RetryOutcome,
} from "./retry.js";
export { authMiddleware } from "./auth.js";
export { envelopeMiddleware, readEnvelope, type EnvelopeReading } from "./envelope.js";
export { collectAll, MAX_PAGE_SIZE, paginate, type PageLike, type PaginateOptions, type PagingQuery } from "./paginate.js";
export type { DataOf, ItemOf, ListOperationId, SuccessEnvelope } from "./operations.js";
export type { CallOptions, OperationId, Query } from "../../generated/client.js";
export type { components, operations, paths } from "../../generated/api.js";
