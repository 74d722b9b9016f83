// The one client of the mock's control API, typed from its document (openapi-fetch over
// generated/control-api.d.ts): every command of hr-mock that talks to a running mock, and the mock's
// own in-process calls (startMock's createSandbox, through a fetch that calls the request path
// directly) use it, so a control path is spelt once, in the document, and checked by the compiler.
import createClient, { type Client } from "openapi-fetch";
import type { paths } from "../../generated/control-api.js";
import { oneLine } from "./text.js";

export type ControlClient = Client<paths>;

export interface ControlClientOptions {
  /** The running mock (http://127.0.0.1:4010). */
  baseUrl: string | URL;
  /** A key of the world to act in; sent as Authorization: Bearer, never printed. */
  apiKey: string;
  /** Default the global fetch; in process, the mock's own request path. */
  fetch?: (request: Request) => Promise<Response>;
  /** Each call gives up after this long (default 15 s). */
  timeoutMs?: number;
}

/** How long a control call may take by default. */
export const CONTROL_TIMEOUT_MS = 15_000;

export function createControlClient({ baseUrl, apiKey, fetch = (request) => globalThis.fetch(request), timeoutMs = CONTROL_TIMEOUT_MS }: ControlClientOptions): ControlClient {
  return createClient<paths>({
    baseUrl: String(baseUrl).replace(/\/+$/, ""),
    headers: { authorization: `Bearer ${apiKey}` },
    fetch: (request: Request) => fetch(new Request(request, { signal: AbortSignal.timeout(timeoutMs) })),
  });
}

/** A control call's data, or one line saying why there is none (the mock's own message where it answered). */
export type ControlAnswer<T> = { ok: true; data: T } | { ok: false; status: number; message: string; line: string };

type Envelope = { isSuccessful?: boolean; message?: string; data?: unknown };

/**
 * The envelope's data of a control call, or why not: the mock's refusal (also when it answers
 * failures with HTTP 200), an answer without the envelope, or no answer at all.
 */
export async function controlAnswer<D extends Envelope>(call: Promise<{ data?: D; error?: unknown; response: Response }>, baseUrl: string | URL): Promise<ControlAnswer<NonNullable<D["data"]>>> {
  const origin = new URL(String(baseUrl)).origin;
  let result: { data?: D; error?: unknown; response: Response };
  try {
    result = await call;
  } catch (error) {
    // openapi-fetch reads a 2xx answer as JSON: text that is not JSON did not come from the mock.
    if (error instanceof SyntaxError) {
      const message = `the answer from ${origin} is not the mock's envelope (is ${origin} the mock?)`;
      return { ok: false, status: 0, message, line: message };
    }
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why = (error as Error).name === "TimeoutError" ? "no answer in time" : (cause?.code ?? cause?.message ?? (error as Error).message);
    const message = `cannot reach the mock at ${origin} (${oneLine(String(why))}); is hr-mock serve running there?`;
    return { ok: false, status: 0, message, line: message };
  }
  const { response } = result;
  const envelope = (result.data ?? result.error) as Envelope | undefined;
  if (response.ok && envelope?.isSuccessful === true && envelope.data !== undefined && envelope.data !== null) return { ok: true, data: envelope.data as NonNullable<D["data"]> };
  const message = typeof envelope?.message === "string" ? envelope.message : `HTTP ${response.status} without the mock's envelope (is ${origin} the mock?)`;
  return { ok: false, status: response.status, message, line: `the mock answered ${response.status}: ${oneLine(message)}` };
}
