// One request, start to finish, as plain objects with no I/O, so node:http (http.ts) and in-process
// callers share it, for both documents the mock serves (the read API and the control API). The key
// is identified once, here. Prism's pipeline routes and validates the request (route.ts), answer.ts
// answers it; a repeated read request is answered from the response cache after the same admission
// (admission.ts), without Prism. Either way the exchange is recorded once, here (record.ts).
// HEAD is answered as GET without the body (RFC 9110 9.3.2). An unknown path is a 404 whoever asks
// (routing needs no key) naming what it most likely meant (near-miss.ts); a method the path lacks,
// the spec's 405 with Allow.
import type { PrismHttpComponents } from "@stoplight/prism-http";
import { createAnswer, nestedDeeperThan, type AnswerOptions, type MockedReply, type RequestContext } from "./answer.js";
import { failure, internalError } from "../kernel/envelope.js";
import { AUTH_THROTTLE, createAuthThrottle } from "../worlds/auth-throttle.js";
import { ANONYMOUS, createAdmission, type Admission, type AdmissionOptions } from "./admission.js";
import { andThen, type Awaitable } from "../kernel/awaitable.js";
import { createGate, type Identified } from "./gate.js";
import { createRouter, prismComponents, prismHeaders } from "./route.js";
import { splitTarget } from "../../src/query.js";
import { createPreferMocker } from "./prefer.js";
import { meant, nearMiss } from "./near-miss.js";
import { createRecorder, entryOf } from "./record.js";
import { storeUnavailable } from "../kernel/store-unavailable.js";
import type { ResponseCache } from "./response-cache.js";
import { bodyLimit, depthLimit, type LoadedSpec } from "../kernel/spec.js";
import { operationsAt } from "../kernel/path-template.js";
import { errorText, oneLine, printable } from "../kernel/text.js";
import type { ApiKey, Worlds } from "../worlds/world.js";

export interface ApiRequest {
  method: string;
  /** Path and query as sent (`/v1/leaverequest/list?PageSize=5`). */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /** The request body as sent (the edge passes it for POST, PUT and PATCH). */
  body?: Uint8Array | string;
  /** The edge stopped reading the body at bodyLimit(spec) bytes: the answer is a 413. */
  bodyTooLarge?: boolean;
  /** Who sent it (the remote address), for the throttle on failed authentication. */
  client?: string;
}

/** An answer as the edges send it: with the caller's label (never a key) for the request log. */
export interface ReplyWithCaller extends Omit<MockedReply, "cacheable"> {
  /** For a request no operation matched: the operations it most likely meant (the journal keeps them). */
  nearest?: readonly string[];
  /** The operation that answered (none when no operation matched): what the edge counts it under. */
  operationId?: string;
}

export type Dispatcher = (request: ApiRequest) => ReplyWithCaller | Promise<ReplyWithCaller>;

/** The response cache's answer: the reply, none kept (undefined), or a kept one gone stale during its admission. */
type FromCache = ReplyWithCaller | { stale: Admission } | undefined;

export interface DispatcherOptions extends Pick<AnswerOptions, "table" | "keyless" | "onInternalError">, Pick<AdmissionOptions, "failRate" | "random"> {
  spec: LoadedSpec;
  /** The default world and the sandboxes: every key, each with its world's data, counters and faults. */
  worlds: Worlds;
  cache: ResponseCache;
  /** The monotonic clock, performance.now()'s: durations, and the journal's times from its origin. */
  now: () => number;
  /** Holding back 401s of an address that keeps failing (default AUTH_THROTTLE), or "off". */
  authThrottle?: Partial<typeof AUTH_THROTTLE> | "off";
  /** Prism's components to use instead of its own (a test counts the calls through them). */
  prism?: Partial<PrismHttpComponents>;
}

