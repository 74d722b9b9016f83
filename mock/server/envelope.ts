// The response envelope of service-api.md 2.1, as bytes. Successes carry code "00" and "Success";
// failures follow the spec's FailureEnvelope: isSuccessful false, the HTTP status as text in
// `code`, a message naming the cause (and the parameter), data null.

/** Every envelope the mock writes (the API and its control API) is JSON in UTF-8. */
export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

export function successBody(data: unknown): string {
  // Written by hand around the data so the data is serialised once and the key order is fixed.
  return `{"isSuccessful":true,"code":"00","message":"Success","data":${JSON.stringify(data)}}`;
}

export function failureBody(status: number, message: string): string {
  return JSON.stringify({ isSuccessful: false, code: String(status), message, data: null });
}

/** A finished answer: status, extra headers (beyond content type, CORS and length) and body. */
export interface Reply {
  status: number;
  body: string | Buffer;
  headers?: Record<string, string | number>;
  /** Milliseconds the edge waits before sending this answer (a throttled 401). */
  holdMs?: number;
}

export function failure(status: number, message: string, headers?: Record<string, string | number>): Reply {
  return { status, body: failureBody(status, message), headers };
}
