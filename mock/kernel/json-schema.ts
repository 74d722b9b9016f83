// The mock's one Ajv set-up, over the bundled documents: event bodies against their AsyncAPI
// message's payload schema, the inputs of in-process callers (startMock's API, which no HTTP edge
// checks) against the control API document's request schemas, and data files against their schema.
import { readFileSync } from "node:fs";
import Ajv2020Module from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { WebhookEventType } from "../../generated/events.js";
import type { Reason } from "./results.js";
import { fieldName } from "./schema-text.js";

const ASYNCAPI_PATH = new URL("../../generated/asyncapi.json", import.meta.url);
const CONTROL_PATH = new URL("../../generated/control-openapi.json", import.meta.url);

export { EVENT_TYPES, isEventType } from "./event-types.js";

type Json = Record<string, any>;
type Compiled = ((value: unknown) => boolean) & { errors?: Array<{ instancePath: string; message?: string; keyword: string; params: Json; parentSchema?: Json }> | null };

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
  // verbose: an error carries its schema, so a message can list the fields of the object at fault.
  ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false, verbose: true });
  addFormats(ajv);
  ajv.addSchema(asyncapi, "asyncapi");
  ajv.addSchema(control, "control");
}

const validators = new Map<string, Compiled>();
/** The validator of a schema of the documents (`control#/components/schemas/Delivery`), compiled once per process. */
function validatorOf(ref: string): Compiled {
  let validate = validators.get(ref);
  if (!validate) {
    documents();
    validators.set(ref, (validate = ajv.compile({ $ref: ref }) as Compiled));
  }
  return validate;
}

/** Error texts of an event body against its type's message payload schema (the message named for the type); empty when it is valid. */
export function eventProblems(body: unknown): string[] {
  const type = (body as { type?: unknown } | null)?.type;
  documents();
  const key = Object.entries<Json>(asyncapi.components?.messages ?? {}).find(([, message]) => typeof type === "string" && message.name === type)?.[0];
  const validate = key === undefined ? undefined : validatorOf(`asyncapi#/components/messages/${key}/payload`);
  if (!validate) return [`type ${JSON.stringify(type)} is not the name of an AsyncAPI message`];
  if (validate(body)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || "(body)"} ${e.message}`);
}

/** The field names of an event type's `data` (its AsyncAPI message: payload, then the data schema). */
export function eventDataFields(type: WebhookEventType): string[] {
  documents();
  const schemas = asyncapi.components?.schemas ?? {};
  const resolve = (schema: Json | undefined): Json | undefined => (typeof schema?.$ref === "string" ? schemas[schema.$ref.split("/").pop()!] : schema);
  const message = Object.values<Json>(asyncapi.components?.messages ?? {}).find((m) => m.name === type);
  const payload = resolve(message?.payload);
  const parts: Json[] = payload?.allOf ? payload.allOf.map(resolve) : [payload];
  // The envelope part says `data` is an object; the type's own part names its schema.
  const fields = parts.map((part) => Object.keys(resolve(part?.properties?.data)?.properties ?? {}));
  return fields.find((names) => names.length > 0) ?? [];
}

const UUID_SCHEMA = { type: "string", format: "uuid" };

/** Whether a value is a uuid as the documents' `format: uuid` says (an id typed on the command line). */
export function isUuid(value: unknown): boolean {
  documents();
  return ajv.validate(UUID_SCHEMA, value) as boolean;
}

export type RequestSchema = "AddEndpointRequest" | "TriggerRequest" | "ResendRequest" | "BulkResendRequest";

/**
 * Checks an in-process caller's input against the control API's request schema, so that it meets
 * exactly the rules an HTTP caller meets; the first problem as a reason naming the field. A value
 * of a writeOnly property (a secret) is never echoed.
 */
export function requestProblem(schema: RequestSchema, value: unknown): Reason | undefined {
  const validate = validatorOf(`control#/components/schemas/${schema}`);
  if (validate(value)) return undefined;
  const errors = validate.errors ?? [];
  // oneOf reports each branch; the error of the branch nearest the value says the most.
  // (if/then parts repeat their `then` errors as "must match then schema": the field's own error says more.)
  const error = errors.find((e) => e.keyword !== "oneOf" && e.keyword !== "const" && e.keyword !== "type" && e.keyword !== "if") ?? errors[0];
  const at = fieldName(error.instancePath.split("/").slice(1));
  const named = error.keyword === "required" ? String(error.params.missingProperty) : error.keyword === "additionalProperties" ? String(error.params.additionalProperty) : "";
  const field = named === "" ? at : at === "" ? named : `${at}.${named}`;
  const properties = (control.components.schemas[schema] as Json).properties as Json;
  const secret = properties[field.split(/[[.]/)[0]]?.writeOnly === true;
  const noFields = error.keyword === "maxProperties" && error.params.limit === 0;
  const got = field === "" || secret || noFields || error.keyword === "required" || error.keyword === "additionalProperties" ? "" : `, got ${shown(valueAt(value, error.instancePath))}`;
  const fieldsHere = Object.keys((error.parentSchema?.properties as Json | undefined) ?? properties);
  const what =
    error.keyword === "additionalProperties"
      ? `is not a field ${at === "" ? `of ${schema}` : "here"}; the fields are ${fieldsHere.join(", ")}`
      : error.keyword === "required"
        ? "is required"
        : noFields
          ? `must be empty (${String(error.parentSchema?.description ?? "no fields").replace(/\.$/, "").replace(/^[A-Z]/, (c) => c.toLowerCase())})`
          : error.message;
  return { kind: "invalid", ...(field === "" ? {} : { field }), message: `${field || "the input"} ${what}${got}` };
}

function valueAt(value: unknown, pointer: string): unknown {
  return pointer.split("/").slice(1).reduce<any>((node, key) => node?.[key], value);
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** Why a delivery log entry read back from a state directory is not a Delivery of the control API's document. */
export function deliveryProblem(value: unknown): string | undefined {
  const delivery = validatorOf("control#/components/schemas/Delivery");
  if (delivery(value)) return undefined;
  const error = (delivery.errors ?? [])[0];
  return `${error?.instancePath || "(entry)"} ${error?.message ?? "is not a delivery"}`;
}
