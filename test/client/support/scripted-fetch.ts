// An injected fetch for client tests: it records every request and answers from a script, in
// order. Nothing is mocked at module level; each test builds its own.
import type { components } from "../../../generated/api.js";

export type Step = Response | Error | ((request: Request) => Response | Promise<Response>);

export interface RecordedRequest {
  method: string;
  url: URL;
  headers: Headers;
}

export interface ScriptedFetch {
  fetch: (input: Request) => Promise<Response>;
  requests: RecordedRequest[];
}

/** Answers request n with script[n]; an Error step is thrown as a network error would be. */
export function scriptedFetch(script: Step[]): ScriptedFetch {
  const requests: RecordedRequest[] = [];
  const fetch = async (input: Request): Promise<Response> => {
    requests.push({ method: input.method, url: new URL(input.url), headers: new Headers(input.headers) });
    const step = script[requests.length - 1];
    if (step === undefined) throw new Error(`scriptedFetch: request ${requests.length} (${input.method} ${input.url}) is beyond the script of ${script.length}`);
    if (step instanceof Error) throw step;
    if (typeof step === "function") return step(input);
    return step;
  };
  return { fetch, requests };
}

/** The same answer to every request (for paging and mock-free runs that need many). */
export function answerEvery(respond: (request: Request, index: number) => Response | Promise<Response>): ScriptedFetch {
  const requests: RecordedRequest[] = [];
  const fetch = async (input: Request): Promise<Response> => {
    requests.push({ method: input.method, url: new URL(input.url), headers: new Headers(input.headers) });
    return respond(input, requests.length - 1);
  };
  return { fetch, requests };
}

type Envelope = components["schemas"]["Envelope"];
type FailureEnvelope = components["schemas"]["FailureEnvelope"];

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json; charset=utf-8", ...headers } });
}

/** A success envelope around `data`. */
export function success(data: unknown, headers: Record<string, string> = {}): Response {
  const body: Envelope = { isSuccessful: true, code: "00", message: "Success", data };
  return jsonResponse(body, 200, headers);
}

/** A failure envelope; `status` is the HTTP status (200 for services that answer failures with 200). */
export function failure(status: number, code: string, message: string, headers: Record<string, string> = {}): Response {
  const body: FailureEnvelope = { isSuccessful: false, code, message, data: null };
  return jsonResponse(body, status, headers);
}

/** A network failure as undici reports it. */
export function networkError(): TypeError {
  return new TypeError("fetch failed", { cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9"), { code: "ECONNREFUSED" }) });
}

/** A sleep that waits for nothing and records each delay asked for. */
export function recordingSleep(): { sleep: (ms: number) => Promise<void>; delays: number[] } {
  const delays: number[] = [];
  return { delays, sleep: async (ms: number) => void delays.push(ms) };
}

export const BASE_URL = "https://hr.example.test";
export const API_KEY = "test_key_0123456789";
