// The settings of `hr-mock serve` and `startMock`, one row each: the flag, its HR_MOCK_* variable
// (named from the flag), startMock's option, the default, the rule a value must meet and the help.
// The command line's parser, the variables, checkOptions, --help and the guide's table read these
// rows, so a value is checked once, with one message, wherever it came from. A new setting is a row
// here and the code that uses its value. Nothing Node-only: the MSW handlers check their options here.
import { mockLimits } from "../../generated/control-facts.js";
import type { DataFile } from "../data/data-file.js";
import type { KeySpec } from "../keys/demo-keys.js";
import { TODAY_RANGE, normalizeToday } from "../data/dates.js";
import { DEFAULT_HOST, DEFAULT_PORT, RATE_LIMIT_DEFAULT, RATE_LIMIT_WINDOW_MS } from "../kernel/limits.js";
import { MockOptionError } from "../kernel/option-error.js";
import { LOG_FORMATS, logFormatOf, type LogFormat } from "../kernel/operator-log.js";
import { quoted, readDecimal, readWhole } from "../kernel/parse-error.js";
import { REDIS_PASSWORD_VARIABLE, stateAddressProblem } from "../state/address.js";
import { OPTION_RANGES } from "../webhooks/settings.js";

/** A value's rule: how a flag's or a variable's text becomes a value, and the check every value passes. */
interface Rule<T> {
  read?(text: string): unknown;
  /** The value as the mock uses it; throws a MockOptionError naming `name` (the flag, variable or option). */
  check(value: unknown, name: string, shown: string): T;
}

export interface Setting<T = unknown, O extends string | undefined = string | undefined> {
  /** startMock's option; none for a setting of the command line only. */
  option: O;
  /** A switch (boolean), or text (string), given more than once when `multiple`. */
  type: "boolean" | "string";
  multiple?: true;
  default: T;
  rule: Rule<T>;
  /** --help: what follows the flag, its text (lines), another form of the same flag, its section. */
  arg?: string;
  help: string;
  also?: { arg: string; help: string };
  section?: "webhooks";
}

const refuse = (name: string, what: string, shown: string) => new MockOptionError(`${name} must be ${what}, got ${shown}`);
const raise = (error: Error): never => {
  throw error;
};

function number(what: string, ok: (x: number) => boolean, whole = false): Rule<number> {
  return {
    read: whole ? readWhole : readDecimal,
    check: (value, name, shown) => {
      if (typeof value === "number" && (whole ? Number.isSafeInteger(value) : Number.isFinite(value)) && ok(value)) return value;
      throw refuse(name, what, shown);
    },
  };
}

const whole = (min: number, max: number, what = `a whole number from ${min} to ${max}`) => number(what, (x) => x >= min && x <= max, true);

/** Text that may not be blank (a path, a host). */
const text: Rule<string> = { check: (value, name) => (typeof value === "string" && value.trim() !== "" ? value : raise(new MockOptionError(`${name} needs a value`))) };

/** Text taken as it is given (a URL or a secret the webhook checks judge). */
const anyText: Rule<string> = { check: (value) => String(value) };

/** Text, or what startMock takes instead (a data file's content, key definitions): checked where it is read. */
const textOr = <T>(): Rule<string | T> => ({ check: (value, name, shown) => (typeof value === "string" ? text.check(value, name, shown) : (value as T)) });

function oneOf<T extends string | number>(values: readonly T[], what: string, read: (text: string) => unknown = (t) => t): Rule<T> {
  return { read, check: (value, name, shown) => (values.includes(value as T) ? (value as T) : raise(refuse(name, what, shown))) };
}

/** A switch; startMock's `log` also takes a function that receives the lines. */
const onOff: Rule<boolean> = { check: (value) => value as boolean };

/** Why `origin` is not an origin as a browser sends it (scheme, host, optional port; nothing else). */
export function originProblem(origin: unknown): string | undefined {
  const shown = JSON.stringify(String(origin)).slice(0, 80);
  let url: URL;
  try {
    url = new URL(String(origin));
  } catch {
    return `${shown} is not an origin; write it as a browser sends it, e.g. http://localhost:5173`;
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.origin !== origin) {
    return `${shown} is not an origin; write scheme, host and port only, as a browser sends it, e.g. http://localhost:5173`;
  }
  return undefined;
}

