// Reads the JSON envelope of service-api.md 2.1 on every response and turns each failure into an
// HrApiError: `isSuccessful` false whatever the HTTP status (a service may answer failures with
// 200), an error status, or a body that is not the envelope. Successes pass through unchanged, so
// openapi-fetch hands the envelope on as `data`.
//
// This is an openapi-fetch middleware (onResponse) because judging a response is exactly what that
// hook is for; re-issuing requests is not (see retry.ts).
import type { Middleware } from "openapi-fetch";
import { rateLimit } from "../../generated/facts.js";
import { classifyFailure, HrApiError } from "./errors.js";
import { operationIdOf } from "./operations.js";
import { parseRetryAfter } from "./retry-after.js";
import { isErrorStatus } from "./status.js";

/** What a response body says: success, or a failure with what we could learn of it. */
export type EnvelopeReading =
  | { ok: true }
  | { ok: false; code?: string; message: string; hasEnvelope: boolean };

/** Pure: the verdict on a response from its status and body text. */
export function readEnvelope(status: number, body: string, contentType: string | null = null): EnvelopeReading {
  const httpText = `HTTP ${status}${contentType ? ` (${contentType})` : ""}`;
  if (body.trim() === "") return { ok: false, message: `${httpText} with an empty body, not the service's JSON envelope`, hasEnvelope: false };
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { ok: false, message: `${httpText} with a body that is not JSON: ${excerpt(body)}`, hasEnvelope: false };
  }
  if (!isRecord(parsed) || typeof parsed.isSuccessful !== "boolean") {
    return { ok: false, message: `${httpText} with JSON that is not the service's envelope (no boolean isSuccessful)`, hasEnvelope: false };
  }
  const code = typeof parsed.code === "string" ? parsed.code : parsed.code === undefined ? undefined : String(parsed.code);
  const message = typeof parsed.message === "string" && parsed.message.trim() !== "" ? parsed.message : undefined;
  if (parsed.isSuccessful === false) {
    return { ok: false, code, message: message ?? `the service answered isSuccessful false with code ${code ?? "(none)"} and no message`, hasEnvelope: true };
  }
  if (isErrorStatus(status)) {
    return { ok: false, code, message: message ?? `${httpText} although the envelope says isSuccessful true`, hasEnvelope: true };
  }
  return { ok: true };
}

export interface EnvelopeOptions {
  /** Clock for Retry-After given as an HTTP-date; default Date.now. */
  now?: () => number;
}

export function envelopeMiddleware(options: EnvelopeOptions = {}): Middleware {
  const now = options.now ?? Date.now;
  return {
    async onResponse({ request, response, schemaPath }) {
      const body = await response.text();
      const reading = readEnvelope(response.status, body, response.headers.get("content-type"));
      if (reading.ok) {
        // The body was read here, so openapi-fetch gets a fresh Response with the same bytes.
        return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
      }
      const operationId = operationIdOf(request.method, schemaPath);
      const retryAfter = response.headers.get(rateLimit.headers.retryAfter);
      throw new HrApiError({
        status: response.status,
        code: reading.code,
        message: reading.hasEnvelope ? reading.message : `${operationId ?? `${request.method} ${schemaPath}`}: ${reading.message}`,
        retryAfter: parseRetryAfter(retryAfter, now()),
        kind: classifyFailure(response.status, reading.code, retryAfter),
        operationId,
        url: request.url,
      });
    },
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A short, one-line quote of a body for an error message. */
function excerpt(body: string): string {
  const line = body.replace(/\s+/g, " ").trim();
  return JSON.stringify(line.length > 80 ? `${line.slice(0, 77)}...` : line);
}
