// Event bodies for the receiver check, made from the bundled AsyncAPI document: each named type's
// example (the document has one per message), with a fresh event id, an occurredAt of now, and the
// example's record ids replaced by fresh ones, so every run talks of new records while the data
// stays the document's plausible, schema-valid shape. Also what the catalogue implies: a type it
// does not name, and two types about one record for the out-of-order case.
import { webhookEventCatalogue } from "../../../generated/events.js";

/** An event body (service-api.md 6.1): the envelope's six fields. */
export interface EventBody {
  id: string;
  type: string;
  apiVersion: string;
  occurredAt: string;
  organizationId: string;
  data: Record<string, unknown>;
}

/** What the check reads from the AsyncAPI document. */
export interface EventsDocument {
  /** One example body per named event type, by type. */
  examples: ReadonlyMap<string, EventBody>;
  /** The receiver's address as the document's server shows it (its variables' defaults), for requests made in process. */
  endpointUrl: string;
  /** How many event types exist, named or not (the channel's x-event-types-total). */
  totalTypes: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function readEventsDocument(doc: any): EventsDocument {
  const examples = new Map<string, EventBody>();
  for (const message of Object.values<any>(doc?.components?.messages ?? {})) {
    const payload = message?.examples?.[0]?.payload;
    if (typeof message?.name === "string" && payload && typeof payload === "object") examples.set(message.name, payload);
  }
  const missing = webhookEventCatalogue.map((e) => e.type).filter((type) => !examples.has(type));
  if (missing.length) throw new Error(`the AsyncAPI document has no example body for ${missing.join(", ")}`);
  const server = Object.values<any>(doc?.servers ?? {})[0];
  if (!server?.host) throw new Error("the AsyncAPI document names no server for the receiver");
  const fill = (text: string) => text.replace(/\{(\w+)\}/g, (_m, name: string) => String(server.variables?.[name]?.default ?? name));
  const endpointUrl = `${server.protocol}://${fill(server.host)}${fill(server.pathname ?? "/")}`;
  const totalTypes = Object.values<any>(doc?.channels ?? {}).map((c) => c?.["x-event-types-total"]).find((n) => typeof n === "number") ?? examples.size;
  return { examples, endpointUrl, totalTypes };
}

/** `YYYY-MM-DDTHH:MM:SS.fffffffZ`, the 7 fractional digits the document's OccurredAt pattern asks for. */
export function occurredAtOf(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 23)}0000Z`;
}

/** Bodies about one set of records: the same example id always becomes the same fresh id here. */
export interface Records {
  /** A body of `type` (a named type, or `like`'s data under another type name), occurring at `atMs`. */
  event(type: string, atMs: number, like?: string): EventBody;
}

export function createRecords(doc: EventsDocument, newId: () => string): Records {
  const fresh = new Map<string, string>();
  const remap = (value: unknown): unknown => {
    if (typeof value === "string" && UUID.test(value)) {
      if (!fresh.has(value)) fresh.set(value, newId());
      return fresh.get(value);
    }
    if (Array.isArray(value)) return value.map(remap);
    if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, remap(v)]));
    return value;
  };
  return {
    event(type, atMs, like = type) {
      const example = doc.examples.get(like);
      if (!example) throw new Error(`no example body for event type ${like}`);
      // Key order is the document's; the body is serialized once and those bytes are signed.
      return {
        id: newId(),
        type,
        apiVersion: example.apiVersion,
        occurredAt: occurredAtOf(atMs),
        organizationId: remap(example.organizationId) as string,
        data: remap(example.data) as Record<string, unknown>,
      };
    },
  };
}

const namedTypes: ReadonlySet<string> = new Set(webhookEventCatalogue.map((e) => e.type));
const partsOf = (type: string) => {
  const dot = type.indexOf(".");
  return { record: type.slice(0, dot), verb: type.slice(dot + 1) };
};

/**
 * A type the catalogue does not name, made the way its names are: the record of a named type and
 * the verb of another type of the same group (the first such pair in catalogue order), with the data
 * of that named type. The provider has 19 types it does not show; a receiver taking every event
 * gets them too.
 */
export function unnamedType(): { type: string; like: string } {
  for (const entry of webhookEventCatalogue) {
    for (const other of webhookEventCatalogue) {
      if (other.group !== entry.group || other.type === entry.type) continue;
      const type = `${partsOf(entry.type).record}.${partsOf(other.type).verb}`;
      if (!namedTypes.has(type)) return { type, like: entry.type };
    }
  }
  throw new Error("the event catalogue gives no record and verb to make an unnamed type of");
}

/**
 * Two named types about one record, in the order they happen: of the record most named types are
 * about (the first field of their example data names it), the first two in catalogue order.
 */
export function oneRecordPair(doc: EventsDocument): [earlier: string, later: string] {
  const byRecord = new Map<string, string[]>();
  for (const { type } of webhookEventCatalogue) {
    const key = Object.keys(doc.examples.get(type)?.data ?? {})[0];
    if (key === undefined) continue;
    byRecord.set(key, [...(byRecord.get(key) ?? []), type]);
  }
  const types = [...byRecord.values()].reduce((best, next) => (next.length > best.length ? next : best), [] as string[]);
  if (types.length < 2) throw new Error("no two named event types are about one record");
  return [types[0], types[1]];
}
