// The request path behind a Fetch-style function: a Request in, the dispatcher's answer out as a
// Response with the status, headers and body node:http would send (the failure-status setting, the
// latency and any hold applied), CORS aside (there is no origin in process). The MSW handlers and
// the mock's in-process control calls answer through it.
import { internalError, wireHead, type FailureStatus, type Reply } from "../kernel/envelope.js";
import { errorText, oneLine } from "../kernel/text.js";
import { BODY_METHODS } from "../kernel/methods.js";
import type { Dispatcher } from "../pipeline/dispatch.js";
import { splitTarget } from "../../src/query.js";

export type FetchHandler = (request: Request) => Promise<Response>;

export interface FetchEdgeOptions {
  /** The request path (the MSW handlers pass one that builds the mock on first use). */
  dispatch: Dispatcher;
  failureStatus: FailureStatus;
  latencyMs: number;
  /** The base URL's path, cut from each request's path ("" when the API sits at the origin's root). */
  basePath: string;
  /** Where internal errors are reported, one line each. */
  onError: (line: string) => void;
  /** Names this edge in internal error lines ("hr-mock (msw)"). */
  name: string;
}

export function createFetchEdge(options: FetchEdgeOptions): FetchHandler {
  const { dispatch, failureStatus, latencyMs, basePath, onError, name } = options;

  return async (request) => {
    const reply = await answer(request).catch((error: unknown): Reply => {
      onError(`${name}: internal error on ${request.method} ${splitTarget(request.url).path}: ${oneLine(errorText(error))}`);
      return internalError();
    });
    // The latency option, plus what the answer asks to be held (a scripted delay, a throttled 401).
    const hold = latencyMs + (reply.holdMs ?? 0);
    if (hold > 0) await new Promise((resolve) => setTimeout(resolve, hold));
    const body = typeof reply.body === "string" ? new TextEncoder().encode(reply.body) : reply.body;
    const { status, headers } = wireHead(reply, body.length, failureStatus);
    const sent = new Headers();
    for (const [header, value] of Object.entries(headers)) sent.set(header, String(value));
    // A Buffer's type allows a shared backing store that Response refuses; the dispatcher's never is.
    return new Response(body.length === 0 ? null : (body as Uint8Array<ArrayBuffer>), { status, headers: sent });
  };

  async function answer(request: Request): Promise<Reply> {
    const url = new URL(request.url);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, header) => (headers[header] = value));
    const body = BODY_METHODS.has(request.method) ? new Uint8Array(await request.arrayBuffer()) : undefined;
    const path = url.pathname.slice(basePath.length) || "/";
    return dispatch({ method: request.method, url: `${path}${url.search}`, headers, body });
  }
}
