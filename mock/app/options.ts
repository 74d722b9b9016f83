// The options of the request path, checked once where they enter (startMock and the MSW handlers
// take the same ones; startMock's own are in start-options.ts): each mistake is one sentence in a
// MockOptionError. Nothing Node-only: the handlers run in a page.
import { normalizeToday } from "../data/dates.js";
import type { FailureStatus } from "../kernel/envelope.js";
import { RATE_LIMIT_DEFAULT } from "../kernel/limits.js";
import { MockOptionError } from "../kernel/option-error.js";
import { mockLimits } from "../../generated/control-facts.js";

export { MockOptionError };

/** The options startMock and the MSW handlers share. */
export interface PipelineSettingsInput {
  /** Dataset seed, default 1: the same seed gives the same data (`hr-mock serve --seed`). */
  seed?: number;
  /** Multiplies employees and leave requests, default 1. */
  scale?: number;
  /** The dataset's "today" (ISO date or Date); default the real current date. Pin it in tests. */
  today?: string | Date;
  /** Requests per key in the spec's rolling window (x-rate-limit: 300 in 60 seconds by default), or "off". */
  rateLimit?: number | "off";
  /** "http" (default): failures carry their status; 200: every failure is answered with HTTP 200. */
  failureStatus?: FailureStatus;
  /** Delay before every answer, milliseconds. */
  latencyMs?: number;
  /** Probability 0..1 of answering an operation with an injected 503 (seeded by `seed`). */
  failRate?: number;
  /**
   * Requests each world's journal keeps (the demo keys' world and each sandbox), default 1,000
   * (the control document's x-mock-limits.journalPerWorld); 0 turns the journal off.
   */
  journalSize?: number;
  /**
   * Megabytes all worlds' journals share, default 64 (x-mock-limits.journalMemoryMb): past it, the
   * oldest requests of the journal holding the most go first.
   */
  journalMemoryMb?: number;
}

export interface PipelineSettings {
  seed: number;
  scale: number;
  rateLimit: number | "off";
  failureStatus: FailureStatus;
  latencyMs: number;
  failRate: number;
  journalSize: number;
  journalMemoryMb: number;
}

export function checkPipelineOptions(options: PipelineSettingsInput): PipelineSettings {
  const { seed = 1, scale = 1, rateLimit = RATE_LIMIT_DEFAULT, failureStatus = "http", latencyMs = 0, failRate = 0, journalSize = mockLimits.journalPerWorld, journalMemoryMb = mockLimits.journalMemoryMb } = options;
  if (!Number.isSafeInteger(seed)) throw new MockOptionError(`seed must be an integer, got ${seed}`);
  if (!(typeof scale === "number" && Number.isFinite(scale) && scale > 0 && scale <= 1000)) {
    throw new MockOptionError(`scale must be a number above 0 and at most 1000, got ${scale}`);
  }
  if (rateLimit !== "off" && !(Number.isInteger(rateLimit) && rateLimit >= 1)) {
    throw new MockOptionError(`rateLimit must be a whole number of at least 1 or "off", got ${rateLimit}`);
  }
  if (failureStatus !== "http" && failureStatus !== 200) throw new MockOptionError(`failureStatus must be "http" or 200, got ${failureStatus}`);
  if (!(typeof latencyMs === "number" && Number.isFinite(latencyMs) && latencyMs >= 0 && latencyMs <= 600_000)) {
    throw new MockOptionError(`latencyMs must be a number of milliseconds from 0 to 600000, got ${latencyMs}`);
  }
  if (!(typeof failRate === "number" && failRate >= 0 && failRate <= 1)) throw new MockOptionError(`failRate must be a number from 0 to 1, got ${failRate}`);
  if (!(Number.isInteger(journalSize) && journalSize >= 0 && journalSize <= mockLimits.maxJournalPerWorld)) {
    throw new MockOptionError(`journalSize must be a whole number from 0 (off) to ${mockLimits.maxJournalPerWorld}, got ${journalSize}`);
  }
  if (!(Number.isInteger(journalMemoryMb) && journalMemoryMb >= 1 && journalMemoryMb <= mockLimits.maxJournalMemoryMb)) {
    throw new MockOptionError(`journalMemoryMb must be a whole number of megabytes from 1 to ${mockLimits.maxJournalMemoryMb}, got ${journalMemoryMb}`);
  }
  try {
    normalizeToday(options.today);
  } catch (error) {
    throw new MockOptionError((error as Error).message);
  }
  return { seed, scale, rateLimit, failureStatus, latencyMs, failRate, journalSize, journalMemoryMb };
}
