// Resending from the delivery log, as the provider's redelivery: which endpoints one event goes to
// again, which deliveries a filter matches, and whether a bulk resend fits the bounds on waiting
// deliveries. Pure: it answers picks or a reason; the service queues them.
import type { components } from "../../generated/control-api.js";
import type { WebhookEvent, WebhookEventType } from "../../generated/events.js";
import { ok, refuse, type Result } from "../kernel/results.js";
import { isFinal, type DeliveryLogEntry, type LoggedDelivery } from "./delivery-log.js";
import { shownUrl, subscribes, type Endpoint } from "./endpoints.js";
import type { EngineSettings } from "./settings.js";

type Schemas = components["schemas"];

/** The bulk form's filter, as the control API's document says it (checked where it came in). */
export type ResendFilter = Schemas["BulkResendRequest"];
/** One delivery queued again, or in a dry run one that would be. */
export type ResentDelivery = Schemas["ResentDelivery"];
export type BulkResendResult = Schemas["BulkResendResult"];

/** The event as it is sent again: its body, parsed; the bytes sent are those first sent. */
export type ResendResult = Omit<Schemas["ResendResult"], "event"> & { event: WebhookEvent };

/** One delivery to queue again: the event's body as first sent, to this endpoint, linked to the original entry. */
export interface ResendPick {
  endpoint: Endpoint;
  eventId: string;
  type: WebhookEventType;
  body: Buffer;
  /** The `id` of the log entry of the original delivery. */
  resendOf: string;
}

/** The bounds of the engine's queues a bulk resend must fit in. */
type ResendBounds = Pick<EngineSettings, "maxWaitingPerEndpoint" | "maxWaiting">;

/** Every delivery of one event to one endpoint in the log (the original, duplicates, resends), oldest first. */
interface Pair {
  eventId: string;
  endpointId: string;
  type: WebhookEventType;
  entries: DeliveryLogEntry[];
  body: Buffer | undefined;
}

/** The entry a resend links to: the original delivery, also when the oldest kept entry is itself a resend. */
const originalOf = (entry: DeliveryLogEntry): string => entry.resendOf ?? entry.id;

function pairsOf(logged: readonly LoggedDelivery[], eventId?: string): Pair[] {
  const pairs = new Map<string, Pair>();
  for (const { entry, body } of logged) {
    if (eventId !== undefined && entry.eventId !== eventId) continue;
    const key = `${entry.eventId} ${entry.endpointId}`;
    let pair = pairs.get(key);
    if (!pair) {
      pair = { eventId: entry.eventId, endpointId: entry.endpointId, type: entry.type, entries: [], body };
      pairs.set(key, pair);
    }
    pair.entries.push(entry);
    pair.body ??= body;
  }
  return [...pairs.values()];
}

const shortId = (id: string): string => id.slice(0, 100);

/** One event again: to `endpointId` (which receives the type or was sent the event), or to every endpoint it went to that is still registered. */
export function pickEvent(logged: readonly LoggedDelivery[], endpoints: readonly Endpoint[], eventId: string, endpointId?: string): Result<ResendPick[]> {
  const id = eventId.toLowerCase();
  const pairs = pairsOf(logged, id);
  if (pairs.length === 0) return refuse("not-found", `no event with id ${shortId(eventId)} in this organisation's delivery log`, "eventId");
  const body = pairs.find((p) => p.body)?.body;
  // Only a state directory written before bodies were kept can lack one.
  if (!body) return refuse("conflict", `the body of event ${id} was not kept (its log entries come from a state directory of an earlier mock), so it cannot be sent again`, "eventId");
  const { type } = pairs[0];
  const pick = (endpoint: Endpoint, resendOf: string): ResendPick => ({ endpoint, eventId: id, type, body, resendOf });
  if (endpointId !== undefined) {
    const endpoint = endpoints.find((e) => e.id === endpointId.toLowerCase());
    if (!endpoint) return refuse("not-found", `no webhook endpoint with id ${shortId(endpointId)} in this organisation`, "endpointId");
    const own = pairs.find((p) => p.endpointId === endpoint.id);
    if (own) return ok([pick(endpoint, originalOf(own.entries[0]))]);
    if (!subscribes(endpoint, type)) return refuse("conflict", `endpoint ${endpoint.id} does not receive ${type} events and was never sent event ${id}`, "endpointId");
    return ok([pick(endpoint, originalOf(pairs[0].entries[0]))]);
  }
  const registered = new Map(endpoints.map((e) => [e.id, e]));
  const picks = pairs.flatMap((p) => {
    const endpoint = registered.get(p.endpointId);
    return endpoint ? [pick(endpoint, originalOf(p.entries[0]))] : [];
  });
  if (picks.length === 0) return refuse("conflict", `every endpoint event ${id} went to was removed; name one with endpointId`, "endpointId");
  return ok(picks);
}

