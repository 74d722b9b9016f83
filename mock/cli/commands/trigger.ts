/**
 * `hr-mock trigger TYPE`: fires a webhook event at a running mock through its control API
 * (POST /_mock/webhooks/events). Bad input is one line and exit status 2 (thrown, the CLI prints
 * it); a failure the mock answers, or a mock that cannot be reached, is one line and status 1.
 */
import type { TriggerResult } from "../../webhooks/publisher.js";
import { EVENT_TYPES, isEventType } from "../../kernel/event-types.js";
import { triggerOverrideFields, triggerSubjects } from "../../../generated/control-facts.js";
import type { WebhookEventType } from "../../../generated/events.js";
import { askMock, command, MOCK_TARGET_FLAGS, MOCK_TARGET_HELP, mockTarget, usage, type CommandLine, type MockTarget } from "../command.js";
import { quoted } from "../../kernel/parse-error.js";
import type { ControlAnswer } from "../../kernel/control-client.js";

export { DEFAULT_MOCK_URL, type MockTarget } from "../command.js";

export const TRIGGER_HELP = `Usage: hr-mock trigger <type> [options]

Fires a webhook event at a running mock (POST /_mock/webhooks/events): the mock changes its
data as the event implies and delivers the event, signed, to every endpoint of the key's
organisation that receives the type.

Options:
${MOCK_TARGET_HELP}
  --id <uuid>        The record the event is about; without it the mock picks one.
  --set <field=value>
                     A field of the record the trigger creates, in place of a picked
                     one (repeat it for several); the value is text. Fields per type
                     are below; dates are written as the API writes them
                     (2026-12-21T00:00:00). Working days and balances are computed.
  --data <json>      Overrides as one JSON object, for values that are not text
                     (jobRoles: ["Payroll Analyst"]); --set adds to it.
  --json             Print the mock's answer (the event and its deliveries) as JSON.
  -h, --help         Show this help.

Event types, what --id names, and the fields --set takes:
${EVENT_TYPES.map((t) => `  ${t.padEnd(25)} ${triggerSubjects[t]}${triggerOverrideFields[t].length > 0 ? `\n  ${"".padEnd(25)} --set ${triggerOverrideFields[t].join(", ")}` : ""}`).join("\n")}

To run several triggers in order, with waits, see hr-mock scenario --help.

Exit status: 0 the event was queued, 1 the mock answered a failure or could not be
reached, 2 bad input.
`;

const TRIGGER_FLAGS = {
  ...MOCK_TARGET_FLAGS,
  id: { type: "string" },
  set: { type: "string", multiple: true },
  data: { type: "string" },
  json: { type: "boolean", default: false },
} as const;

/** Exit status 0, or 1 when the mock refused or could not be reached; bad input throws a UsageError (exit 2). */
export const triggerCommand = command({ name: "trigger", flags: TRIGGER_FLAGS, help: TRIGGER_HELP, positionals: true }, async (line, io) => {
  const { target, request } = await triggerOf(line);
  const answer = await postTrigger(target, request, io.fetch);
  if (!answer.ok) {
    io.stderr.write(`hr-mock trigger: ${answer.line}\n`);
    return 1;
  }
  io.stdout.write(line.values.json ? `${JSON.stringify(answer.data, null, 2)}\n` : describeQueued(answer.data));
});

/** A trigger's body, as the control API's TriggerRequest. */
export type TriggerBody = { type: string; id?: string; set?: Record<string, unknown> };

/** POSTs one trigger body to the mock's control API: the event and its deliveries, or the mock's refusal (or why it could not be reached) as one line. */
export async function postTrigger(target: MockTarget, request: TriggerBody, fetchImpl: typeof fetch): Promise<ControlAnswer<TriggerResult>> {
  return (await askMock(target, fetchImpl, (control) => control.POST("/_mock/webhooks/events", { body: request as never }))) as ControlAnswer<TriggerResult>;
}

/** Two lines: what was queued where, and the event's data. */
export function describeQueued({ event, deliveries }: TriggerResult): string {
  const where =
    deliveries.length === 0
      ? `no endpoint (none of this organisation's endpoints receives ${event.type}; add one with hr-mock serve --webhook-url or POST /_mock/webhooks/endpoints)`
      : `${deliveries.length} ${deliveries.length === 1 ? "delivery" : "deliveries"}: ${deliveries.map((d) => `${d.url}${d.duplicate ? " (duplicate)" : ""}`).join(", ")}`;
  return `Queued ${event.type} event ${event.id} (occurredAt ${event.occurredAt}) for ${where}\n  data: ${JSON.stringify(event.data)}\n`;
}

/** The mock and the trigger's body, from the command line. */
async function triggerOf({ values, positionals }: CommandLine<typeof TRIGGER_FLAGS>): Promise<{ target: MockTarget; request: TriggerBody }> {
  if (positionals.length === 0) throw usage("trigger", `an event type is required, one of ${EVENT_TYPES.join(", ")}`);
  if (positionals.length > 1) throw usage("trigger", `one event type at a time, got ${positionals.length}: ${positionals.map((p) => quoted(p)).join(" ")}`);
  const type = positionals[0];
  if (!isEventType(type)) throw usage("trigger", `unknown event type ${quoted(type)}; one of ${EVENT_TYPES.join(", ")}`);
  const id = values.id;
  // The control API's schemas (Ajv) are loaded only to check flags, never for --help.
  const { requestProblem } = await import("../../kernel/json-schema.js");
  // The control API's TriggerRequest schema, as the mock will apply it: refused here in the flag's words.
  if (id !== undefined && requestProblem("TriggerRequest", { type, id })?.field === "id") throw usage("trigger", `--id must be a uuid, got ${quoted(id)}`);
  const set = overridesOf(type, values.data, values.set ?? []);
  if (set !== undefined) {
    const problem = requestProblem("TriggerRequest", { type, set });
    if (problem) throw usage("trigger", `${problem.message.replace(/^set\./, "--set ")}${triggerOverrideFields[type].length === 0 ? ` (${type} takes no overrides)` : ""}`);
  }
  const target = mockTarget("trigger", values["mock-url"], values["api-key"]);
  return { target, request: { type, ...(id === undefined ? {} : { id }), ...(set === undefined ? {} : { set }) } };
}

/** --data's object with each --set field=value on top; undefined when neither is given. */
function overridesOf(type: WebhookEventType, data: string | undefined, pairs: string[]): Record<string, unknown> | undefined {
  if (data === undefined && pairs.length === 0) return undefined;
  let set: Record<string, unknown> = {};
  if (data !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch (error) {
      throw usage("trigger", `--data must be a JSON object, got ${quoted(data)} (${(error as Error).message})`);
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw usage("trigger", `--data must be a JSON object, got ${quoted(data)}`);
    set = parsed as Record<string, unknown>;
  }
  for (const pair of pairs) {
    const equals = pair.indexOf("=");
    if (equals <= 0) throw usage("trigger", `--set must be field=value, got ${quoted(pair)}`);
    const field = pair.slice(0, equals);
    const fields = triggerOverrideFields[type] as readonly string[];
    if (!fields.includes(field)) throw usage("trigger", `--set ${field}: ${type} takes ${fields.length === 0 ? "no overrides" : `only ${fields.join(", ")}`}`);
    set[field] = pair.slice(equals + 1);
  }
  return set;
}
