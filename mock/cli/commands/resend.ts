/**
 * `hr-mock resend EVENT_ID` and `hr-mock resend --failed --since 2h`: sends events of a running
 * mock's delivery log again through its control API (POST /_mock/webhooks/events/{eventId}/resend,
 * POST /_mock/webhooks/events/resend), as the provider's redelivery. Bad input is one line and exit
 * status 2 (thrown); a failure the mock answers, or a mock that cannot be reached, one line and 1.
 */
import type { BulkResendResult, ResendFilter, ResendResult } from "../../webhooks/resend.js";
import { EVENT_TYPES, isEventType, isUuid, requestProblem } from "../../kernel/json-schema.js";
import { askMock, command, MOCK_TARGET_FLAGS, MOCK_TARGET_HELP, mockTarget, usage, type CommandLine } from "../command.js";
import { quoted } from "../../kernel/parse-error.js";

export const RESEND_HELP = `Usage: hr-mock resend <event-id> [--endpoint <id>] [options]
       hr-mock resend <filter>... [--dry-run] [options]

Sends events of a running mock's delivery log again, as the provider's redelivery does: the
same event id and body bytes, a new Service-Delivery-Id, a signature made when it is sent.
The log shows each as a new delivery whose resendOf names the original.

With an event id, the event goes to every endpoint it went to that is still registered, or
to --endpoint only. With a filter, every finished delivery it matches (succeeded, or failed
for good) is sent again, once per event and endpoint; one still waiting for a retry is left
to its retries. A filter that matches more than the mock's queues hold is refused whole.

Options:
${MOCK_TARGET_HELP}
  --endpoint <id>    Only to this endpoint (with a filter: only deliveries to it).
  --failed           Filter: only deliveries that failed (every attempt failed, or dropped).
  --succeeded        Filter: only deliveries that succeeded.
  --type <type>      Filter: only events of this type.
  --since <time>     Filter: only events first queued at or after this time: an ISO time
                     (2026-11-23T09:00:00Z; without a zone, local time) or a span back from
                     now (90s, 30m, 2h, 1d).
  --until <time>     Filter: only events first queued before this time (the same forms).
  --dry-run          With a filter: print what would be sent, and send nothing.
  --json             Print the mock's answer as JSON.
  -h, --help         Show this help.

Exit status: 0 sent (or, with --dry-run, counted), 1 the mock answered a failure or could
not be reached, 2 bad input.
`;

const RESEND_FLAGS = {
  ...MOCK_TARGET_FLAGS,
  endpoint: { type: "string" },
  failed: { type: "boolean", default: false },
  succeeded: { type: "boolean", default: false },
  type: { type: "string" },
  since: { type: "string" },
  until: { type: "string" },
  "dry-run": { type: "boolean", default: false },
  json: { type: "boolean", default: false },
} as const;

/** The flags that make a filter (the bulk form); --endpoint goes with an event id too. */
const FILTER_FLAGS = ["failed", "succeeded", "type", "endpoint", "since", "until", "dry-run"] as const;

type ResendCall = { kind: "event"; eventId: string; endpointId?: string } | { kind: "filter"; filter: ResendFilter };

export const resendCommand = command({ name: "resend", flags: RESEND_FLAGS, help: RESEND_HELP, positionals: true }, async (line, io) => {
  const target = mockTarget("resend", line.values["mock-url"], line.values["api-key"]);
  const call = callOf(line, Date.now());
  const answer =
    call.kind === "event"
      ? await askMock(target, io.fetch, (control) => control.POST("/_mock/webhooks/events/{eventId}/resend", { params: { path: { eventId: call.eventId } }, body: call.endpointId === undefined ? {} : { endpointId: call.endpointId } }))
      : await askMock(target, io.fetch, (control) => control.POST("/_mock/webhooks/events/resend", { body: call.filter }));
  if (!answer.ok) {
    io.stderr.write(`hr-mock resend: ${answer.line}\n`);
    return 1;
  }
  if (line.values.json) io.stdout.write(`${JSON.stringify(answer.data, null, 2)}\n`);
  else io.stdout.write(call.kind === "event" ? describeResent(answer.data as ResendResult) : describeBulk(answer.data as BulkResendResult));
});

