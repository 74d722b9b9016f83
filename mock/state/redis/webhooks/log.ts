// Reading a world's webhook side from Redis: its endpoints, and its delivery log (each entry as a
// replica last wrote it, with the state scripts keep beside it), newest or oldest first, with the
// events' bodies when a resend needs them.
import type { DeliveryFilter, DeliveryLogEntry, DeliveryState, LoggedDelivery } from "../../../webhooks/delivery-log.js";
import type { Endpoint } from "../../../webhooks/endpoints.js";
import { parseEndpoint } from "../../snapshot.js";
import type { WorldKeys } from "../keys.js";
import type { Scripts } from "../scripts.js";
import { membersOf, parseMember } from "../formats.js";

/** The endpoints of an organisation (every one's when none is named), oldest first. */
export async function readEndpoints(scripts: Scripts, keys: WorldKeys, organizationId?: string): Promise<Endpoint[]> {
  const texts = await scripts.read((client) => client.hvals(keys.endpoints));
  const endpoints = texts.map((text) => endpointOf(text)).filter((e) => organizationId === undefined || e.organizationId === organizationId);
  return endpoints.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
}

export function endpointOf(text: string): Endpoint {
  const endpoint = parseEndpoint(JSON.parse(text));
  if (typeof endpoint === "string") throw new Error(`hr-mock: an endpoint in the state store is not one (${endpoint})`);
  return endpoint;
}

/** The log's members of an organisation, or of all, each with its sequence. */
function placesOf(members: string[]): { id: string; seq: number }[] {
  return members.map((text) => {
    const { seq, id } = parseMember("order", text);
    return { id, seq: Number(seq) };
  });
}

/**
 * The log entries the filter selects, newest first, at most `limit` (default 100): the newest
 * members are read alone when the filter names no event or endpoint.
 */
export async function readDeliveries(scripts: Scripts, keys: WorldKeys, filter: DeliveryFilter = {}): Promise<DeliveryLogEntry[]> {
  const limit = filter.limit ?? 100;
  const narrowed = filter.eventId !== undefined || filter.endpointId !== undefined;
  const org = filter.organizationId;
  const [min, max] = membersOf(org ?? "");
  const members = await scripts.read((client) =>
    org === undefined
      ? client.zrange(keys.order, "0", "-1")
      : narrowed || !Number.isFinite(limit)
        ? client.zrangebylex(keys.order, min, max)
        : client.zrevrangebylex(keys.order, max, min, "LIMIT", "0", String(limit)),
  );
  const places = placesOf(members).sort((a, b) => b.seq - a.seq);
  const entries = await entriesOf(scripts, keys, places.map((p) => p.id));
  const eventId = filter.eventId?.toLowerCase();
  const endpointId = filter.endpointId?.toLowerCase();
  return entries.filter((e) => (eventId === undefined || e.eventId === eventId) && (endpointId === undefined || e.endpointId === endpointId)).slice(0, limit);
}

/** An organisation's whole log with the events' bodies, oldest first: what resends pick from. */
export async function readLogged(scripts: Scripts, keys: WorldKeys, organizationId: string): Promise<LoggedDelivery[]> {
  const members = await scripts.read((client) => client.zrangebylex(keys.order, ...membersOf(organizationId)));
  const entries = await entriesOf(scripts, keys, placesOf(members).map((p) => p.id));
  const events = [...new Set(entries.map((e) => e.eventId))];
  const bodies = events.length === 0 ? [] : await scripts.read((client) => client.hmgetBuffer(keys.bodies, ...events));
  const byEvent = new Map(events.map((id, i) => [id, bodies[i] ?? undefined]));
  return entries.map((entry) => ({ entry, body: byEvent.get(entry.eventId) ?? undefined }));
}

/** Entries by id, in the order given, each with the state scripts keep beside it in `states` (an entry trimmed meanwhile is left out). */
export async function entriesOf(scripts: Scripts, keys: WorldKeys, ids: string[]): Promise<DeliveryLogEntry[]> {
  if (ids.length === 0) return [];
  const [texts, states] = await scripts.read((client) => Promise.all([client.hmget(keys.deliveries, ...ids), client.hmget(keys.states, ...ids)]));
  return texts.flatMap((text, i) => {
    if (text === null) return [];
    const [entry, state] = [JSON.parse(text) as DeliveryLogEntry, states[i]];
    const held = state === null ? undefined : parseMember("state", state);
    return [held ? { ...entry, state: held.state as DeliveryState, nextAttemptAt: held.nextAt || null } : entry];
  });
}
