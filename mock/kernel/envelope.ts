// The response envelope of service-api.md 2.1, as bytes. Successes carry code "00" and "Success";
// failures follow the spec's FailureEnvelope: isSuccessful false, the HTTP status as text in
// `code`, a message naming the cause (and the parameter), data null.
import { messageOf, type Violation } from "./violations.js";

/** Every envelope the mock writes (the API and its control API) is JSON in UTF-8. */
export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

export function successBody(data: unknown): string {
  // Written by hand around the data so the data is serialised once and the key order is fixed.
  return `{"isSuccessful":true,"code":"00","message":"Success","data":${pageJson(data)}}`;
}

/** The JSON of items that never change (a record's list item, operations/read/query.ts), written once: every page showing one shares it. */
const itemJson = new WeakMap<object, string>();
export const writtenOnce = <T extends object>(item: T): T => (itemJson.set(item, JSON.stringify(item)), item);

/** JSON.stringify's bytes; a page whose items were all written once joins their JSON. */
function pageJson(page: unknown): string {
  const items = (page as { data?: unknown } | null)?.data;
  if (!Array.isArray(items) || !items.every((item) => itemJson.has(item)) || Object.keys(page!)[0] !== "data") return JSON.stringify(page);
  const meta = JSON.stringify({ ...page!, data: undefined });
  return `{"data":[${items.map((item) => itemJson.get(item)).join(",")}]${meta === "{}" ? "}" : `,${meta.slice(1)}`}`;
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
  /** What the request broke, as the message names it (the journal keeps these; the edges send only the message). */
  violations?: readonly Violation[];
}

export function failure(status: number, message: string, headers?: Record<string, string | number>): Reply {
  return { status, body: failureBody(status, message), headers };
}

/** The 500 of a failure inside the mock (in `operationId`, when known): the cause goes to its log, never to the caller. */
export function internalError(operationId?: string): Reply {
  return failure(500, `Internal error: the mock failed while answering${operationId === undefined ? "" : ` ${operationId}`}; its log has the cause.`);
}

/** A refusal of what the request broke: the message is the findings' sentences, and the findings travel with it. */
export function refusal(status: number, violations: readonly Violation[], headers?: Record<string, string | number>): Reply {
  return { status, body: failureBody(status, messageOf(violations)), headers, violations };
}

/** "http": failures carry their status; 200: every failure is sent with HTTP 200, the same envelope. */
export type FailureStatus = "http" | 200;

/**
 * The status line and headers an answer is sent with, CORS aside, by every edge (node:http and the
 * MSW handlers): the failure status setting applied, the content type and length, the reply's own.
 */
export function wireHead(reply: Reply, bodyLength: number, failureStatus: FailureStatus): { status: number; headers: Record<string, string | number> } {
  const status = failureStatus === 200 && reply.status >= 400 ? 200 : reply.status;
  return { status, headers: { "Content-Type": JSON_CONTENT_TYPE, "Content-Length": bodyLength, ...reply.headers } };
}
