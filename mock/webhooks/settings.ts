// The engine's options, checked once where startMock (or a test) hands them over, and the settings
// they give with the AsyncAPI document's delivery rules. `timeScale` multiplies the retry delays and
// the response timeout; the timeout keeps a floor (default 1 s), because a compressed timeout of a
// few milliseconds would fail healthy receivers.
import { mockLimits } from "../../generated/control-facts.js";
import type { AttemptRecord, DeliveryLogEntry } from "./delivery-log.js";
import { deliveryRules } from "../../generated/webhook-facts.js";

/** Timers and the clock of the delivery lanes; tests inject their own. */
export interface Scheduler {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  /** Milliseconds since the epoch; default Date.now. */
  now?(): number;
}

export const realScheduler: Scheduler = {
  setTimeout: (callback, ms) => {
    const timer = setTimeout(callback, ms);
    // A forgotten engine must not keep a process alive; the HTTP server does that while it serves.
    timer.unref();
    return timer;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
  now: () => Date.now(),
};

export interface WebhookEngineOptions {
  /** Multiplies retry delays and the response timeout; above 0, default 1. 0.001 turns two days into about 150 s. */
  timeScale?: number;
  /** The real service's URL rules: https only, no private or internal hosts. Default false (development mode). */
  strictUrls?: boolean;
  /** Development mode only: accept address literals in private or internal ranges (10.0.0.5, fd00::1). Default false. */
  allowPrivateUrls?: boolean;
  /** Probability 0..1 that an event is delivered twice to an endpoint (same event id, new delivery id). Default 0. */
  duplicateRate?: number;
  /** Hold new events briefly and send them in random order. Default false. */
  shuffle?: boolean;
  /** How long shuffle holds events, milliseconds (not scaled). Default 100. */
  shuffleWindowMs?: number;
  /** Attempts in flight per endpoint at most. Default 10. */
  concurrency?: number;
  /** Lower bound of the scaled response timeout, milliseconds. Default 1000. */
  responseTimeoutFloorMs?: number;
  /** Seed of picks, seeded ids, duplicates and shuffles; default the dataset's seed. */
  seed?: number;
  /** Delivery log size per organisation: entries (event × endpoint) kept; default the control document's x-mock-limits. */
  logLimit?: number;
  /** Deliveries waiting per endpoint at most, and in all; past either, the oldest is dropped. Defaults: x-mock-limits. */
  maxWaitingPerEndpoint?: number;
  maxWaiting?: number;
  /** One line per delivery attempt (never a secret or a URL's query string). */
  log?: (line: string) => void;
  /** Internal errors, one line each (an event that fails its schema); default stderr. */
  onError?: (line: string) => void;
  /** Told of every attempt of every world's deliveries (GET /_mock/metrics counts them; --log-format json prints them). */
  observe?: AttemptObserver;
  scheduler?: Scheduler;
}

/** Told of one attempt, once its entry shows the state it left the delivery in. */
export type AttemptObserver = (entry: DeliveryLogEntry, record: AttemptRecord) => void;

type Resolved = "timeScale" | "strictUrls" | "allowPrivateUrls" | "duplicateRate" | "shuffle" | "shuffleWindowMs" | "concurrency" | "logLimit" | "maxWaitingPerEndpoint" | "maxWaiting";

export type EngineSettings = Required<Pick<WebhookEngineOptions, Resolved>> & {
  /** The response timeout in force: max(floor, spec timeout × timeScale). */
  responseTimeoutMs: number;
  /** Scaled delay before each attempt, milliseconds; the first is 0. */
  retryDelaysMs: number[];
  maxEndpointsPerOrganisation: number;
};

/** Ranges of the numeric options set from the command line too (hr-mock serve's flags use them). */
export const OPTION_RANGES = {
  timeScale: { ok: (x: number) => x > 0 && x <= 100, text: "a number above 0 and at most 100" },
  duplicateRate: { ok: (x: number) => x >= 0 && x <= 1, text: "a number from 0 to 1" },
} as const;

/** A misconfigured engine: one sentence. */
export class WebhookOptionError extends Error {
  override readonly name = "WebhookOptionError";
}

/** The options as settings; a bad one throws WebhookOptionError naming it. */
export function resolveSettings(options: WebhookEngineOptions): EngineSettings {
  const timeScale = checked("timeScale", options.timeScale ?? 1, OPTION_RANGES.timeScale.ok, OPTION_RANGES.timeScale.text);
  const duplicateRate = checked("duplicateRate", options.duplicateRate ?? 0, OPTION_RANGES.duplicateRate.ok, OPTION_RANGES.duplicateRate.text);
  const concurrency = checked("concurrency", options.concurrency ?? 10, (x) => Number.isInteger(x) && x >= 1 && x <= 1000, "a whole number from 1 to 1000");
  const floor = checked("responseTimeoutFloorMs", options.responseTimeoutFloorMs ?? 1000, (x) => Number.isFinite(x) && x >= 1, "a number of milliseconds of at least 1");
  const shuffleWindowMs = checked("shuffleWindowMs", options.shuffleWindowMs ?? 100, (x) => x >= 0 && x <= 60_000, "milliseconds from 0 to 60000");
  const logLimit = count("logLimit", options.logLimit ?? mockLimits.deliveryLogPerOrganisation);
  const maxWaitingPerEndpoint = count("maxWaitingPerEndpoint", options.maxWaitingPerEndpoint ?? mockLimits.maxWaitingPerEndpoint);
  const maxWaiting = count("maxWaiting", options.maxWaiting ?? mockLimits.maxWaiting);
  return Object.freeze({
    timeScale,
    strictUrls: options.strictUrls ?? false,
    allowPrivateUrls: options.allowPrivateUrls ?? false,
    duplicateRate,
    shuffle: options.shuffle ?? false,
    shuffleWindowMs,
    concurrency,
    responseTimeoutMs: Math.max(floor, Math.round(deliveryRules.responseTimeoutSeconds * 1000 * timeScale)),
    retryDelaysMs: deliveryRules.retryScheduleSeconds.map((s) => s * 1000 * timeScale),
    maxEndpointsPerOrganisation: deliveryRules.maxEndpointsPerOrganisation,
    logLimit,
    maxWaitingPerEndpoint,
    maxWaiting,
  });
}

function count(name: string, value: unknown): number {
  return checked(name, value, (x) => Number.isSafeInteger(x) && x >= 1, "a whole number of at least 1");
}

/** The option's number when `ok`; otherwise a WebhookOptionError naming it and what it must be. */
function checked(name: string, value: unknown, ok: (x: number) => boolean, text: string): number {
  if (typeof value !== "number" || !ok(value)) throw new WebhookOptionError(`${name} must be ${text}, got ${String(value)}`);
  return value;
}
