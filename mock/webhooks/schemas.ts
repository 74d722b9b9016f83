// The mock's one Ajv set-up, over the bundled documents: event bodies against their AsyncAPI
// message's payload schema, the inputs of in-process callers (startMock's API, which no HTTP edge
// checks) against the control API document's request schemas, and data files against their schema.
import { readFileSync } from "node:fs";
import Ajv2020Module from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { webhookEventTypes, type WebhookEventType } from "../../generated/events.js";
import type { Reason } from "./reasons.js";

const ASYNCAPI_PATH = new URL("../../generated/asyncapi.json", import.meta.url);
const CONTROL_PATH = new URL("../../generated/control-openapi.json", import.meta.url);

/** The event types of the catalogue (generated from the AsyncAPI document). */
export const EVENT_TYPES: readonly WebhookEventType[] = webhookEventTypes;
const TYPES: ReadonlySet<string> = new Set(EVENT_TYPES);

export function isEventType(value: unknown): value is WebhookEventType {
  return typeof value === "string" && TYPES.has(value);
}

type Json = Record<string, any>;
type Compiled = ((value: unknown) => boolean) & { errors?: Array<{ instancePath: string; message?: string; keyword: string; params: Json }> | null };

// Ajv ships CommonJS; under NodeNext its default export arrives as the module object.
const Ajv2020 = ((Ajv2020Module as any).default ?? Ajv2020Module) as new (options: object) => any;
const addFormats = ((addFormatsModule as any).default ?? addFormatsModule) as (ajv: unknown) => void;

/** A validator for a schema of the package's own (the data file's), on the same Ajv set-up. */
export function compileSchema(schema: Json): Compiled {
  documents();
  return ajv.compile(schema) as Compiled;
}

let ajv: any;
let asyncapi: Json;
let control: Json;
function documents(): void {
  if (ajv) return;
  asyncapi = JSON.parse(readFileSync(ASYNCAPI_PATH, "utf8")) as Json;
  control = JSON.parse(readFileSync(CONTROL_PATH, "utf8")) as Json;
  // strict: false because the documents carry keywords that are not JSON Schema (example, x-*).
  ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema(asyncapi, "asyncapi");
  ajv.addSchema(control, "control");
}

let payloads: Map<string, Compiled> | undefined;
/** Compiled once per process: each message's payload schema, by the message's name (its event type). */
function payloadValidators(): Map<string, Compiled> {
  if (payloads) return payloads;
  documents();
  payloads = new Map();
  for (const [key, message] of Object.entries<Json>(asyncapi.components?.messages ?? {})) {
    payloads.set(message.name, ajv.compile({ $ref: `asyncapi#/components/messages/${key}/payload` }));
  }
  return payloads;
}

/** Error texts of an event body against its type's message payload schema; empty when it is valid. */
export function eventProblems(body: unknown): string[] {
  const type = (body as { type?: unknown } | null)?.type;
  const validate = typeof type === "string" ? payloadValidators().get(type) : undefined;
  if (!validate) return [`type ${JSON.stringify(type)} is not the name of an AsyncAPI message`];
  if (validate(body)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || "(body)"} ${e.message}`);
}

export type RequestSchema = "AddEndpointRequest" | "TriggerRequest";
const requests = new Map<RequestSchema, Compiled>();

/**
 * Checks an in-process caller's input against the control API's request schema, so that it meets
 * exactly the rules an HTTP caller meets; the first problem as a reason naming the field. A value
 * of a writeOnly property (a secret) is never echoed.
 */
export function requestProblem(schema: RequestSchema, value: unknown): Reason | undefined {
  let validate = requests.get(schema);
  if (!validate) {
    documents();
    validate = ajv.compile({ $ref: `control#/components/schemas/${schema}` }) as Compiled;
    requests.set(schema, validate);
  }
  if (validate(value)) return undefined;
  const errors = validate.errors ?? [];
  // oneOf reports each branch; the error of the branch nearest the value says the most.
  const error = errors.find((e) => e.keyword !== "oneOf" && e.keyword !== "const" && e.keyword !== "type") ?? errors[0];
  const field = error.keyword === "required" ? String(error.params.missingProperty) : error.keyword === "additionalProperties" ? String(error.params.additionalProperty) : fieldOf(error.instancePath);
  const properties = (control.components.schemas[schema] as Json).properties as Json;
  const secret = properties[field.split(/[[.]/)[0]]?.writeOnly === true;
  const got = field === "" || secret || error.keyword === "required" || error.keyword === "additionalProperties" ? "" : `, got ${shown(valueAt(value, error.instancePath))}`;
  const what = error.keyword === "additionalProperties" ? `is not a field of ${schema}; the fields are ${Object.keys(properties).join(", ")}` : error.keyword === "required" ? "is required" : error.message;
  return { kind: "invalid", ...(field === "" ? {} : { field }), message: `${field || "the input"} ${what}${got}` };
}

/** `/events/1` as `events[1]`. */
function fieldOf(pointer: string): string {
  return pointer
    .split("/")
    .slice(1)
    .map((part, i) => (/^\d+$/.test(part) ? `[${part}]` : i === 0 ? part : `.${part}`))
    .join("");
}

function valueAt(value: unknown, pointer: string): unknown {
  return pointer.split("/").slice(1).reduce<any>((node, key) => node?.[key], value);
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
