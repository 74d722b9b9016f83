// The mock's defaults in one place, read from the spec where it states them: the rate limit (the
// TooManyRequests response's x-rate-limit) and the server address; the cache bound is the mock's own.
import { rateLimit } from "../../generated/facts.js";
import { defaultServerUrl } from "../../generated/routes.js";

/** Requests one API key may make in any rolling window (service-api.md section 8). */
export const RATE_LIMIT_DEFAULT = rateLimit.requests;
/** Length of the rolling window, milliseconds (an assumption of the spec's: a rolling 60 seconds). */
export const RATE_LIMIT_WINDOW_MS = rateLimit.windowSeconds * 1000;

const server = new URL(defaultServerUrl);
/** Where the mock listens unless told otherwise: the read API's server address (its variables' defaults). */
export const DEFAULT_PORT = Number(server.port);
export const DEFAULT_HOST = server.hostname;

/**
 * Upper bound of cached response bytes; the oldest entries go first when it is exceeded. Repeated
 * requests are what the cache is for, and a client repeats recent ones: 16 MB holds thousands of
 * answers while a workload of distinct URLs keeps the mock's memory small (npm run bench: RSS).
 */
export const RESPONSE_CACHE_MAX_BYTES = 16 * 1024 * 1024;