export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const { spec, cache, onInternalError } = options;
  const operations = spec.operations;
  const throttle = options.authThrottle === "off" ? undefined : createAuthThrottle({ ...AUTH_THROTTLE, ...options.authThrottle, now: options.now });
  const gate = createGate(options.worlds.keys, throttle);
  // A world's answers go with it when it is reset or deleted.
  options.worlds.onForget((world) => cache.drop(world.id));
  const { default: home } = options.worlds;
  const anonymous = (): ApiKey => ({ key: "", organisation: 1, organizationId: home.dataset.organizationIds[0] ?? "", permissions: new Set(), label: ANONYMOUS, world: home });
  const admit = createAdmission({ gate, failRate: options.failRate, random: options.random, clock: options.now, anonymous });
  // One set of Prism's components: a request asks Prism once (route.ts), and its mocker once for a Prefer answer.
  const prism = prismComponents(options.prism);
  const answerRouted = createAnswer({ table: options.table, keyless: options.keyless, admit, prefer: createPreferMocker(prism), onInternalError });
  // The key is the gate's to judge (identified above): Prism's Bearer check would repeat it.
  const route = createRouter(spec, prism, { security: false });
  const limit = bodyLimit(spec);
  const depth = depthLimit(spec);
  const record = createRecorder({ worlds: options.worlds, now: options.now });
  // Every world's journal has the same bound: with 0 (off) nothing is measured or recorded.
  const recording = options.worlds.default.journal.on;

  const answer = (request: ApiRequest): Awaitable<ReplyWithCaller> => {
    const started = recording ? options.now() : 0;
    const head = request.method === "HEAD";
    const method = head ? "GET" : request.method;
    const { url, headers } = request;
    const { path, search } = splitTarget(url);
    const preferHeader = Array.isArray(headers.prefer) ? headers.prefer[0] : headers.prefer;
    // The key, once for the request: the cache, admission and the journal read this.
    const identified = gate.identify(headers.authorization);
    const parts: Parts = { method, path, search, head, started, identified, preferHeader };

    if (!preferHeader) {
      const go = (found: FromCache): Awaitable<ReplyWithCaller> => {
        if (found === undefined || "stale" in found) return viaPrism(request, parts, found?.stale);
        return head ? headOnly(found) : found;
      };
      return andThen(fromCache(request, parts), go);
    }
    return viaPrism(request, parts);
  };

  // A sandbox key not known here (one made through another replica) is looked up before the request goes on.
  // A state store out of reach (learning a key, catching up on a change) answers 503 naming it.
  return (request) => {
    const learning = options.worlds.learnKey(request.headers.authorization);
    const answered = learning ? learning.then(() => answer(request)) : answer(request);
    return answered instanceof Promise ? answered.catch(unreachable) : answered;
  };

  /** Prism's path: routing and validation, the answer, then the answer kept for the cache and recorded. */
  function viaPrism(request: ApiRequest, { method, path, search, head, started, identified, preferHeader }: Parts, admitted?: Admission): Promise<ReplyWithCaller> {
    const body = readBody(request, limit, depth);
    let operationId: string | undefined;
    // Prism takes a falsy body (null, 0, false) for none and would not validate it: it sees the text.
    const given = body && ("value" in body && body.value ? body.value : body.text);
    return route({ method, path, search, headers: prismHeaders(request.headers, body?.length), body: given })
      .then(async (routed): Promise<ReplyWithCaller> => {
        if (!routed.ok) return notRouted(routed.error, request.method, path);
        const { operation, validations, query } = routed;
        operationId = operation.operationId;
        const context: RequestContext = { path, search, query, identified, prefer: preferHeader, body: body && ("value" in body ? { value: body.value } : body.unreadable), bodyBytes: body?.length, client: request.client, admitted };
        const reply = await answerRouted(operation, validations, context);
        if (reply.cacheable) {
          const { world, organizationId, operationId } = reply.cacheable;
          cache.set(world.id, `${organizationId} ${method} ${request.url}`, world.dataset.version, { operationId, status: reply.status, body: reply.body, violations: reply.violations });
        }
        return { status: reply.status, body: reply.body, headers: reply.headers, caller: reply.caller, holdMs: reply.holdMs, violations: reply.violations, operator: reply.operator };
      })
      .catch((error: unknown): ReplyWithCaller => {
        const unavailable = storeUnavailable(error);
        if (unavailable) return unavailable;
        onInternalError(`hr-mock: internal error on ${method} ${printable(path, 200)}: ${oneLine(errorText(error))}`);
        return internalError();
      })
      .then(async (reply) => {
        if (recording && !reply.operator) await record(request, reply, operationId, started, identified);
        const answered = operationId === undefined ? reply : { ...reply, operationId };
        return head ? headOnly(answered) : answered;
      });
  }

  /**
   * A repeated request of a known key: the same admission as Prism's path, then the bytes kept. A
   * shared store records the exchange with its counting (one round trip); when the world moved on
   * during admission (a change made through another replica), the kept bytes are stale: Prism's
   * path answers, with the admission already made.
   */
  function fromCache(request: ApiRequest, { method, started, identified }: Parts): Awaitable<FromCache> {
    if (!identified.ok) return undefined;
    const { world, organizationId } = identified.apiKey;
    const version = world.dataset.version;
    const entry = cache.get(world.id, `${organizationId} ${method} ${request.url}`, version);
    if (!entry) return undefined;
    const { operationId } = entry;
    const kept = (admitted: Admission & { ok: true }): ReplyWithCaller => ({ status: entry.status, body: entry.body, headers: admitted.rateHeaders, caller: admitted.caller, holdMs: admitted.holdMs, violations: entry.violations, operationId });
    const entryIfAdmitted = recording ? () => entryOf(request, { status: entry.status, caller: identified.apiKey.label, violations: entry.violations }, entry.operationId, started, options.now()) : undefined;
    return andThen(admit(spec.byOperationId.get(entry.operationId)!, { identified, client: request.client }, entryIfAdmitted), (admitted): Awaitable<FromCache> => {
      if (admitted.ok && world.dataset.version !== version) return { stale: admitted };
      const reply: ReplyWithCaller = admitted.ok ? kept(admitted) : { ...admitted.reply, operationId };
      if (!recording || (admitted.ok && admitted.recorded)) return reply;
      return andThen(record(request, reply, entry.operationId, started, identified), () => reply);
    });
  }

  /** Prism's routing refusal as the spec's 404 naming what the caller may have meant, or its 405. */
  function notRouted(error: Error & { status?: number }, method: string, path: string): ReplyWithCaller {
    if (error.status === 405) {
      // The spec's 405 (components/responses/MethodNotAllowed), with the methods of the operations at the path.
      const at = operationsAt(operations, path);
      const allow = [...new Set(at.map((op) => op.method))];
      if (allow.includes("GET")) allow.push("HEAD");
      return { ...failure(405, `Method not allowed: ${safeMethod(method)} is not an operation of ${printable(path, 80)}; it answers ${allow.join(", ")}.`, { Allow: allow.join(", ") }), nearest: at.map((op) => op.operationId) };
    }
    if (error.status !== 404) throw error;
    const near = nearMiss(operations, method, path);
    const nearest = near.nearest.map((op) => op.operationId);
    const hint = meant(near) ?? "the API reference is at /docs";
    return { ...failure(404, `Not found: no operation at ${printable(path, 80)}; ${hint}${hint.endsWith("?") ? "" : "."}`), nearest };
  }
}

