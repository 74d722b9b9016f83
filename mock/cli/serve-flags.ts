// The webhooks of `hr-mock serve`: the Webhooks part of --help, the startMock options its webhook
// flags give (their values checked by the settings table), the endpoint --webhook-url registers at
// start (organisation 1), and the delivery hints printed beside the delivery lines.
import type { RunningMock } from "../app/start-mock.js";
import { usage } from "./command.js";
import { createDeliveryHints } from "./hints.js";
import { DEMO_KEY } from "../keys/demo-keys.js";
import { checkEndpointUrl } from "../webhooks/endpoint-url.js";
import type { EndpointInput } from "../webhooks/endpoints.js";
import type { MockWebhookOptions } from "../webhooks/index.js";
import { EVENT_TYPES, requestProblem } from "../kernel/json-schema.js";
import type { Flag, FlagValues } from "../app/settings.js";
import { endpointsKeptIn } from "../state/index.js";

/** Where an installed hr-service-mock keeps the control API's OpenAPI document (bundled). */
export const CONTROL_OPENAPI_PATH = "./node_modules/hr-service-mock/dist/generated/control-openapi.json";

/** The Webhooks part of --help, after its flags' lines (from the settings table). */
export const WEBHOOK_SERVE_HELP = (flags: string) => `Webhooks:
${flags}
  Each delivery attempt is printed (one line) with --webhook-url or --log.
  Endpoints, the Test action, triggers and the delivery log: the control API under /_mock/,
  described by ${CONTROL_OPENAPI_PATH}
  (from your project's root); from a shell: npx hr-mock trigger <type>.
`;

const printLine = (line: string) => {
  process.stdout.write(`${line}\n`);
};

/** Flag values (checked by the settings table) to settings; a mistake throws a UsageError naming the flag (or its variable: `named`). */
export function webhookServeSettings(values: Partial<FlagValues>, named: (flag: Flag) => string = (flag) => `--${flag}`): { options: MockWebhookOptions; endpoint?: EndpointInput } {
  const strictUrls = values["strict-urls"] ?? false;
  const allowPrivateUrls = values["allow-private-urls"] ?? false;
  if (strictUrls && allowPrivateUrls) throw usage("serve", `${named("allow-private-urls")} and ${named("strict-urls")} contradict each other: strict mode never sends to private addresses`);
  const options: MockWebhookOptions = { strictUrls, allowPrivateUrls, shuffle: values.shuffle ?? false, timeScale: values["time-scale"], duplicateRate: values["duplicate-rate"] };
  // One line per delivery attempt when asked for request lines, or when an endpoint is registered here.
  if (values.log || values["webhook-url"] !== undefined) options.log = printLine;

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