const origins: Rule<string[]> = {
  check: (value, name) => {
    if (!Array.isArray(value)) throw new MockOptionError(`${name} must be a list of origins such as http://localhost:5173`);
    for (const origin of value) {
      const problem = originProblem(origin);
      if (problem) throw new MockOptionError(`${name}: ${problem}`);
    }
    return value as string[];
  },
};

/** The dataset's today: an ISO date (or a Date, from startMock) in the calendar and in the range the dataset takes. */
const today: Rule<string | undefined> = {
  check: (value, name, shown) => {
    try {
      return normalizeToday(value as string | Date);
    } catch {
      throw refuse(name, `a date YYYY-MM-DD from ${TODAY_RANGE.from} to ${TODAY_RANGE.to}`, shown);
    }
  },
};

/** A folder or a Redis address, never a guess (state/address.ts). */
const stateAddress: Rule<string | undefined> = {
  check: (value, name, shown) => {
    const problem = stateAddressProblem(text.check(value, name, shown), name);
    return problem ? raise(new MockOptionError(problem)) : (value as string);
  },
};

/** Where an installed hr-service-mock keeps the data file's JSON Schema, and its package export. */
export const DATA_FILE_SCHEMA_PATH = "./node_modules/hr-service-mock/dist/generated/data-file.schema.json";
export const DATA_FILE_SCHEMA_EXPORT = "hr-service-mock/data-file.schema.json";
const MAX_DRAIN_S = 600;
/** A whole number as toLocaleString("en") writes it ("2,048"), without loading ICU's number formats (7 MB resident) for a help line. */
const grouped = (n: number) => String(n).replace(/\B(?=(\d{3})+$)/g, ",");

/** A setting; "{default}" in its help is the row's default. */
function row<T, O extends string | undefined = undefined>(setting: Omit<Setting<T, O>, "option" | "type"> & { option?: O; type?: "boolean" }): Setting<T, O> {
  return { type: "string", ...setting, option: setting.option as O, help: setting.help.replace("{default}", String(setting.default)) };
}