/** What the dispatcher reads of a request once, for both of its paths. */
interface Parts {
  /** GET for HEAD. */
  method: string;
  path: string;
  search: string;
  head: boolean;
  started: number;
  identified: Identified;
  preferHeader: string | undefined;
}

type ReadBody = { length: number; text: string } & ({ value: unknown } | { unreadable: NonNullable<RequestContext["body"]> });

/**
 * The body as JSON, or why it cannot be read: over `limit` bytes, not JSON, or nested deeper than
 * any operation reads (Prism then sees the text, never the deep value).
 */
function readBody(request: ApiRequest, limit: number, depth: number): ReadBody | undefined {
  const { body } = request;
  const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
  if (!bytes || (bytes.length === 0 && !request.bodyTooLarge)) return undefined;
  if (request.bodyTooLarge || bytes.length > limit) return { length: bytes.length, text: "", unreadable: { unreadable: "too-large", detail: "" } };
  const text = new TextDecoder().decode(bytes);
  try {
    const value = JSON.parse(text) as unknown;
    if (nestedDeeperThan(value, depth)) return { length: bytes.length, text, unreadable: { unreadable: "too-deep", detail: "" } };
    return { length: bytes.length, text, value };
  } catch (error) {
    return { length: bytes.length, text, unreadable: { unreadable: "not-json", detail: oneLine(printable((error as Error).message, 120)) } };
  }
}

/** HEAD: the GET answer's status and headers, its length, no body. */
function headOnly(reply: ReplyWithCaller): ReplyWithCaller {
  const length = typeof reply.body === "string" ? Buffer.byteLength(reply.body) : reply.body.length;
  return { ...reply, body: Buffer.alloc(0), headers: { ...reply.headers, "Content-Length": length } };
}

function unreachable(error: unknown): ReplyWithCaller {
  const unavailable = storeUnavailable(error);
  if (unavailable) return unavailable;
  throw error;
}

function safeMethod(method: string): string {
  return /^[A-Z-]{1,16}$/i.test(method) ? method.toUpperCase() : "this method";
}
