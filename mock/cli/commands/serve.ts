// `hr-mock serve` (the default command): the mock on node:http (startMock), with a banner saying
// where it listens and which keys it knows; it stops on SIGINT or SIGTERM, its deliveries reported.
import { setFlagsFromString } from "node:v8";
import { mockLimits } from "../../../generated/control-facts.js";
import { TODAY_RANGE, normalizeToday } from "../../data/dates.js";
import { DEFAULT_HOST, DEFAULT_PORT, RATE_LIMIT_DEFAULT, RATE_LIMIT_WINDOW_MS } from "../../kernel/limits.js";
import type { PipelineSettings } from "../../app/options.js";
import type { RunningMock } from "../../app/start-mock.js";
import { originProblem } from "../../app/start-options.js";
import { formatBanner, formatSharedLine, formatStateLine } from "../banner.js";
import { decimal, nonEmpty, usage, wholeNumber, type CommandIO } from "../command.js";
import { envNamesText, readFlagsAndEnv } from "../flag-env.js";
import { stopOnSignals } from "../stop-signals.js";
import { REDIS_PASSWORD_HELP, REDIS_PASSWORD_VARIABLE, passwordSource, readPassword, withPassword, type PasswordSource } from "../redis-password.js";
import { quoted } from "../../kernel/parse-error.js";
import { LOG_FORMATS, logFormatOf, type LogFormat } from "../../kernel/operator-log.js";
import { WEBHOOK_SERVE_HELP, WEBHOOK_SERVE_OPTIONS, printDeliveryHints, registerServeEndpoint, webhookServeSettings, type WebhookServeSettings } from "../serve-flags.js";

/** Where an installed hr-service-mock keeps the data file's JSON Schema, and its package export. */
export const DATA_FILE_SCHEMA_PATH = "./node_modules/hr-service-mock/dist/generated/data-file.schema.json";
export const DATA_FILE_SCHEMA_EXPORT = "hr-service-mock/data-file.schema.json";

/** --drain: how long SIGTERM keeps the mock serving (seconds), by default and at most. */
const DEFAULT_DRAIN_S = 5;
const MAX_DRAIN_S = 600;

/** The flags of serve: the one table its parser, its variables (HR_MOCK_*) and --help read. */
export const SERVE_FLAGS = {
  port: { type: "string" },
  host: { type: "string" },
  seed: { type: "string" },
  today: { type: "string" },
  scale: { type: "string" },
  data: { type: "string" },
  "rate-limit": { type: "string" },
  "failure-status": { type: "string" },
  latency: { type: "string" },
  "fail-rate": { type: "string" },
  keys: { type: "string" },
  state: { type: "string" },
  "cors-origin": { type: "string", multiple: true },
  "journal-size": { type: "string" },
  "journal-memory": { type: "string" },
  log: { type: "boolean", default: false },
  "log-format": { type: "string" },
  "redis-password-file": { type: "string" },
  drain: { type: "string" },
  ...WEBHOOK_SERVE_OPTIONS,
} as const;

