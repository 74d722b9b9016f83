// The text forms of what a state directory keeps, and the checks that read them back: a data
// change per journal line, and the webhook snapshot (endpoints with their secrets, the delivery log,
// each logged event's body, and each waiting delivery as its log entry's place and its body, base64,
// exactly as it is sent).
// Parsers answer a reason (a string) instead of throwing: the store turns it into one line.
import { randomUUID } from "node:crypto";
import type { Endpoint } from "../webhooks/endpoints.js";
import { deliveryProblem, isEventType, isUuid } from "../kernel/json-schema.js";
import { jsonOrUndefined } from "../kernel/json-text.js";
import type { DataChange, WebhookSnapshot } from "../webhooks/core.js";
import type { DeliveryLogEntry } from "../webhooks/delivery-log.js";
import type { WebhookEventType } from "../../generated/events.js";
import type { SandboxDefinition } from "../worlds/world.js";

const SNAPSHOT_FORMAT = 1;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** A journal line as a data change, or why it is not one. */
export function parseChange(line: string): DataChange | string {
  const value = jsonOrUndefined(line);
  if (value === undefined) return "not JSON";
  if (!isObject(value)) return "not an object";
  const { organizationId, input, at } = value;
  if (typeof organizationId !== "string") return "organizationId is not a string";
  if (typeof at !== "string" || Number.isNaN(Date.parse(at))) return "at is not a time";
  // The trigger's whole input is kept as it came; only its type is needed to read it back.
  if (!isObject(input) || !isEventType(input.type)) return "input is not a trigger's input";
  return value as unknown as DataChange;
}

/** What can be read of a data change from the start of its line: the fields whose values the text reaches whole. */
export interface PartialChange {
  type?: WebhookEventType;
  organizationId?: string;
  /** The trigger's record id, when it named one. */
  id?: string;
  at?: string;
}

/**
 * The fields of a change a torn line still shows. A line is JSON.stringify of a DataChange, so a
 * key is `"name":` exactly (a quote inside a string value is escaped and never matches).
 */
export function partialChange(text: string): PartialChange {
  const value = (key: string) => new RegExp(`"${key}":"([^"\\\\]{1,100})"`).exec(text)?.[1];
  const [type, organizationId, id, at] = [value("type"), value("organizationId"), value("id"), value("at")];
  return {
    ...(isEventType(type) && { type }),
    ...(organizationId !== undefined && isUuid(organizationId) && { organizationId }),
    ...(id !== undefined && isUuid(id) && { id }),
    ...(at !== undefined && !Number.isNaN(Date.parse(at)) && { at }),
  };
}

export function serializeSnapshot(snapshot: WebhookSnapshot): string {
  const log = [...snapshot.log];
  const place = new Map(log.map((entry, i) => [entry, i]));
  const waiting = snapshot.waiting.map(({ entry, body }) => {
    let i = place.get(entry);
    if (i === undefined) i = log.push(entry) - 1;
    return { entry: i, body: body.toString("base64") };
  });
  return JSON.stringify({
    format: SNAPSHOT_FORMAT,
    endpoints: snapshot.endpoints.map((e) => ({ ...e, url: e.url.href })),
    log,
    bodies: Object.fromEntries([...snapshot.bodies].map(([eventId, body]) => [eventId, body.toString("base64")])),
    waiting,
  });
}

/** The snapshot, or why the text is not one. */
export function parseSnapshot(text: string): WebhookSnapshot | string {
  const value = jsonOrUndefined(text);
  if (value === undefined) return "not JSON";
  if (!isObject(value) || value.format !== SNAPSHOT_FORMAT) return `not of format ${SNAPSHOT_FORMAT}`;
  const { endpoints, log, waiting, bodies = {} } = value;
  if (!Array.isArray(endpoints) || !Array.isArray(log) || !Array.isArray(waiting)) return "endpoints, log or waiting is not a list";
  if (!isObject(bodies) || !Object.values(bodies).every((b) => typeof b === "string")) return "bodies is not an object of event ids to base64 bodies";
  const parsedEndpoints: Endpoint[] = [];
  for (const [i, e] of endpoints.entries()) {
    const endpoint = parseEndpoint(e);
    if (typeof endpoint === "string") return `endpoints[${i}]: ${endpoint}`;
    parsedEndpoints.push(endpoint);
  }
  for (const [i, entry] of log.entries()) {
    // Entries kept before the log had ids and resends: given an id, and marked as no resend.
    if (isObject(entry)) {
      entry.id ??= randomUUID();
      entry.resendOf ??= null;
    }
    const problem = deliveryProblem(entry);
    if (problem) return `log[${i}]: ${problem}`;
  }
  const entries = log as DeliveryLogEntry[];
  const parsedWaiting: WebhookSnapshot["waiting"] = [];
  for (const [i, w] of waiting.entries()) {
    if (!isObject(w) || !Number.isInteger(w.entry) || entries[w.entry as number] === undefined || typeof w.body !== "string") return `waiting[${i}] is not a log entry's place and a body`;
    parsedWaiting.push({ entry: entries[w.entry as number], body: Buffer.from(w.body, "base64") });
  }
  const parsedBodies = new Map(Object.entries(bodies as Record<string, string>).map(([eventId, body]) => [eventId, Buffer.from(body, "base64")]));
  return { endpoints: parsedEndpoints, log: entries, bodies: parsedBodies, waiting: parsedWaiting };
}

/** An endpoint as JSON keeps it (its URL as text), or why it is not one. */
export function parseEndpoint(value: unknown): Endpoint | string {
  if (!isObject(value)) return "not an object";
  const { id, organizationId, url, description, events, secret, createdAt } = value;
  for (const [name, field] of Object.entries({ id, organizationId, url, secret, createdAt })) {
    if (typeof field !== "string") return `${name} is not a string`;
  }
  if (description !== null && typeof description !== "string") return "description is not a string or null";
  if (events !== "all" && !(Array.isArray(events) && events.every(isEventType))) return "events is not \"all\" or a list of event types";
  let parsed: URL;
  try {
    parsed = new URL(url as string);
  } catch {
    return "url is not a URL";
  }
  // Checked above, field by field.
  return { id, organizationId, url: parsed, description, events, secret, createdAt } as Endpoint;
}

/** A sandbox definition as it was written (world.json, Redis), or why it is not one. */
export function parseDefinition(text: string, id: string): SandboxDefinition | string {
  const value = jsonOrUndefined(text);
  if (value === undefined) return "is not JSON";
  const d = value as Partial<SandboxDefinition>;
  if (d?.id !== id) return `names another id (${String(d?.id).slice(0, 40)})`;
  if (typeof d.createdAt !== "string" || !(d.label === null || typeof d.label === "string")) return "has no createdAt or label";
  if (!Array.isArray(d.keys) || !d.keys.every((k) => typeof k?.key === "string" && typeof k?.demoKey === "string")) return "has no keys";
  return d as SandboxDefinition;
}
