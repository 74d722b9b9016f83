// Writes generated/events.ts: the event payload types (from the AsyncAPI document's schemas, by
// openapi-typescript) and the list of event types with their groups, read from the messages.
import openapiTS, { astToString } from "openapi-typescript";
import type { BundledDocument } from "./bundle.js";
import { GENERATED_BANNER } from "./banner.js";

export interface EventMessageInfo {
  type: string;
  group: string;
  schema: string;
  summary: string;
}

function refName(ref: unknown): string {
  if (typeof ref !== "string") throw new Error(`expected a $ref, got ${JSON.stringify(ref)}`);
  return ref.split("/").pop()!;
}

/** The `type` const of an event schema: on its own properties or on an allOf part (the envelope is shared). */
function typeConst(schemas: Record<string, any>, schema: any): unknown {
  if (!schema) return undefined;
  if (typeof schema.$ref === "string") return typeConst(schemas, schemas[refName(schema.$ref)]);
  const own = schema.properties?.type?.const;
  if (own !== undefined) return own;
  for (const part of schema.allOf ?? []) {
    const found = typeConst(schemas, part);
    if (typeof found === "string") return found;
  }
  return undefined;
}

/** The event messages of the AsyncAPI document: type (the payload's `type` const), group and schema name. */
export function collectEventMessages(asyncapi: BundledDocument): EventMessageInfo[] {
  const schemas = asyncapi.components?.schemas ?? {};
  const messages = asyncapi.components?.messages ?? {};
  const out: EventMessageInfo[] = [];
  for (const [key, message] of Object.entries<any>(messages)) {
    const payload = message.payload;
    if (!payload?.$ref) throw new Error(`message ${key}: payload must be a $ref to a schema`);
    const schema = refName(payload.$ref);
    const type = typeConst(schemas, schemas[schema]);
    if (typeof type !== "string") throw new Error(`schema ${schema}: properties.type (own or in an allOf part) must be a const event type`);
    out.push({ type, group: message["x-event-group"] ?? "", schema, summary: message.summary ?? "" });
  }
  return out.sort((a, b) => (a.type < b.type ? -1 : a.type > b.type ? 1 : 0));
}

export async function renderEventTypes(asyncapi: BundledDocument): Promise<string> {
  const events = collectEventMessages(asyncapi);
  // openapi-typescript reads JSON Schema from an OpenAPI 3.1 shell holding the AsyncAPI schemas.
  const shell = {
    openapi: "3.1.0",
    info: { title: "events", version: "1" },
    paths: {},
    components: { schemas: structuredClone(asyncapi.components?.schemas ?? {}) },
  };
  const ast = await openapiTS(shell as any, { alphabetize: false, rootTypes: false });
  const body = astToString(ast)
    .replace(/export type paths = Record<string, never>;\n?/, "")
    .replace(/export type webhooks = Record<string, never>;\n?/, "")
    .replace(/export type \$defs = Record<string, never>;\n?/, "")
    .replace(/export type operations = Record<string, never>;\n?/, "")
    .replace(/export interface components/, "interface components");
  const union = events.map((e) => `  | components["schemas"]["${e.schema}"]`).join("\n");
  const byType = events.map((e) => `  "${e.type}": components["schemas"]["${e.schema}"];`).join("\n");
  const list = events.map((e) => ({ type: e.type, group: e.group, schema: e.schema, summary: e.summary }));
  return `${GENERATED_BANNER}${body}
/** The schemas of the AsyncAPI document, by name. */
export type EventSchemas = components["schemas"];

/** Any webhook event body; narrow it by \`type\`. */
export type WebhookEvent =
${union};

/** The body of each event type, by type. */
export interface WebhookEventMap {
${byType}
}

export type WebhookEventType = keyof WebhookEventMap;

/** The data of one event type. */
export type WebhookEventData<T extends WebhookEventType> = WebhookEventMap[T]["data"];

/** Every event type the AsyncAPI document describes, with its plan group and schema name. */
export const webhookEventCatalogue = ${JSON.stringify(list, null, 2)} as const;

export const webhookEventTypes = webhookEventCatalogue.map((e) => e.type) as WebhookEventType[];
`;
}
