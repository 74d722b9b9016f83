// What an operator's log pipeline reads of a running mock: the request lines, the delivery lines and
// the lifecycle events (ready, draining, stopped, store lost, store back), as text (one line each, as
// they always were) or as JSON (`--log-format json`: one object a line with time, level, event and
// the fields). Nothing here prints a key or a secret: callers pass what the text lines already show
// (a key's label, never the key; URLs as the mock shows them, secrets masked).

export const LOG_FORMATS = ["text", "json"] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export type LogLevel = "info" | "warn" | "error";

/** A field's value: what JSON writes as it is. */
export type LogValue = string | number | boolean | null;
export type LogFields = Readonly<Record<string, LogValue | undefined>>;

/** The lifecycle events a log pipeline may wait for or alert on. */
export type LifecycleEvent = "ready" | "draining" | "closing" | "stopped" | "stopping-at-once" | "store-lost" | "store-back";

export interface OperatorLog {
  readonly format: LogFormat;
  /**
   * One event: `text` is the line the text format prints (as before --log-format existed); the JSON
   * format prints `{time, level, event, ...fields, message: text}` instead.
   */
  event(level: LogLevel, event: string, text: string, fields?: LogFields): void;
  /** A lifecycle event (store-lost and stopping-at-once are warnings, the others information). */
  lifecycle(event: LifecycleEvent, text: string, fields?: LogFields): void;
}

/** Where lines go: `out` for requests, deliveries and ready; `err` for the rest (as the text lines always went). */
export interface LogStreams {
  out: (line: string) => void;
  err: (line: string) => void;
}

/** Events whose lines go to the standard output (the others go to the error output). */
const ON_OUT = new Set(["request", "delivery", "ready"]);

export function createOperatorLog(format: LogFormat, streams: LogStreams, clock: () => number = Date.now): OperatorLog {
  const event = (level: LogLevel, name: string, text: string, fields: LogFields = {}) => {
    const write = ON_OUT.has(name) ? streams.out : streams.err;
    write(format === "text" ? text : jsonLine(level, name, text, fields, clock()));
  };
  return {
    format,
    event,
    lifecycle: (name, text, fields) => event(name === "store-lost" || name === "stopping-at-once" ? "warn" : "info", name, text, fields),
  };
}

/** One JSON object on one line: time, level and event first, then the fields, then the text line as `message`. */
export function jsonLine(level: LogLevel, event: string, text: string, fields: LogFields, now: number): string {
  const line: Record<string, LogValue> = { time: new Date(now).toISOString(), level, event };
  for (const [name, value] of Object.entries(fields)) if (value !== undefined && !(name in line)) line[name] = value;
  line.message = text;
  return JSON.stringify(line);
}

/** A --log-format value, or undefined when it is not one. */
export function logFormatOf(text: string): LogFormat | undefined {
  return (LOG_FORMATS as readonly string[]).includes(text) ? (text as LogFormat) : undefined;
}
