/**
 * `hr-mock trigger TYPE`: fires a webhook event at a running mock through its control API
 * (POST /_mock/webhooks/events). Bad input is one line and exit status 2 (thrown, the CLI prints
 * it); a failure the mock answers, or a mock that cannot be reached, is one line and status 1.
 */
import { parseArgs } from "node:util";
import { DEMO_KEY } from "../keys/demo-keys.js";
import { DEFAULT_HOST, DEFAULT_PORT } from "../server/limits.js";
import type { TriggerResult } from "../webhooks/publisher.js";
import { EVENT_TYPES, isEventType, requestProblem } from "../webhooks/schemas.js";
import { SUBJECTS } from "../webhooks/triggers.js";
import { oneLine } from "../server/text.js";
import { describeParseError, quoted } from "./parse-error.js";

export const DEFAULT_MOCK_URL = `http://${DEFAULT_HOST}:${DEFAULT_PORT}`;
const REQUEST_TIMEOUT_MS = 15_000;

export const TRIGGER_HELP = `Usage: hr-mock trigger <type> [options]

Fires a webhook event at a running mock (POST /_mock/webhooks/events): the mock changes its
data as the event implies and delivers the event, signed, to every endpoint of the key's
organisation that receives the type.

Options:
  --mock-url <url>   The running mock (default ${DEFAULT_MOCK_URL}).
  --api-key <key>    A key holding Manage Webhooks (default ${DEMO_KEY.org1WebhooksAdmin},
                     organisation 1).
  --id <uuid>        The record the event is about; without it the mock picks one.
  --json             Print the mock's answer (the event and its deliveries) as JSON.
  -h, --help         Show this help.

Event types and what --id names:
${EVENT_TYPES.map((t) => `  ${t.padEnd(25)} ${SUBJECTS[t]}`).join("\n")}

Exit status: 0 the event was queued, 1 the mock answered a failure or could not be
reached, 2 bad input.
`;

export interface TriggerIO {
  stdout?: { write(text: string): unknown };
  stderr?: { write(text: string): unknown };
  fetch?: typeof fetch;
}

interface TriggerSettings {
  type: string;
  mockUrl: URL;
  apiKey: string;
  id?: string;
  json: boolean;
}

/** The CLI entry: bad input throws (exit 2); a failure of the mock sets exit status 1. */
export async function triggerCommand(argv: string[]): Promise<void> {
  const code = await runTrigger(argv);
  if (code !== 0) process.exitCode = code;
}

/** Runs the command and returns its exit status (0 or 1); bad input throws an Error with one line. */
export async function runTrigger(argv: string[], io: TriggerIO = {}): Promise<number> {
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  const settings = parseFlags(argv);
  if (settings === "help") {
    stdout.write(TRIGGER_HELP);
    return 0;
  }
  const target = new URL("/_mock/webhooks/events", settings.mockUrl);
  let response: Response;
  try {
    response = await (io.fetch ?? fetch)(target, {
      method: "POST",
      headers: { authorization: `Bearer ${settings.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify(settings.id === undefined ? { type: settings.type } : { type: settings.type, id: settings.id }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (error as Error).message;
    stderr.write(`hr-mock: trigger: cannot reach the mock at ${settings.mockUrl.origin} (${oneLine(String(why))}); is hr-mock serve running there?\n`);
    return 1;
  }
  const text = await response.text();
  let answer: { isSuccessful?: boolean; message?: string; data?: TriggerResult } | undefined;
  try {
    answer = JSON.parse(text) as typeof answer;
  } catch {
    answer = undefined;
  }
  if (!response.ok || answer?.isSuccessful !== true || !answer.data) {
    const message = typeof answer?.message === "string" ? answer.message : `HTTP ${response.status} without the mock's envelope (is ${settings.mockUrl.origin} the mock?)`;
    stderr.write(`hr-mock: trigger: the mock answered ${response.status}: ${oneLine(message)}\n`);
    return 1;
  }
  if (settings.json) {
    stdout.write(`${JSON.stringify(answer.data, null, 2)}\n`);
    return 0;
  }
  const { event, deliveries } = answer.data;
  const where =
    deliveries.length === 0
      ? `no endpoint (none of this organisation's endpoints receives ${event.type}; add one with hr-mock serve --webhook-url or POST /_mock/webhooks/endpoints)`
      : `${deliveries.length} ${deliveries.length === 1 ? "delivery" : "deliveries"}: ${deliveries.map((d) => `${d.url}${d.duplicate ? " (duplicate)" : ""}`).join(", ")}`;
  stdout.write(`Queued ${event.type} event ${event.id} (occurredAt ${event.occurredAt}) for ${where}\n  data: ${JSON.stringify(event.data)}\n`);
  return 0;
}

function parseFlags(argv: string[]): TriggerSettings | "help" {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: {
        "mock-url": { type: "string" },
        "api-key": { type: "string" },
        id: { type: "string" },
        json: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (error) {
    throw new Error(`${describeParseError(error as NodeJS.ErrnoException, argv)} (see hr-mock trigger --help)`);
  }
  const { values, positionals } = parsed;
  if (values.help) return "help";
  if (positionals.length === 0) throw new Error(`an event type is required, one of ${EVENT_TYPES.join(", ")}`);
  if (positionals.length > 1) throw new Error(`one event type at a time, got ${positionals.length}: ${positionals.map((p) => quoted(p)).join(" ")}`);
  const type = positionals[0];
  if (!isEventType(type)) throw new Error(`unknown event type ${quoted(type)}; one of ${EVENT_TYPES.join(", ")}`);
  const id = values.id;
  // The control API's TriggerRequest schema, as the mock will apply it: refused here in the flag's words.
  if (id !== undefined && requestProblem("TriggerRequest", { type, id })?.field === "id") throw new Error(`--id must be a uuid, got ${quoted(id)}`);
  const apiKey = values["api-key"] ?? DEMO_KEY.org1WebhooksAdmin;
  if (apiKey.trim() === "" || /\s/.test(apiKey)) throw new Error("--api-key must be one key without spaces");
  return { type, mockUrl: mockUrl(values["mock-url"] ?? DEFAULT_MOCK_URL), apiKey, id, json: values.json ?? false };
}

function mockUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`--mock-url must be the mock's http:// or https:// address, got ${quoted(text)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`--mock-url must be the mock's http:// or https:// address, got ${quoted(text)}`);
  return url;
}

