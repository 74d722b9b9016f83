// What a world keeps that users made or changed and each request may count on: the rate limit's
// counts and the scripted faults. In one process, objects in memory answering at once; with --state
// redis://, Redis shared by every replica, answering promises. The pipeline asks one question per
// request, admit, so a shared store answers it in one round trip.
import type { RateDecision, RateLimiter } from "./rate-limit.js";
import { FaultScript, type Fault, type FaultInput, type ScriptedAnswer } from "./faults.js";
import type { JournalEntry } from "./journal/entry.js";
import type { Awaitable } from "../kernel/awaitable.js";

/** One request of a known key, as the world's store counts it. */
export interface AdmitRequest {
  /** The API key (the rate limit counts per key). */
  key: string;
  operationId: string;
  /** Counted against the rate limit, and open to scripted faults (read API operations). */
  read: boolean;
  /** The key holds the operation's permission; otherwise the answer is a 403, after counting. */
  permitted: boolean;
  /** Milliseconds since the epoch, from the pipeline's clock. */
  nowMs: number;
  /**
   * The exchange as the journal keeps it when the answer is the one the caller already has (a
   * response cache hit): a shared store records it with the counting, in the same round trip.
   */
  entryIfAdmitted?: () => JournalEntry;
}

/** The store's answer: the request may go on, or why not. */
export type WorldAdmission =
  | { kind: "admitted"; rate?: RateDecision; delayMs?: number; recorded: boolean }
  | { kind: "rate-limited"; rate: RateDecision }
  | { kind: "forbidden"; rate?: RateDecision }
  | { kind: "fault"; rate?: RateDecision; answer: ScriptedAnswer & { status: number } }
  /** The world was deleted (through another replica): its keys are no longer known. */
  | { kind: "gone" };

/** A world's scripted faults, as the control API reads and changes them. */
export interface FaultsPort {
  /** The fault added, or the number held when the world is at its limit. */
  add(input: FaultInput): Awaitable<{ ok: true; fault: Fault } | { ok: false; held: number }>;
  list(): Awaitable<Fault[]>;
  /** Removes every fault; answers them as they were. */
  clear(): Awaitable<Fault[]>;
}

export interface WorldStore {
  /**
   * The rate limit, the permission's place in the order (429 before 403), and the scripted faults.
   * A store that cannot be reached rejects with StoreUnavailableError (kernel/store-unavailable.ts),
   * as every call into the state does.
   */
  admit(request: AdmitRequest): Awaitable<WorldAdmission>;
  readonly faults: FaultsPort;
  /** The rate limit in force (requests per window), or undefined when it is off. */
  readonly rateLimit: Pick<RateLimiter, "limit" | "windowMs"> | undefined;
}

/** A world's store in this process: a sliding-window rate limiter per key and a fault script. */
export class MemoryWorldStore implements WorldStore {
  readonly faults: FaultsPort;

  constructor(
    private readonly rateLimiter: RateLimiter | undefined,
    private readonly script: FaultScript,
  ) {
    this.faults = {
      add: (input) => {
        const fault = script.add(input);
        return fault ? { ok: true, fault } : { ok: false, held: script.size };
      },
      list: () => script.list(),
      clear: () => script.clear(),
    };
  }

  get rateLimit(): WorldStore["rateLimit"] {
    return this.rateLimiter && { limit: this.rateLimiter.limit, windowMs: this.rateLimiter.windowMs };
  }

  admit(request: AdmitRequest): WorldAdmission {
    let rate: RateDecision | undefined;
    if (this.rateLimiter && request.read) {
      rate = this.rateLimiter.take(request.key, request.nowMs);
      if (!rate.allowed) return { kind: "rate-limited", rate };
    }
    if (!request.permitted) return { kind: "forbidden", rate };
    const scripted = request.read ? this.script.take(request.operationId) : undefined;
    if (scripted?.status !== undefined) return { kind: "fault", rate, answer: { ...scripted, status: scripted.status } };
    return { kind: "admitted", rate, delayMs: scripted?.delayMs, recorded: false };
  }
}
