// The Bearer header of service-api.md section 5. The key lives only in this closure: it is never
// put in an error, a URL or a log line, and the middleware object shows nothing when printed.
import type { Middleware } from "openapi-fetch";

export function checkApiKey(apiKey: unknown): asserts apiKey is string {
  // The messages never echo the key.
  if (typeof apiKey !== "string" || apiKey.trim() === "") throw new TypeError("apiKey must be a non-empty string");
  if (/[\s\x00-\x1f\x7f]/.test(apiKey)) throw new TypeError("apiKey must not contain spaces or control characters");
}

/** Sets `Authorization: Bearer <apiKey>` on every request, replacing any Authorization already set. */
export function authMiddleware(apiKey: string): Middleware {
  checkApiKey(apiKey);
  const value = `Bearer ${apiKey}`;
  return {
    onRequest({ request }) {
      request.headers.set("Authorization", value);
      return request;
    },
  };
}
