// The webhook direction: what a receiver gets (each event type's headers and body), from either
// document, as a response in an OpenAPI view compared by api-smart-diff, whose response rules are
// the receiver's (a removed field breaks, a new optional one does not); @asyncapi/diff leaves
// payload schemas unclassified.
import type { Change } from "./contract.js";
import { describeEvent } from "./describe.js";
import { reachableComponents, resolvePointer, type Json } from "./json.js";
import { compareViews } from "./read-api.js";

/** One event type as a receiver sees it: its header schema and its body schema. */
interface EventShape {
  headers: Json;
  body: Json;
}

const deref = (doc: Json, node: Json): Json => (node && typeof node.$ref === "string" ? (resolvePointer(doc, node.$ref) ?? node) : node);

/** Each OpenAPI webhook: header parameters as one header object, the request body as the body. */
function webhookShapes(doc: Json): Map<string, EventShape> {
  const shapes = new Map<string, EventShape>();
  for (const [name, item] of Object.entries<Json>(doc?.webhooks ?? {})) {
    const operation = item?.post ?? Object.values<Json>(item ?? {}).find((value) => value && typeof value === "object" && value.requestBody);
    if (!operation) continue;
    const headers: Json = { type: "object", required: [], properties: {} };
    for (const raw of [...(item.parameters ?? []), ...(operation.parameters ?? [])]) {
      const parameter = deref(doc, raw);
      if (parameter?.in !== "header") continue;
      headers.properties[parameter.name] = parameter.schema ?? {};
      if (parameter.required) headers.required.push(parameter.name);
    }
    const body = deref(doc, operation.requestBody)?.content?.["application/json"]?.schema ?? {};
    shapes.set(name, { headers, body });
  }
  return shapes;
}

/** A message with its traits applied (AsyncAPI 3: the message's own fields win). */
function withTraits(doc: Json, message: Json): Json {
  const merged: Json = {};
  for (const trait of message.traits ?? []) Object.assign(merged, deref(doc, trait));
  const { traits: _traits, ...own } = message;
  return Object.assign(merged, own);
}

/** Each AsyncAPI message a channel carries, by its name (the event type). */
function messageShapes(doc: Json): Map<string, EventShape> {
  const shapes = new Map<string, EventShape>();
  for (const channel of Object.values<Json>(doc?.channels ?? {})) {
    for (const [key, raw] of Object.entries<Json>(deref(doc, channel)?.messages ?? {})) {
      const message = withTraits(doc, deref(doc, raw) ?? {});
      const payload = message.payload && typeof message.payload === "object" && "schemaFormat" in message.payload ? message.payload.schema : message.payload;
      shapes.set(String(message.name ?? key), { headers: deref(doc, message.headers) ?? {}, body: payload ?? {} });
    }
  }
  return shapes;
}

/** The shapes as an OpenAPI document: one operation per event type, its 200 response the event. */
function eventView(doc: Json, shapes: Map<string, EventShape>): Json {
  const paths: Json = {};
  for (const [name, shape] of [...shapes].sort(([a], [b]) => a.localeCompare(b))) {
    const schema = { type: "object", properties: { headers: shape.headers, body: shape.body } };
    paths[`/${name}`] = { post: { responses: { "200": { description: name, content: { "application/json": { schema } } } } } };
  }
  return {
    openapi: "3.1.0",
    info: { title: "events", version: "0" },
    paths,
    components: reachableComponents(doc, [...shapes.values()].flatMap((shape) => [shape.headers, shape.body])),
  };
}

/** Compares two event views: `noun` names the place ("webhook", "event"). */
function compareEventViews(before: Json, after: Json, meta: Pick<Change, "document" | "scope">, noun: string): Change[] {
  return compareViews(before, after, meta, "receiver", (diff) => {
    if (diff.path[0] !== "paths" || diff.path.length === 2 || diff.path.at(-1) === "x-assumption") return undefined;
    // Only the schema and the event itself carry meaning; the synthetic wrapper's own fields do not.
    if (diff.path.length > 3 && !diff.path.includes("schema")) return undefined;
    return describeEvent(diff.path, diff.action, diff.before, diff.after, noun);
  });
}

/**
 * The OpenAPI webhooks: the events' shapes, and the answers the receiver gives (a response the
 * sender no longer documents changes how the receiver's answer is treated).
 */
export function compareWebhooks(before: Json, after: Json): Change[] {
  const meta = { document: "OpenAPI", scope: "webhooks" } as const;
  const changes = compareEventViews(eventView(before, webhookShapes(before)), eventView(after, webhookShapes(after)), meta, "webhook");
  for (const [name, item] of Object.entries<Json>(before?.webhooks ?? {})) {
    const afterItem = after?.webhooks?.[name];
    if (!afterItem) continue;
    const note = (kind: Change["kind"], what: string, why: string) => changes.push({ kind, ...meta, place: `webhook ${name}`, what, why, id: `OpenAPI webhook ${name}: ${what}` });
    // The operation's own notes (summary, description, x-permission, tags): documentation.
    const notesOf = ({ parameters: _p, requestBody: _b, responses: _r, ...notes }: Json = {}) => notes;
    const [notes, newNotes] = [notesOf(item.post), notesOf(afterItem.post)];
    for (const key of new Set([...Object.keys(notes), ...Object.keys(newNotes)])) {
      if (JSON.stringify(notes[key]) !== JSON.stringify(newNotes[key])) note("info", `${key} changed`, "documentation of the webhook, no change on the wire");
    }
    const [was, now] = [item.post?.responses ?? {}, afterItem.post?.responses ?? {}];
    for (const code of Object.keys(was)) {
      if (!(code in now)) note("breaking", `receiver answer ${code} no longer documented`, "a receiver answering it may no longer be treated as before");
    }
    for (const code of Object.keys(now)) {
      if (!(code in was)) note("non-breaking", `receiver answer ${code} documented`, "a new documented answer; existing receivers are unaffected");
    }
  }
  return changes;
}

export function compareMessages(before: Json, after: Json): Change[] {
  return compareEventViews(eventView(before, messageShapes(before)), eventView(after, messageShapes(after)), { document: "AsyncAPI", scope: "events" }, "event");
}
