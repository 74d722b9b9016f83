// What the engine knows from the bundled AsyncAPI document, read once: the delivery rules the
// send operation carries as extensions, the fixed header values, and a validator for event bodies.
// Nothing here is retyped from the provider's document; a wrong or missing value stops start-up.
import { readFileSync } from "node:fs";
import Ajv2020Module from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { webhookEventCatalogue, type WebhookEventType } from "../../generated/events.js";

/** The bundled AsyncAPI document next to the package's sources. */
export const ASYNCAPI_PATH = new URL("../../generated/asyncapi.json", import.meta.url);

export interface DeliveryRules {
  /** `apiVersion` of every body (`x-api-version`). */
  apiVersion: string;
  /** A receiver answers within this many seconds (`x-response-timeout-seconds`). */
  responseTimeoutSeconds: number;
  /** Endpoints one organisation may register (`x-max-endpoints-per-organisation`). */
  maxEndpointsPerOrganisation: number;
  /** Delay before each attempt, seconds after the previous one failed; the first is 0 (`x-retry-schedule-seconds`). */
  retryScheduleSeconds: readonly number[];
}

/** The header names of a delivery (the WebhookHeaders schema's `required`) and its fixed values (its `const`s). */
export interface DeliveryHeaders {
  names: readonly string[];
  contentType: string;
  userAgent: string;
}

type Json = Record<string, any>;

let document: Json | undefined;
function asyncapi(): Json {
  document ??= JSON.parse(readFileSync(ASYNCAPI_PATH, "utf8")) as Json;
  return document;
}

function positiveNumber(value: unknown, name: string): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    throw new Error(`generated/asyncapi.json: operations.sendWebhookEvent.${name} must be a positive number, got ${JSON.stringify(value)}`);
  }
  return value;
}

let rules: DeliveryRules | undefined;
export function deliveryRules(): DeliveryRules {
  if (rules) return rules;
  const op = asyncapi().operations?.sendWebhookEvent as Json | undefined;
  if (!op) throw new Error("generated/asyncapi.json has no operations.sendWebhookEvent");
  const schedule = op["x-retry-schedule-seconds"];
  if (!Array.isArray(schedule) || schedule.length === 0 || schedule[0] !== 0 || !schedule.every((s) => typeof s === "number" && s >= 0)) {
    throw new Error("generated/asyncapi.json: x-retry-schedule-seconds must be a list of seconds starting with 0");
  }
  if (typeof op["x-api-version"] !== "string") throw new Error("generated/asyncapi.json: x-api-version is missing");
  rules = Object.freeze({
    apiVersion: op["x-api-version"],
    responseTimeoutSeconds: positiveNumber(op["x-response-timeout-seconds"], "x-response-timeout-seconds"),
    maxEndpointsPerOrganisation: positiveNumber(op["x-max-endpoints-per-organisation"], "x-max-endpoints-per-organisation"),
    retryScheduleSeconds: Object.freeze([...schedule]),
  });
  return rules;
}

let headers: DeliveryHeaders | undefined;
export function deliveryHeaders(): DeliveryHeaders {
  if (headers) return headers;
  const schema = asyncapi().components?.schemas?.WebhookHeaders as Json | undefined;
  const contentType = schema?.properties?.["Content-Type"]?.const;
  const userAgent = schema?.properties?.["User-Agent"]?.const;
  if (!Array.isArray(schema?.required) || typeof contentType !== "string" || typeof userAgent !== "string") {
    throw new Error("generated/asyncapi.json: components.schemas.WebhookHeaders lacks its required list or its Content-Type/User-Agent consts");
  }
  headers = Object.freeze({ names: Object.freeze([...schema.required] as string[]), contentType, userAgent });
  return headers;
}

/** The event types the document describes, with their plan group (from the generated catalogue). */
export const EVENT_TYPES: readonly WebhookEventType[] = webhookEventCatalogue.map((e) => e.type);
const SCHEMA_OF = new Map<string, string>(webhookEventCatalogue.map((e) => [e.type, e.schema]));

export function isEventType(value: unknown): value is WebhookEventType {
  return typeof value === "string" && SCHEMA_OF.has(value);
}

/** Checks an event body against its type's closed schema; returns error texts, empty when valid. */
export type EventValidator = (body: unknown) => string[];

// Ajv ships CommonJS; under NodeNext its default export arrives as the module object.
const Ajv2020 = ((Ajv2020Module as any).default ?? Ajv2020Module) as new (options: object) => any;
const addFormats = ((addFormatsModule as any).default ?? addFormatsModule) as (ajv: unknown) => void;

let validators: Map<string, (value: unknown) => boolean> | undefined;
/** Compiled once per process: one validator per event schema of the catalogue. */
export function eventValidator(): EventValidator {
  if (!validators) {
    // strict: false because the document carries keywords that are not JSON Schema (example, x-*).
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
    addFormats(ajv);
    ajv.addSchema(asyncapi(), "asyncapi");
    validators = new Map();
    for (const [type, schema] of SCHEMA_OF) validators.set(type, ajv.compile({ $ref: `asyncapi#/components/schemas/${schema}` }));
  }
  const compiled = validators;
  return (body) => {
    const type = (body as { type?: unknown } | null)?.type;
    const validate = typeof type === "string" ? compiled.get(type) : undefined;
    if (!validate) return [`type ${JSON.stringify(type)} is not an event type of the AsyncAPI document`];
    if (validate(body)) return [];
    return ((validate as any).errors ?? []).map((e: any) => `${e.instancePath || "(body)"} ${e.message}`);
  };
}