export const SERVE_HELP = `Usage: hr-mock serve [options]      (serve is the default command)

Serves the HR service API from a seeded dataset, validated against the bundled OpenAPI
description by Prism, with API keys, permissions and a rate limit like the real service.

Options:
  --port <n>              Port to listen on, 0 for any free port (default ${DEFAULT_PORT}).
  --host <h>              Address to bind (default ${DEFAULT_HOST}).
  --seed <n>              Dataset seed, an integer; the same seed gives the same data (default 1).
  --today <YYYY-MM-DD>    The dataset's "today": leave spans last year to the coming months from
                          it, and balances count its year (default the real UTC date). Pin it for
                          byte-identical data on every day.
  --scale <x>             Multiplies employees and leave requests, above 0 and at most 1000
                          (default 1).
  --data <file>           Organisations, companies, departments, employees, leave types, leave
                          requests, holidays and balances from a data file (YAML or JSON); what
                          it leaves out is generated from --seed. A file with problems stops
                          the start, one line per problem, all of them. Its format, for an
                          editor's $schema (from your project's root):
                          ${DATA_FILE_SCHEMA_PATH}
                          (the package export ${DATA_FILE_SCHEMA_EXPORT}).
  --rate-limit <n|off>    Requests per API key in any rolling ${RATE_LIMIT_WINDOW_MS / 1000} seconds (default ${RATE_LIMIT_DEFAULT}).
  --failure-status <http|200>
                          http: failures carry their HTTP status (default); 200: every
                          failure is answered with HTTP 200 and the same envelope.
  --latency <ms>          Delay every API answer by this many milliseconds (default 0).
  --fail-rate <p>         Answer this share (0 to 1) of API requests with an injected 503,
                          seeded by --seed (default 0).
  --keys <file>           More API keys, a JSON array of
                          {"key", "organisation": 1|2|<id>, "permissions": [...], "label"}.
  --cors-origin <origin>  Let pages of this origin (e.g. http://localhost:5173) call the control
                          API under /_mock/; repeat for more. The read API answers pages of any
                          origin; the control API, by default, none.
  --state <dir>           Keep the mock's state in this directory and restore it at start: data
                          changes from triggers, sandboxes with their keys, webhook endpoints with
                          their secrets, the delivery log, and deliveries waiting for a retry
                          (attempted after a restart at their time, or at once if it has passed).
                          Created owner-only (0700, files 0600); one mock at a time. Refused if
                          made with another --seed, --scale, --today or --data file; without
                          --today, the state's today is used.
  --state redis://[:password@]host:port[/db]
                          Keep the state in Redis instead, shared by any number of replicas
                          started with the same URL, --seed, --scale, --today and --data: one
                          mock behind a load balancer. A node of a Redis Cluster works too. Each
                          replica keeps only its response cache; see the guide "Run one mock for
                          many teams". The password is better given in ${REDIS_PASSWORD_VARIABLE}
                          or a file than in the URL: the command line is readable by every user.
  --redis-password-file <path>
                          Read the Redis password from this file (a mounted Secret); a trailing
                          newline is not part of it.
  --journal-size <n>      Requests each world's journal keeps for GET /_mock/requests, verify()
                          and coverage, from 0 (off) to ${mockLimits.maxJournalPerWorld} (default ${mockLimits.journalPerWorld}).
  --journal-memory <MB>   Memory all worlds' journals share, from 1 to ${mockLimits.maxJournalMemoryMb} MB (default ${mockLimits.journalMemoryMb}):
                          past it, the oldest requests of the journal holding the most go first.
                          Each request keeps at most ${mockLimits.journalUrlBytes.toLocaleString("en")} bytes of its URL (urlTruncated).
  --log                   Print one line per request (off by default; keys are never printed).
  --drain <s>             On SIGTERM, keep serving this many seconds (0 to ${MAX_DRAIN_S}, default ${DEFAULT_DRAIN_S})
                          while GET /_mock/ready answers 503 and balancers stop sending, then
                          stop taking connections, finish the requests in flight and exit 0.
                          Ctrl-C (SIGINT) stops without waiting; a second signal at once.
  --log-format <text|json>
                          text: lines as sentences (default); json: one JSON object per line
                          (time, level, event and its fields) for the request and delivery
                          lines, the lifecycle events (ready, draining, stopped, store lost and back)
                          and errors; no banner, and no key or secret is ever printed.
  Metrics: GET /_mock/metrics answers this replica's counts in Prometheus' text format, with no key.
  -h, --help              Show this help.

${WEBHOOK_SERVE_HELP}
Environment:
  Every option can be given as a variable instead: HR_MOCK_ and its name in capitals, dashes
  as underscores (--cors-origin is HR_MOCK_CORS_ORIGIN). A flag wins over its variable; an
  empty variable counts as not given; a switch's variable takes true, false, 1 or 0; the
  variable of a flag you may repeat takes its values separated by commas. The variables:
${envNamesText(SERVE_FLAGS, "    ")}
${REDIS_PASSWORD_HELP}

Requests with a Prefer header (code=404, example=<name>, dynamic=true) are answered by Prism's
mocker after the key, rate limit, permission and parameters are checked. The names are those of
the spec's examples: success on every 200, notFound on every 404 and one such name for each other
failure (the API reference lists them; an unknown name's 404 does too).
The docs site is served at /docs (in a clone of the repository, after npm run docs). Probes, without
a key: GET /_mock/health (the process answers) and GET /_mock/ready (it may take traffic; 503 once
it is stopping). Ctrl-C stops.
`;