/** How an event's delivery to an endpoint ended: succeeded once, failed (all final, none succeeded), or still under way. */
function outcomeOf(pair: Pair): "succeeded" | "failed" | "under way" {
  if (pair.entries.some((e) => !isFinal(e.state))) return "under way";
  return pair.entries.some((e) => e.state === "succeeded") ? "succeeded" : "failed";
}

/**
 * The finished deliveries a filter matches to endpoints still registered, once per event and endpoint,
 * and the count of those whose body was not kept; a selection past the bounds is refused whole.
 */
export function pickMatching(logged: readonly LoggedDelivery[], endpoints: readonly Endpoint[], filter: ResendFilter, bounds: ResendBounds): Result<{ picks: ResendPick[]; notKept: number }> {
  const registered = new Map(endpoints.map((e) => [e.id, e]));
  const endpointId = filter.endpointId?.toLowerCase();
  if (endpointId !== undefined && !registered.has(endpointId)) return refuse("not-found", `no webhook endpoint with id ${shortId(endpointId)} in this organisation`, "endpointId");
  const since = filter.since === undefined ? -Infinity : Date.parse(filter.since);
  const until = filter.until === undefined ? Infinity : Date.parse(filter.until);
  const picks: ResendPick[] = [];
  let notKept = 0;
  for (const pair of pairsOf(logged)) {
    const endpoint = registered.get(pair.endpointId);
    const first = pair.entries[0];
    const queuedAt = Date.parse(first.queuedAt);
    if (!endpoint || queuedAt < since || queuedAt >= until) continue;
    if ((filter.type !== undefined && pair.type !== filter.type) || (endpointId !== undefined && pair.endpointId !== endpointId)) continue;
    const outcome = outcomeOf(pair);
    if (outcome === "under way" || (filter.state !== undefined && outcome !== filter.state)) continue;
    if (pair.body) picks.push({ endpoint, eventId: pair.eventId, type: pair.type, body: pair.body, resendOf: originalOf(first) });
    else notKept++;
  }
  const tooMany = beyondBounds(picks, bounds);
  return tooMany ? refuse("conflict", `${tooMany}; narrow it with since, until, type or endpointId`) : ok({ picks, notKept });
}

/** Why the picks do not fit the queues, or undefined when they do. */
function beyondBounds(picks: readonly ResendPick[], bounds: ResendBounds): string | undefined {
  if (picks.length > bounds.maxWaiting) return `the filter matches ${picks.length} deliveries, more than the ${bounds.maxWaiting} the mock holds waiting in all (maxWaiting)`;
  const perEndpoint = new Map<string, number>();
  for (const { endpoint } of picks) perEndpoint.set(endpoint.id, (perEndpoint.get(endpoint.id) ?? 0) + 1);
  for (const [id, count] of perEndpoint) {
    if (count > bounds.maxWaitingPerEndpoint) return `the filter matches ${count} deliveries to endpoint ${id}, more than the ${bounds.maxWaitingPerEndpoint} an endpoint holds waiting (maxWaitingPerEndpoint)`;
  }
  return undefined;
}

/** A pick as the control API shows it; `id` is the new entry's, null in a dry run. */
export function resentView(pick: ResendPick, id: string | null): ResentDelivery {
  return { id, eventId: pick.eventId, type: pick.type, endpointId: pick.endpoint.id, url: shownUrl(pick.endpoint), resendOf: pick.resendOf };
}
