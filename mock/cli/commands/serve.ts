// `hr-mock serve` (the default command): the mock on node:http (startMock), with a banner saying
// where it listens and which keys it knows; it stops on SIGINT or SIGTERM, its deliveries reported.
// Its settings are the settings table's (app/settings.ts); here, what the command line adds: --help,
// the endpoint --webhook-url registers at start (organisation 1), the delivery hints.
import { setFlagsFromString } from "node:v8";
import type { RunningMock } from "../../app/start-mock.js";
import { SETTINGS, flagValues, optionsOf, type Flag, type FlagValues, type Setting } from "../../app/settings.js";
import { formatBanner } from "../banner.js";
import { announcement, endpointsKeptIn } from "../../state/index.js";
import { accessSync, constants, statSync } from "node:fs";
import { asUsage, JSON_LINES, unreadable, usage, UsageError, type CommandIO } from "../command.js";
import { envName, envNamesText, flagsOf, readFlagsAndEnv } from "../flag-env.js";
import { logFormatOf } from "../../kernel/operator-log.js";
import { stopOnSignals } from "../stop-signals.js";
import { REDIS_PASSWORD_HELP, passwordSource, readPassword } from "../redis-password.js";
import { quoted } from "../../kernel/parse-error.js";
import { createDeliveryHints } from "../hints.js";
import { DEMO_KEY } from "../../keys/demo-keys.js";
import { checkEndpointUrl } from "../../webhooks/endpoint-url.js";
import type { EndpointInput } from "../../webhooks/endpoints.js";
import type { MockWebhookOptions } from "../../webhooks/index.js";
import { EVENT_TYPES, requestProblem } from "../../kernel/json-schema.js";

/** The lines of --help for the settings of a section: the flag and its argument, then the text, at column 26. */
function helpOf(settings: Record<string, Setting>, section?: Setting["section"]): string {
  const entry = (label: string, text: string) => {
    const [first, ...rest] = text.split("\n").map((line) => line.trimEnd());
    const head = label.length <= 22 ? [`  ${label.padEnd(24)}${first}`] : [`  ${label}`, `${" ".repeat(26)}${first}`];
    return [...head, ...rest.map((line) => `${" ".repeat(26)}${line}`)].join("\n");
  };
  return Object.entries(settings)
    .filter(([, setting]) => setting.section === section)
    .flatMap(([flag, { arg, help, also }]) => [entry(arg ? `--${flag} ${arg}` : `--${flag}`, help), ...(also ? [entry(`--${flag} ${also.arg}`, also.help)] : [])])
    .join("\n");
}

/** The flags of serve, as parseArgs reads them: the settings table's (app/settings.ts). */
export const SERVE_FLAGS = flagsOf(SETTINGS);

/** Where an installed hr-service-mock keeps the control API's OpenAPI document (bundled). */
const CONTROL_OPENAPI_PATH = "./node_modules/hr-service-mock/dist/generated/control-openapi.json";

export const SERVE_HELP = `Usage: hr-mock serve [options]      (serve is the default command)

Serves the HR service API from a seeded dataset, validated against the bundled OpenAPI
description by Prism, with API keys, permissions and a rate limit like the real service.

Options:
${helpOf(SETTINGS)}
  Metrics: GET /_mock/metrics answers this replica's counts in Prometheus' text format, with no key.
  -h, --help              Show this help.

Webhooks:
${helpOf(SETTINGS, "webhooks")}
  Each delivery attempt is printed (one line) with --webhook-url or --log.
  Endpoints, the Test action, triggers and the delivery log: the control API under /_mock/,
  described by ${CONTROL_OPENAPI_PATH}
  (from your project's root); from a shell: npx hr-mock trigger <type>.

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

export type ServeSettings = Exclude<ReturnType<typeof parseServeArgs>, "help">;

/**
 * `serve` flags, and the HR_MOCK_* variables of those not given (flag-env.ts), to settings, each
 * read by the table's rule; every mistake is a UsageError with one line naming the flag or the variable.
 */
export function parseServeArgs(argv: string[], env: Readonly<Record<string, string | undefined>> = {}) {
  const line = readFlagsAndEnv("serve", SERVE_FLAGS, argv, env);
  if (line === "help") return "help";
  const { named } = line;
  const given = line.values as Record<string, unknown>;
  const port = given.port;
  // Kubernetes gives every pod of a namespace HR_MOCK_PORT=tcp://… for a Service named hr-mock (its "service links").
  if (typeof port === "string" && named("port") !== "--port" && /^tcp:\/\//.test(port)) {
    throw usage("serve", `${named("port")} must be a whole number from 0 to 65535, got ${quoted(port)}: Kubernetes sets it so for a Service named hr-mock; set enableServiceLinks: false in the pod's spec, or give the Service another name`);
  }
  const values = asUsage("serve", () => flagValues(given, named));
  const password = passwordSource({ state: values.state, stateNamed: named("state"), file: values["redis-password-file"], fileNamed: named("redis-password-file"), env });
  return {
    ...optionsOf(values),
    stateNamed: named("state"),
    redisPassword: password.source,
    drainMs: values.drain * 1000,
    warnings: password.warning ? [password.warning] : [],
    webhooks: webhookServeSettings(values, named),
    files: (["keys", "data"] as const).flatMap((flag) => (typeof values[flag] === "string" ? [{ path: values[flag], named: named(flag) }] : [])),
  };
}

