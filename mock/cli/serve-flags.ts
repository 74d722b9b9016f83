// The webhook flags of `hr-mock serve`: their parseArgs definitions, their help text, their
// meaning as startMock options, and the endpoint --webhook-url registers at start (organisation 1).
// Kept here so mock/cli/commands/serve.ts only splices them in.
import type { RunningMock } from "../app/start-mock.js";
import { usage } from "./command.js";
import { createDeliveryHints } from "./hints.js";
import { quoted } from "../kernel/parse-error.js";
import { DEMO_KEY } from "../keys/demo-keys.js";
import { checkEndpointUrl } from "../webhooks/endpoint-url.js";
import type { EndpointInput } from "../webhooks/endpoints.js";
import type { MockWebhookOptions } from "../webhooks/index.js";
import { EVENT_TYPES, requestProblem } from "../kernel/json-schema.js";
import { OPTION_RANGES } from "../webhooks/settings.js";

export const WEBHOOK_SERVE_OPTIONS = {
  "webhook-url": { type: "string" },
  "webhook-secret": { type: "string" },
  events: { type: "string" },
  "strict-urls": { type: "boolean" },
  "allow-private-urls": { type: "boolean" },
  "time-scale": { type: "string" },
  "duplicate-rate": { type: "string" },
  shuffle: { type: "boolean" },
} as const;

/** Where an installed hr-service-mock keeps the control API's OpenAPI document (bundled). */
export const CONTROL_OPENAPI_PATH = "./node_modules/hr-service-mock/dist/generated/control-openapi.json";

export const WEBHOOK_SERVE_HELP = `Webhooks:
  --webhook-url <url>     Register a webhook endpoint for organisation 1 at start and print
                          its signing secret. https://, or http:// on a loopback host.
  --webhook-secret <s>    Use this whsec_… signing secret for it instead of a generated one.
  --events <t,t,...>      Only these event types for it (default: every event).
  --strict-urls           Endpoint URLs as the real service takes them: https:// only, no
                          private or internal hosts (loopback, 10.x, 192.168.x, localhost, ...).
  --allow-private-urls    Without --strict-urls, also accept endpoint addresses in private or
                          link-local ranges (https://10.0.0.5/, https://[fd00::1]/); by default
                          only loopback and public hosts, so a web page cannot aim the mock's
                          signed POSTs into your network.
  --time-scale <n>        Multiply webhook retry delays and the 10 s response timeout (the
                          timeout never below 1 s); 0.001 runs two days of retries in ~150 s.
  --duplicate-rate <p>    Deliver this share (0 to 1) of events twice (same id, new delivery id).
  --shuffle               Hold events briefly and deliver them in random order.
  Each delivery attempt is printed (one line) with --webhook-url or --log.
  Endpoints, the Test action, triggers and the delivery log: the control API under /_mock/,
  described by ${CONTROL_OPENAPI_PATH}
  (from your project's root); from a shell: npx hr-mock trigger <type>.
`;

export interface WebhookServeSettings {
  options: MockWebhookOptions;
  /** The endpoint to register at start, when --webhook-url is given. */
  endpoint?: EndpointInput;
}

type Values = { [K in keyof typeof WEBHOOK_SERVE_OPTIONS]?: (typeof WEBHOOK_SERVE_OPTIONS)[K]["type"] extends "boolean" ? boolean : string } & {
  /** serve's own --log: delivery attempts are printed too. */
  log?: boolean;
};

const printLine = (line: string) => {
  process.stdout.write(`${line}\n`);
};

/** Flag values to settings; a mistake throws an Error with one line naming the flag (or its variable: `named`). */
export function webhookServeSettings(values: Values, named: (flag: keyof typeof WEBHOOK_SERVE_OPTIONS) => string = (flag) => `--${flag}`): WebhookServeSettings {
  const strictUrls = values["strict-urls"] ?? false;
  const allowPrivateUrls = values["allow-private-urls"] ?? false;
  if (strictUrls && allowPrivateUrls) throw usage("serve", `${named("allow-private-urls")} and ${named("strict-urls")} contradict each other: strict mode never sends to private addresses`);
  const options: MockWebhookOptions = { strictUrls, allowPrivateUrls, shuffle: values.shuffle ?? false };
  // One line per delivery attempt when asked for request lines, or when an endpoint is registered here.
  if (values.log || values["webhook-url"] !== undefined) options.log = printLine;
  if (values["time-scale"] !== undefined) options.timeScale = number(named("time-scale"), values["time-scale"], OPTION_RANGES.timeScale);
  if (values["duplicate-rate"] !== undefined) options.duplicateRate = number(named("duplicate-rate"), values["duplicate-rate"], OPTION_RANGES.duplicateRate);

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
  // With --state, the endpoint added at an earlier start came back with its secret: not a second one.
  const kept = mock.state ? (await service.listEndpoints(organizationId)).find((e) => e.url === new URL(endpoint.url).href) : undefined;
  if (kept) return { id: kept.id, url: kept.url, kept: true, text: `  Webhooks: endpoint ${kept.id} -> ${kept.url}, kept in ${mock.state?.dir} with the signing secret it was given\n` };
  const added = await service.addEndpoint(organizationId, endpoint);
  if (!added.ok) throw new Error(`--webhook-url: ${added.reason.message}`);
  const created = added.value;
  const events = created.events === "all" ? "every event" : created.events.join(", ");
  const settings = mock.webhooks.settings;
  const pace = settings.timeScale === 1 ? "" : `, time scale ${settings.timeScale} (response timeout ${settings.responseTimeoutMs} ms)`;
  const text = [
    `  Webhooks: endpoint ${created.id} -> ${created.url} (${events}${pace})`,
    `    Signing secret (shown once): ${created.secret}`,
    `    Receive:  npx hr-mock receive --port ${portOf(created.url)} --secret ${created.secret}`,
    `    Trigger:  npx hr-mock trigger leave.approved --mock-url ${mock.url} --api-key ${DEMO_KEY.org1WebhooksAdmin}`,
    "",
  ].join("\n");
  return { id: created.id, url: created.url, kept: false, text };
}

function portOf(url: string): string {
  const parsed = new URL(url);
  return parsed.port || (parsed.protocol === "https:" ? "443" : "80");
}

/** A flag's number, within the engine's own range for the option it sets. */
function number(flag: string, text: string, range: { ok: (x: number) => boolean; text: string }): number {
  const value = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(text) ? Number(text) : NaN;
  if (!Number.isFinite(value) || !range.ok(value)) throw usage("serve", `${flag} must be ${range.text}, got ${quoted(text)}`);
  return value;
}
