// Recording an exchange in the journal of the world that answered it, once per request, from the one
// request path (dispatch.ts), so HTTP, in-process and MSW requests are recorded alike; a request of no
// known key goes to the default world's. Only what the pipeline already has is kept (the URL as sent,
// cut to the spec's bound, status, findings, caller's label): no parsing, so the cache's path stays fast.
import { mockLimits } from "../../generated/control-facts.js";
import { maskSecrets, ownCopy } from "../kernel/text.js";
import type { MockedReply } from "./answer.js";
import type { JournalEntry, RecordedBody } from "../worlds/journal/journal.js";
import type { Awaitable } from "../kernel/awaitable.js";
import type { World, Worlds } from "../worlds/world.js";
import type { Identified } from "./gate.js";

/** What the recorder needs of a request (dispatch.ts's ApiRequest). */
export type RecordedInput = { method: string; url: string; body?: Uint8Array | string };

/** What the recorder needs of an answer; `nearest`: for a request no operation matched, the operations it most likely meant. */
export type RecordedOutput = Pick<MockedReply, "status" | "caller" | "violations" | "holdMs"> & { nearest?: readonly string[] };

/** `identified`: the request's key, as the dispatcher identified it once. */
export type Recorder = (request: RecordedInput, reply: RecordedOutput, operationId: string | undefined, started: number, identified: Identified) => Awaitable<void>;

export interface RecorderOptions {
  worlds: Worlds;
  /** The monotonic clock the time taken is measured with: performance.now()'s, whose origin is performance.timeOrigin. */
  now: () => number;
}

export function createRecorder({ worlds, now }: RecorderOptions): Recorder {
  return (request, reply, operationId, started, identified) => {
    // A key whose sandbox went while it was answered (deleted by this request) has no journal left: the default world's keeps it.
    const held = (world: World) => world === worlds.default || worlds.sandbox(world.id) === world;
    const apiKey = identified.ok && held(identified.apiKey.world) ? identified.apiKey : undefined;
    const { journal } = apiKey?.world ?? worlds.default;
    if (!journal.on) return;
    // The answer names its caller when it has one; a copy only when it has none (a refusal before admission).
    const recorded = reply.caller !== undefined || apiKey === undefined ? reply : { ...reply, caller: apiKey.label };
    return journal.record(entryOf(request, recorded, operationId, started, now()));
  };
}

/** The wall-clock time, to the microsecond, of a monotonic reading `started`: what the journal stamps an arrival with. */
export function arrivalTime(started: number): number {
  return Math.round((performance.timeOrigin + started) * 1000) / 1000;
}

/** The journal's entry of one exchange (`started` and `ended`: the monotonic clock's readings when it arrived and when it was answered). */
export function entryOf(request: RecordedInput, reply: RecordedOutput, operationId: string | undefined, started: number, ended: number): JournalEntry {
  const urlTruncated = request.url.length > mockLimits.journalUrlBytes;
  return {
    // When it arrived (the journal's `since` selects by it; reading the time once answered put a
    // request a client had seen answered after a later `since`), to the microsecond: replicas send
    // their records to a shared journal in batches (mock/state/redis/journal.ts), and its readers
    // order them by this.
    at: arrivalTime(started),
    method: request.method,
    // A URL as sent is ASCII (Node's parser gives one character per byte): characters are bytes.
    url: urlTruncated ? ownCopy(request.url.slice(0, mockLimits.journalUrlBytes)) : request.url,
    urlTruncated,
    operationId,
    caller: reply.caller,
    status: reply.status,
    violations: reply.violations,
    nearest: reply.nearest,
    durationMs: ended - started + (reply.holdMs ?? 0),
    body: request.body === undefined ? undefined : bodyOf(request.body),
  };
}

/** The start of a body as text, signing secrets masked (a journal is readable by the world's keys). */
function bodyOf(body: Uint8Array | string): RecordedBody | undefined {
  const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
  if (bytes.length === 0) return undefined;
  const cap = mockLimits.journalBodyBytes;
  const text = new TextDecoder().decode(bytes.subarray(0, cap)).replace(/\uFFFD+$/, "");
  return { text: maskSecrets(text), bytes: bytes.length, truncated: bytes.length > cap };
}