/** A file the settings name (--keys, --data) that cannot be read: one line naming the flag or variable (exit 2), before anything starts. */
function checkReadable({ path, named }: { path: string; named: string }): void {
  try {
    accessSync(path, constants.R_OK);
    if (statSync(path).isDirectory()) throw Object.assign(new Error(), { code: "EISDIR" });
  } catch (error) {
    throw new UsageError(`cannot read ${named} ${path}: ${unreadable(error)}`);
  }
}

/** Whether --log-format (or its variable) asks for JSON, read before the rest is checked: a start-up error is then a JSON line too. */
function wantsJson(argv: string[], env: Readonly<Record<string, string | undefined>>): boolean {
  const at = argv.findIndex((arg) => arg === "--log-format" || arg.startsWith("--log-format="));
  const text = at < 0 ? env[envName("log-format")] : argv[at].includes("=") ? argv[at].slice(argv[at].indexOf("=") + 1) : argv[at + 1];
  return text !== undefined && logFormatOf(text) === "json";
}

export async function serveCommand(argv: string[], io: Pick<CommandIO, "stdout" | "stderr" | "env">): Promise<void> {
  const env = io.env ?? process.env;
  try {
    await serve(argv, io, env);
  } catch (error) {
    // The bin's run() prints it as one JSON line (command.ts: jsonErrors).
    throw wantsJson(argv, env) && error instanceof Error ? Object.assign(error, { [JSON_LINES]: true }) : error;
  }
}

async function serve(argv: string[], io: Pick<CommandIO, "stdout" | "stderr">, env: Readonly<Record<string, string | undefined>>): Promise<void> {
  const { stdout, stderr } = io;
  const settings = parseServeArgs(argv, env);
  if (settings === "help") {
    stdout.write(SERVE_HELP);
    return;
  }
  for (const warning of settings.warnings) stderr.write(`${warning}\n`);
  settings.files.forEach(checkReadable);
  const statePassword = readPassword(settings.redisPassword);
  // Start-up allocates in one burst (loading Prism, the dataset, Prism's and Ajv's set-up), which
  // would grow V8's young generation to its largest (about 30 MB, kept while the mock idles); it
  // starts at the smallest instead, and grows again under load as it needs (V8's default factor, 2).
  setFlagsFromString("--semi-space-growth-factor=1");
  // The mock itself (Prism, the dataset) is loaded to serve, never for --help or a flag's mistake.
  const { startMock } = await import("../../app/start-mock.js");
  const { redisPassword: _source, warnings: _warnings, drainMs: _drain, files: _files, ...options } = settings;
  const mock = await startMock({ ...options, statePassword, webhooks: settings.webhooks.options });
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
    const { store } = announcement(mock);
    mock.log.lifecycle("ready", `hr-mock: HR service mock ready at ${mock.url} in ${(readyMs / 1000).toFixed(2)} s`, { url: mock.url, seconds: Math.round(readyMs) / 1000, store });
    return;
  }
  stdout.write(formatBanner(mock, settings, readyMs));
  for (const line of announcement(mock).lines) stdout.write(line);
}