/** Every setting, in the order --help and the guide list them. */
export const SETTINGS = {
  port: row({ option: "port", arg: "<n>", default: DEFAULT_PORT, rule: whole(0, 65535), help: "Port to listen on, 0 for any free port (default {default})." }),
  host: row({ option: "host", arg: "<h>", default: DEFAULT_HOST, rule: text, help: "Address to bind (default {default})." }),
  seed: row({ option: "seed", arg: "<n>", default: 1, rule: whole(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER), help: "Dataset seed, an integer; the same seed gives the same data (default {default})." }),
  today: row({ option: "today", arg: "<YYYY-MM-DD>", default: undefined, rule: today, help: `The dataset's "today": leave spans last year to the coming months from
it, and balances count its year (default the real UTC date). Pin it for
byte-identical data on every day.` }),
  scale: row({ option: "scale", arg: "<x>", default: 1, rule: number("a number above 0 and at most 1000", (x) => x > 0 && x <= 1000), help: "Multiplies employees and leave requests, above 0 and at most 1000\n(default {default})." }),
  data: row({ option: "data", arg: "<file>", default: undefined, rule: textOr<DataFile>(), help: `Organisations, companies, departments, employees, leave types, leave
requests, holidays and balances from a data file (YAML or JSON); what
it leaves out is generated from --seed. A file with problems stops
the start, one line per problem, all of them. Its format, for an
editor's $schema (from your project's root):
${DATA_FILE_SCHEMA_PATH}
(the package export ${DATA_FILE_SCHEMA_EXPORT}).` }),
  // One ceiling for the flag and startMock alike: a billion requests a minute is no limit a mock meets.
  "rate-limit": row<number | "off", "rateLimit">({ option: "rateLimit", arg: "<n|off>", default: RATE_LIMIT_DEFAULT, rule: { read: (t) => (t === "off" ? t : readWhole(t)), check: (v, name, shown) => (v === "off" ? v : whole(1, 1_000_000_000, 'a whole number of at least 1, or "off"').check(v, name, shown)) }, help: `Requests per API key in any rolling ${RATE_LIMIT_WINDOW_MS / 1000} seconds (default {default}).` }),
  "failure-status": row<"http" | 200, "failureStatus">({ option: "failureStatus", arg: "<http|200>", default: "http", rule: oneOf<"http" | 200>(["http", 200], "http or 200", (t) => (t === "200" ? 200 : t)), help: "http: failures carry their HTTP status (default); 200: every\nfailure is answered with HTTP 200 and the same envelope." }),
  latency: row({ option: "latencyMs", arg: "<ms>", default: 0, rule: number("milliseconds from 0 to 600000", (x) => x >= 0 && x <= 600_000), help: "Delay every API answer by this many milliseconds (default {default})." }),
  "fail-rate": row({ option: "failRate", arg: "<p>", default: 0, rule: number("a number from 0 to 1", (x) => x >= 0 && x <= 1), help: "Answer this share (0 to 1) of API requests with an injected 503,\nseeded by --seed (default {default})." }),
  keys: row({ option: "keys", arg: "<file>", default: undefined, rule: textOr<KeySpec[]>(), help: 'More API keys, a JSON array of\n{"key", "organisation": 1|2|<id>, "permissions": [...], "label"}.' }),
  "cors-origin": row<string[], "corsOrigins">({ option: "corsOrigins", arg: "<origin>", multiple: true, default: [], rule: origins, help: `Let pages of this origin (e.g. http://localhost:5173) call the control
API under /_mock/; repeat for more. The read API answers pages of any
origin; the control API, by default, none.` }),
  state: row({ option: "state", arg: "<dir>", default: undefined, rule: stateAddress, help: `Keep the mock's state in this directory and restore it at start: data
changes from triggers, sandboxes with their keys, webhook endpoints with
their secrets, the delivery log, and deliveries waiting for a retry
(attempted after a restart at their time, or at once if it has passed).
Created owner-only (0700, files 0600); one mock at a time. Refused if
made with another --seed, --scale, --today or --data file; without
--today, the state's today is used.`, also: { arg: "redis://[:password@]host:port[/db]", help: `Keep the state in Redis instead, shared by any number of replicas
started with the same URL, --seed, --scale, --today and --data: one
mock behind a load balancer. A node of a Redis Cluster works too. Each
replica keeps only its response cache; see the guide "Run one mock for
many teams". The password is better given in ${REDIS_PASSWORD_VARIABLE}
or a file than in the URL: the command line is readable by every user.`, } }),
  "redis-password-file": row({ arg: "<path>", default: undefined, rule: text, help: "Read the Redis password from this file (a mounted Secret); a trailing\nnewline is not part of it." }),
  "journal-size": row({ option: "journalSize", arg: "<n>", default: mockLimits.journalPerWorld, rule: whole(0, mockLimits.maxJournalPerWorld), help: `Requests each world's journal keeps for GET /_mock/requests, verify()\nand coverage, from 0 (off) to ${mockLimits.maxJournalPerWorld} (default {default}).` }),
  "journal-memory": row({ option: "journalMemoryMb", arg: "<MB>", default: mockLimits.journalMemoryMb, rule: whole(1, mockLimits.maxJournalMemoryMb, `a whole number of megabytes from 1 to ${mockLimits.maxJournalMemoryMb}`), help: `Memory all worlds' journals share, from 1 to ${mockLimits.maxJournalMemoryMb} MB (default {default}):
past it, the oldest requests of the journal holding the most go first.
Each request keeps at most ${grouped(mockLimits.journalUrlBytes)} bytes of its URL (urlTruncated).` }),
  log: row<boolean | ((line: string) => void), "log">({ option: "log", type: "boolean", default: false, rule: onOff, help: "Print one line per request (off by default; keys are never printed)." }),
  drain: row({ arg: "<s>", default: 5, rule: number(`seconds from 0 to ${MAX_DRAIN_S}`, (x) => x >= 0 && x <= MAX_DRAIN_S), help: `On SIGTERM, keep serving this many seconds (0 to ${MAX_DRAIN_S}, default {default})
while GET /_mock/ready answers 503 and balancers stop sending, then
stop taking connections, finish the requests in flight and exit 0.
Ctrl-C (SIGINT) stops without waiting; a second signal at once.` }),
  "log-format": row<LogFormat, "logFormat">({ option: "logFormat", arg: "<text|json>", default: "text", rule: { check: (v, name, shown) => logFormatOf(String(v)) ?? raise(refuse(name, LOG_FORMATS.join(" or "), shown)) }, help: `text: lines as sentences (default); json: one JSON object per line
(time, level, event and its fields) for the request and delivery
lines, the lifecycle events (ready, draining, stopped, store lost and back)
and errors; no banner, and no key or secret is ever printed.` }),
  // The webhook engine's: startMock takes them in its `webhooks` option, checked by the engine with the same ranges.
  "webhook-url": row({ section: "webhooks", arg: "<url>", default: undefined, rule: anyText, help: "Register a webhook endpoint for organisation 1 at start and print\nits signing secret. https://, or http:// on a loopback host." }),
  "webhook-secret": row({ section: "webhooks", arg: "<s>", default: undefined, rule: anyText, help: "Use this whsec_… signing secret for it instead of a generated one." }),
  events: row({ section: "webhooks", arg: "<t,t,...>", default: undefined, rule: anyText, help: "Only these event types for it (default: every event)." }),
  "strict-urls": row({ section: "webhooks", type: "boolean", default: false, rule: onOff, help: "Endpoint URLs as the real service takes them: https:// only, no\nprivate or internal hosts (loopback, 10.x, 192.168.x, localhost, ...)." }),
  "allow-private-urls": row({ section: "webhooks", type: "boolean", default: false, rule: onOff, help: `Without --strict-urls, also accept endpoint addresses in private or
link-local ranges (https://10.0.0.5/, https://[fd00::1]/); by default
only loopback and public hosts, so a web page cannot aim the mock's
signed POSTs into your network.` }),
  "time-scale": row<number | undefined>({ section: "webhooks", arg: "<n>", default: undefined, rule: number(OPTION_RANGES.timeScale.text, OPTION_RANGES.timeScale.ok), help: "Multiply webhook retry delays and the 10 s response timeout (the\ntimeout never below 1 s); 0.001 runs two days of retries in ~150 s." }),
  "duplicate-rate": row<number | undefined>({ section: "webhooks", arg: "<p>", default: undefined, rule: number(OPTION_RANGES.duplicateRate.text, OPTION_RANGES.duplicateRate.ok), help: "Deliver this share (0 to 1) of events twice (same id, new delivery id)." }),
  shuffle: row({ section: "webhooks", type: "boolean", default: false, rule: onOff, help: "Hold events briefly and deliver them in random order." }),
};