export interface ServeSettings extends PipelineSettings {
  port: number;
  host: string;
  keys?: string;
  data?: string;
  today?: string;
  /** The --state value, without a password given in HR_MOCK_REDIS_PASSWORD or a file. */
  state?: string;
  /** Where the Redis password comes from, when not from the URL (read at start: redis-password.ts). */
  redisPassword?: PasswordSource;
  /** Lines to print before starting (a password on the command line). */
  warnings: string[];
  /** How long SIGTERM keeps the mock serving before it stops, in milliseconds (--drain). */
  drainMs: number;
  log: boolean;
  logFormat: LogFormat;
  corsOrigins: string[];
  webhooks: WebhookServeSettings;
}

/**
 * `serve` flags, and the HR_MOCK_* variables of those not given (flag-env.ts), to settings; every
 * mistake is a UsageError with one line naming the flag or the variable.
 */
export function parseServeArgs(argv: string[], env: Readonly<Record<string, string | undefined>> = {}): ServeSettings | "help" {
  const line = readFlagsAndEnv("serve", SERVE_FLAGS, argv, env);
  if (line === "help") return "help";
  const { values, named } = line;
  const password = passwordSource({ state: values.state, stateNamed: named("state"), file: values["redis-password-file"], fileNamed: named("redis-password-file"), env });
  return {
    port: values.port === undefined ? DEFAULT_PORT : portOf(values.port, named("port")),
    host: values.host === undefined ? DEFAULT_HOST : nonEmpty("serve", named("host"), values.host),
    seed: values.seed === undefined ? 1 : wholeNumber("serve", named("seed"), values.seed, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER),
    scale: values.scale === undefined ? 1 : decimal("serve", named("scale"), values.scale, (x) => x > 0 && x <= 1000, "a number above 0 and at most 1000"),
    rateLimit:
      values["rate-limit"] === undefined
        ? RATE_LIMIT_DEFAULT
        : values["rate-limit"] === "off"
          ? "off"
          : wholeNumber("serve", named("rate-limit"), values["rate-limit"], 1, 1_000_000_000, 'a whole number of at least 1, or "off"'),
    failureStatus: failureStatus(values["failure-status"], named("failure-status")),
    latencyMs: values.latency === undefined ? 0 : decimal("serve", named("latency"), values.latency, (x) => x >= 0 && x <= 600_000, "milliseconds from 0 to 600000"),
    failRate: values["fail-rate"] === undefined ? 0 : decimal("serve", named("fail-rate"), values["fail-rate"], (x) => x >= 0 && x <= 1, "a number from 0 to 1"),
    journalSize: values["journal-size"] === undefined ? mockLimits.journalPerWorld : wholeNumber("serve", named("journal-size"), values["journal-size"], 0, mockLimits.maxJournalPerWorld),
    journalMemoryMb:
      values["journal-memory"] === undefined
        ? mockLimits.journalMemoryMb
        : wholeNumber("serve", named("journal-memory"), values["journal-memory"], 1, mockLimits.maxJournalMemoryMb, `a whole number of megabytes from 1 to ${mockLimits.maxJournalMemoryMb}`),
    keys: values.keys === undefined ? undefined : nonEmpty("serve", named("keys"), values.keys),
    data: values.data === undefined ? undefined : nonEmpty("serve", named("data"), values.data),
    today: values.today === undefined ? undefined : todayFlag(values.today, named("today")),
    state: values.state === undefined ? undefined : nonEmpty("serve", named("state"), values.state),
    redisPassword: password.source,
    drainMs: values.drain === undefined ? DEFAULT_DRAIN_S * 1000 : decimal("serve", named("drain"), values.drain, (x) => x >= 0 && x <= MAX_DRAIN_S, `seconds from 0 to ${MAX_DRAIN_S}`) * 1000,
    warnings: password.warning ? [password.warning] : [],
    log: values.log ?? false,
    logFormat: values["log-format"] === undefined ? "text" : logFormatFlag(values["log-format"], named("log-format")),
    corsOrigins: (values["cors-origin"] ?? []).map((origin) => corsOrigin(origin, named("cors-origin"))),
    webhooks: webhookServeSettings(values, named),
  };
}

/**
 * A port. Kubernetes gives every pod of a namespace HR_MOCK_PORT=tcp://… for a Service named
 * hr-mock (its "service links"): the line says so.
 */
function portOf(text: string, flag: string): number {
  if (flag !== "--port" && /^tcp:\/\//.test(text)) {
    throw usage("serve", `${flag} must be a whole number from 0 to 65535, got ${quoted(text)}: Kubernetes sets it so for a Service named hr-mock; set enableServiceLinks: false in the pod's spec, or give the Service another name`);
  }
  return wholeNumber("serve", flag, text, 0, 65535);
}