/** The call the command line asks for; every mistake is a UsageError naming the flag. `now` turns a span (2h) into a time. */
function callOf({ values, positionals }: CommandLine<typeof RESEND_FLAGS>, now: number): ResendCall {
  if (positionals.length > 1) throw usage("resend", `one event id at a time, got ${positionals.length}: ${positionals.map((p) => quoted(p)).join(" ")}; to send several, use a filter`);
  if (values.endpoint !== undefined && !isUuid(values.endpoint)) throw usage("resend", `--endpoint must be an endpoint's id (a uuid), got ${quoted(values.endpoint)}`);
  const given = FILTER_FLAGS.filter((flag) => values[flag] !== undefined && values[flag] !== false).map((flag) => `--${flag}`);
  if (positionals.length === 1) {
    const eventId = positionals[0];
    if (!isUuid(eventId)) throw usage("resend", `an event id is a uuid (the delivery log's eventId), got ${quoted(eventId)}`);
    const filterOnly = given.filter((flag) => flag !== "--endpoint");
    if (filterOnly.length > 0) throw usage("resend", `${filterOnly[0]} is a filter, which does not go with an event id; give one or the other`);
    return { kind: "event", eventId, ...(values.endpoint !== undefined && { endpointId: values.endpoint }) };
  }
  if (given.filter((flag) => flag !== "--dry-run").length === 0) {
    throw usage("resend", "give an event id, or a filter: --failed, --succeeded, --type, --endpoint, --since or --until");
  }
  if (values.failed && values.succeeded) throw usage("resend", "--failed and --succeeded exclude each other; give one");
  if (values.type !== undefined && !isEventType(values.type)) throw usage("resend", `unknown event type ${quoted(values.type)}; one of ${EVENT_TYPES.join(", ")}`);
  const filter = {
    ...(values.type !== undefined && { type: values.type }),
    ...(values.endpoint !== undefined && { endpointId: values.endpoint }),
    ...(values.failed ? { state: "failed" } : values.succeeded ? { state: "succeeded" } : {}),
    ...(values.since !== undefined && { since: timeFlag("--since", values.since, now) }),
    ...(values.until !== undefined && { until: timeFlag("--until", values.until, now) }),
    ...(values["dry-run"] && { dryRun: true }),
  };
  // The control API's schema, as the mock will apply it: refused here in the flag's words.
  const problem = requestProblem("BulkResendRequest", filter);
  if (problem) throw usage("resend", problem.message);
  return { kind: "filter", filter: filter as ResendFilter };
}

const SPAN = /^(\d{1,9})(s|m|h|d)$/;
const SPAN_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** A time flag as the control API's date-time (UTC): an ISO time, or a span back from `now`. */
function timeFlag(flag: string, text: string, now: number): string {
  const span = SPAN.exec(text.trim());
  const ms = span ? now - Number(span[1]) * SPAN_MS[span[2] as keyof typeof SPAN_MS] : /^\d{4}-\d{2}-\d{2}/.test(text) ? Date.parse(text) : NaN;
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) throw usage("resend", `${flag} must be an ISO time (2026-11-23T09:00:00Z) or a span back from now (90s, 30m, 2h, 1d), got ${quoted(text)}`);
  return new Date(ms).toISOString();
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The answer to one event's resend, as lines. */
function describeResent({ event, deliveries }: ResendResult): string {
  return `Resent ${event.type} event ${event.id} (occurredAt ${event.occurredAt}) to ${plural(deliveries.length, "endpoint", "endpoints")}: ${deliveries.map((d) => d.url).join(", ")}\n`;
}

/** Lines listed at most; --json gives them all. */
const MAX_LINES = 20;

/** The answer to a bulk resend (or its dry run), as lines. */
export function describeBulk({ dryRun, count, notKept, deliveries }: BulkResendResult): string {
  const lost = notKept === 0 ? "" : `${plural(notKept, "delivery", "deliveries")} more ${notKept === 1 ? "matches" : "match"} but cannot be sent again: the bodies of their events were not kept (a state directory of an earlier mock).\n`;
  if (count === 0) return `No finished delivery matches the filter; nothing ${dryRun ? "would be" : "was"} sent.\n${lost}`;
  const events = new Set(deliveries.map((d) => d.eventId)).size;
  const head = dryRun
    ? `Would resend ${plural(count, "delivery", "deliveries")} of ${plural(events, "event", "events")} (nothing sent; run it again without --dry-run to send them):`
    : `Resent ${plural(count, "delivery", "deliveries")} of ${plural(events, "event", "events")}:`;
  const lines = [head, ...deliveries.slice(0, MAX_LINES).map((d) => `  ${d.type} ${d.eventId} -> ${d.url}`)];
  if (count > MAX_LINES) lines.push(`  … and ${count - MAX_LINES} more (--json lists them all)`);
  return `${lines.join("\n")}\n${lost}`;
}