type Rows = typeof SETTINGS;
export type Flag = keyof Rows;
export type ValueOf<F extends Flag> = Rows[F] extends Setting<infer T, string | undefined> ? T : never;
export type OptionOf<F extends Flag> = Rows[F]["option"];
/** startMock's options that the table holds, resolved: each a checked value, defaults applied. */
export type TableSettings = { -readonly [F in Flag as OptionOf<F> extends string ? OptionOf<F> : never]: ValueOf<F> };
/** Every flag's value, from the command line or its variable, checked, defaults applied. */
export type FlagValues = { -readonly [F in Flag]: ValueOf<F> };

/**
 * A setting's value: given as text (`fromText`: a flag, a variable) or as startMock's option; the
 * default when not given; otherwise the rule's check, whose MockOptionError names `name`.
 */
export function settingValue<F extends Flag>(flag: F, given: unknown, name: string, fromText: boolean): ValueOf<F> {
  const setting = SETTINGS[flag] as unknown as Setting<ValueOf<F>>;
  if (given === undefined) return setting.default;
  const value = fromText && typeof given === "string" && setting.rule.read ? setting.rule.read(given) : given;
  const shown = typeof given === "string" ? quoted(given) : Array.isArray(given) ? quoted(given.join(",")) : String(given);
  return setting.rule.check(value, name, shown);
}

/** The table's startMock options (those of `flags`, default all), each checked (a MockOptionError naming the option), defaults applied. */
export function tableSettings(options: Readonly<Record<string, unknown>>, flags = Object.keys(SETTINGS) as readonly Flag[]): TableSettings {
  const settings: Record<string, unknown> = {};
  for (const flag of flags) {
    const { option } = SETTINGS[flag] as Setting;
    if (option !== undefined) settings[option] = settingValue(flag, options[option], option, false);
  }
  return settings as TableSettings;
}

/** Every flag's value from the command line's and the variables' text; `named` says where each came from. */
export function flagValues(given: Readonly<Record<string, unknown>>, named: (flag: Flag) => string): FlagValues {
  return Object.fromEntries((Object.keys(SETTINGS) as Flag[]).map((flag) => [flag, settingValue(flag, given[flag], named(flag), true)])) as FlagValues;
}

/** The options of the table's flags, keyed by option: what startMock is given from them. */
export function optionsOf(values: FlagValues): TableSettings {
  return Object.fromEntries(Object.entries(SETTINGS).flatMap(([flag, { option }]) => (option === undefined ? [] : [[option, values[flag as Flag]]]))) as TableSettings;
}