function corsOrigin(value: string, flag: string): string {
  const problem = originProblem(value);
  if (problem) throw usage("serve", `${flag}: ${problem}`);
  return value;
}

/** The dataset's today: a YYYY-MM-DD date in the calendar and in the range the dataset takes. */
function todayFlag(value: string, flag: string): string {
  try {
    return normalizeToday(value);
  } catch {
    throw usage("serve", `${flag} must be a date YYYY-MM-DD from ${TODAY_RANGE.from} to ${TODAY_RANGE.to}, got ${quoted(value)}`);
  }
}


export async function serveCommand(argv: string[], io: Pick<CommandIO, "stdout" | "stderr" | "env">): Promise<void> {
  const { stdout, stderr } = io;
  const settings = parseServeArgs(argv, io.env ?? process.env);
  if (settings === "help") {
    stdout.write(SERVE_HELP);
    return;
  }
  for (const warning of settings.warnings) stderr.write(`${warning}\n`);
  const state = settings.state === undefined ? undefined : withPassword(settings.state, readPassword(settings.redisPassword));
  // The mock itself (Prism, the dataset) is loaded to serve, never for --help or a flag's mistake.
  const { startMock } = await import("../../app/start-mock.js");
  // Start-up allocates in one burst (the dataset, Prism's and Ajv's set-up), which would grow V8's
  // young generation to its largest (about 30 MB, kept while the mock idles); it starts at the
  // smallest instead, and grows again under load as it needs (V8's default factor, 2).
  setFlagsFromString("--semi-space-growth-factor=1");
  const mock = await startMock({
    port: settings.port,
    host: settings.host,
    seed: settings.seed,
    scale: settings.scale,
    rateLimit: settings.rateLimit,
    failureStatus: settings.failureStatus,
    latencyMs: settings.latencyMs,
    failRate: settings.failRate,
    journalSize: settings.journalSize,
    journalMemoryMb: settings.journalMemoryMb,
    keys: settings.keys,
    data: settings.data,
    today: settings.today,
    state,
    log: settings.log,
    logFormat: settings.logFormat,
    corsOrigins: settings.corsOrigins,
    webhooks: settings.webhooks.options,
  });
  setFlagsFromString("--semi-space-growth-factor=2");
  // performance.now() counts from the process's start: the wait a user sees, loading included.
  const json = settings.logFormat === "json";
  announceReady(mock, settings, performance.now(), stdout);
  if (settings.webhooks.endpoint) {
    const added = await registerServeEndpoint(mock, settings.webhooks.endpoint);
    if (!json) stdout.write(added.text);
    else mock.log.event("info", "webhook-endpoint", `hr-mock: webhook endpoint ${added.id} -> ${added.url}; its signing secret is not logged in JSON (give it with --webhook-secret)`, { id: added.id, url: added.url, kept: added.kept });
  }
  if (settings.webhooks.options.log) printDeliveryHints(mock, (line) => (json ? mock.log.event("warn", "delivery-hint", line) : stdout.write(`${line}\n`)));
  await stopOnSignals(mock, { drainMs: settings.drainMs, write: (line, event) => mock.log.lifecycle(event, line) });
}

/** The banner (text), or one ready event that names where the mock listens and never a key (json). */
export function announceReady(mock: RunningMock, settings: ServeSettings, readyMs: number, stdout: Pick<CommandIO["stdout"], "write">): void {
  if (settings.logFormat === "json") {
    const store = mock.shared?.store ?? mock.state?.dir;
    mock.log.lifecycle("ready", `hr-mock: HR service mock ready at ${mock.url} in ${(readyMs / 1000).toFixed(2)} s`, { url: mock.url, seconds: Math.round(readyMs) / 1000, store });
    return;
  }
  stdout.write(formatBanner(mock, settings, readyMs));
  if (mock.state) stdout.write(formatStateLine(mock.state));
  if (mock.shared) stdout.write(formatSharedLine(mock.shared));
}

function logFormatFlag(text: string, flag: string): LogFormat {
  const format = logFormatOf(text);
  if (format === undefined) throw usage("serve", `${flag} must be ${LOG_FORMATS.join(" or ")}, got ${quoted(text)}`);
  return format;
}

function failureStatus(text: string | undefined, flag: string): "http" | 200 {
  if (text === undefined || text === "http") return "http";
  if (text === "200") return 200;
  throw usage("serve", `${flag} must be http or 200, got ${quoted(text)}`);
}
