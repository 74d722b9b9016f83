// The options of the request path, checked once where they enter (startMock and the MSW handlers
// take the same ones; startMock's own are in start-options.ts): each mistake is one sentence in a
// MockOptionError. Nothing Node-only: the handlers run in a page.
import type { FailureStatus } from "../kernel/envelope.js";
import { MockOptionError } from "../kernel/option-error.js";
import { tableSettings, type TableSettings } from "./settings.js";

export { MockOptionError };

/** The options startMock and the MSW handlers share. */
export interface PipelineSettingsInput {
  /** Dataset seed: the same seed gives the same data. Each option's default and range: settings.ts. */
  seed?: number;
  /** Multiplies employees and leave requests. */
  scale?: number;
  /** The dataset's "today" (ISO date or Date); default the real current date. Pin it in tests. */
  today?: string | Date;
  /** Requests per key in the spec's rolling window, or "off". */
  rateLimit?: number | "off";
  /** "http": failures carry their status; 200: every failure is answered with HTTP 200. */
  failureStatus?: FailureStatus;
  /** Delay before every answer, milliseconds. */
  latencyMs?: number;
  /** Probability 0..1 of answering an operation with an injected 503 (seeded by `seed`). */
  failRate?: number;
  /** Requests each world's journal keeps (the demo keys' world and each sandbox); 0 turns the journal off. */
  journalSize?: number;
  /** Megabytes all worlds' journals share: past it, the oldest requests of the journal holding the most go first. */
  journalMemoryMb?: number;
}

/** The request path's settings, checked (settings.ts: the one table of rules and defaults). */
export type PipelineSettings = Pick<TableSettings, "seed" | "scale" | "today" | "rateLimit" | "failureStatus" | "latencyMs" | "failRate" | "journalSize" | "journalMemoryMb">;

const PIPELINE_FLAGS = ["seed", "scale", "rate-limit", "failure-status", "latency", "fail-rate", "journal-size", "journal-memory", "today"] as const;

export function checkPipelineOptions(options: PipelineSettingsInput): PipelineSettings {
  return tableSettings(options as Readonly<Record<string, unknown>>, PIPELINE_FLAGS);
}
