// The mock's numeric defaults in one place. The spec states the rate limit only in prose (and as
// the RateLimit-Limit header's example, which a test compares with RATE_LIMIT_DEFAULT); it has no
// extension carrying the numbers, so they live here.
import { defaultServerUrl } from "../../generated/routes.js";

/** Requests one API key may make in any rolling window (service-api.md section 8). */
export const RATE_LIMIT_DEFAULT = 300;
/** Length of the rolling window, milliseconds (assumed: a rolling 60 seconds). */
export const RATE_LIMIT_WINDOW_MS = 60_000;

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