/** Flag values (checked by the settings table) to settings; a mistake throws a UsageError naming the flag (or its variable: `named`). */
export function webhookServeSettings(values: Partial<FlagValues>, named: (flag: Flag) => string = (flag) => `--${flag}`): { options: MockWebhookOptions; endpoint?: EndpointInput } {
  const strictUrls = values["strict-urls"] ?? false;
  const allowPrivateUrls = values["allow-private-urls"] ?? false;
  if (strictUrls && allowPrivateUrls) throw usage("serve", `${named("allow-private-urls")} and ${named("strict-urls")} contradict each other: strict mode never sends to private addresses`);
  const options: MockWebhookOptions = { strictUrls, allowPrivateUrls, shuffle: values.shuffle ?? false, timeScale: values["time-scale"], duplicateRate: values["duplicate-rate"] };
  // One line per delivery attempt when asked for request lines, or when an endpoint is registered here.
  if (values.log || values["webhook-url"] !== undefined) options.log = (line) => void process.stdout.write(`${line}\n`);

  const url = values["webhook-url"];
  if (url === undefined) {
    if (values["webhook-secret"] !== undefined) throw usage("serve", `${named("webhook-secret")} needs ${named("webhook-url")}`);
    if (values.events !== undefined) throw usage("serve", `${named("events")} needs ${named("webhook-url")}`);
    return { options };
  }
  const endpoint: EndpointInput = { url, description: "Registered by hr-mock serve --webhook-url" };
  if (values["webhook-secret"] !== undefined) endpoint.secret = values["webhook-secret"];
  if (values.events !== undefined) {
    const list = values.events.split(",").map((t) => t.trim()).filter((t) => t !== "");
    endpoint.events = list.length === 1 && list[0] === "all" ? "all" : (list as EndpointInput["events"]);
  }
  // This entry's one check, before the mock starts: the control API's schema for the endpoint, and
  // the URL rules of --strict-urls (registerServeEndpoint then adds it unchecked).
  const problem = requestProblem("AddEndpointRequest", endpoint);
  if (problem) {
    const flag = problem.field?.startsWith("events") ? "events" : problem.field === "secret" ? "webhook-secret" : "webhook-url";
    throw usage("serve", `${named(flag)}: ${problem.message}${flag === "events" ? ` (the types: ${EVENT_TYPES.join(", ")})` : ""}`);
  }
  const checked = checkEndpointUrl(url, { strict: strictUrls, allowPrivate: allowPrivateUrls });
  if (!checked.ok) throw usage("serve", `${named("webhook-url")}: ${checked.message}`);
  return { options, endpoint };
}

/** With the delivery log printed: a hint, once per endpoint and cause, when its deliveries fail in a row for one cause (cli/hints.ts). */
export function printDeliveryHints(mock: RunningMock, write: (line: string) => void): () => void {
  const hint = createDeliveryHints();
  return mock.webhooks.onAttempt((entry, attempt) => {
    const line = hint(entry.url, attempt);
    if (line) write(line);
  });
}

/** Registers the --webhook-url endpoint for organisation 1: its id and URL, and the lines to print in text, secret included (shown once). */
export async function registerServeEndpoint(mock: RunningMock, endpoint: EndpointInput): Promise<{ id: string; url: string; kept: boolean; text: string }> {
  const service = mock.webhooks.service;
  const organizationId = mock.dataset.organizationIds[0];
  // The endpoint added at an earlier start came back with its secret: not a second one.
  const keptIn = endpointsKeptIn(mock);
  const kept = keptIn === undefined ? undefined : (await service.listEndpoints(organizationId)).find((e) => e.url === new URL(endpoint.url).href);
  if (kept) return { id: kept.id, url: kept.url, kept: true, text: `  Webhooks: endpoint ${kept.id} -> ${kept.url}, kept in ${keptIn} with the signing secret it was given\n` };
  const added = await service.addEndpoint(organizationId, endpoint);
  if (!added.ok) throw new Error(`--webhook-url: ${added.reason.message}`);
  const created = added.value;
  const events = created.events === "all" ? "every event" : created.events.join(", ");
  const settings = mock.webhooks.settings;
  const pace = settings.timeScale === 1 ? "" : `, time scale ${settings.timeScale} (response timeout ${settings.responseTimeoutMs} ms)`;
  const url = new URL(created.url);
  const text = [
    `  Webhooks: endpoint ${created.id} -> ${created.url} (${events}${pace})`,
    `    Signing secret (shown once): ${created.secret}`,
    `    Receive:  npx hr-mock receive --port ${url.port || (url.protocol === "https:" ? "443" : "80")} --secret ${created.secret}`,
    `    Trigger:  npx hr-mock trigger leave.approved --mock-url ${mock.url} --api-key ${DEMO_KEY.org1WebhooksAdmin}`,
    "",
  ].join("\n");
  return { id: created.id, url: created.url, kept: false, text };
}
