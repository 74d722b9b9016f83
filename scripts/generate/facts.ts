// generated/facts.ts: the values code needs at run time that the OpenAPI document states once —
// every enum of components/schemas (with its x-enum-varnames), and every component parameter's
// name, default and bounds — so no module types them again.
import type { BundledDocument } from "./bundle.js";
import { GENERATED_BANNER } from "./banner.js";
import { deref } from "../../src/contract/spec-document.js";

const BOUNDS = ["default", "minimum", "maximum", "maxItems", "maxLength"] as const;

export function renderFacts(openapi: BundledDocument): string {
  const lines: string[] = [GENERATED_BANNER.trimEnd(), 'import type { components } from "./api.js";', "", ...renderEnums(openapi)];
  const parameters: string[] = [];
  for (const [key, parameter] of Object.entries<Record<string, any>>(openapi.components?.parameters ?? {})) {
    const schema = parameter.schema ?? {};
    const facts = [`name: ${JSON.stringify(parameter.name)}`, `in: ${JSON.stringify(parameter.in)}`];
    for (const bound of BOUNDS) if (schema[bound] !== undefined) facts.push(`${bound}: ${JSON.stringify(schema[bound])}`);
    parameters.push(`  ${key}: { ${facts.join(", ")} },`);
  }
  const named = new Set<string>();
  for (const item of Object.values<Record<string, any>>(openapi.paths ?? {})) for (const op of Object.values<any>(item)) if (typeof op?.["x-permission"] === "string") named.add(op["x-permission"]);
  const key = (name: string) => name.split(/[^A-Za-z0-9]+/).filter(Boolean).map((w, i) => (i === 0 ? w.toLowerCase() : w[0].toUpperCase() + w.slice(1).toLowerCase())).join("");
  lines.push("/** The permissions the operations name in x-permission. */");
  lines.push(`export const permissions = {\n${[...named].map((name) => `  ${key(name)}: ${JSON.stringify(name)},`).join("\n")}\n} as const;`);
  lines.push("");
  lines.push("/** Each component parameter's name as sent, where it goes, and its default and bounds. */");
  lines.push(`export const parameters = {\n${parameters.join("\n")}\n} as const;`);
  lines.push("", ...renderRateLimit(openapi));
  lines.push("", ...renderExampleIds(openapi));
  lines.push("", ...renderExampleRecords(openapi));
  return `${lines.join("\n")}\n`;
}

/**
 * The record ids the operations' parameter examples name, by kind of record: a query parameter's
 * kind is its name without `Id` (a list's in the singular: Companies, company), a path id's the singular of its
 * operation's tag ("Leave requests": leaveRequest). The mock's default dataset gives organisation 1's
 * records these ids, so every example request of the API reference answers as it says. Examples of
 * one kind must agree.
 */
function renderExampleIds(openapi: BundledDocument): string[] {
  const ids = exampleIdsOf(openapi);
  return [
    "/** The record ids the operations' parameter examples name, by kind: organisation 1's records in the mock's default dataset. */",
    `export const exampleIds = {\n${[...ids].sort().map(([kind, id]) => `  ${kind}: ${JSON.stringify(id)},`).join("\n")}\n} as const;`,
  ];
}

/** The document's one $ref follower (src/contract/spec-document.ts), bound to it. */
function derefIn(openapi: BundledDocument): (node: any) => any {
  return (node) => deref(openapi, node);
}

function exampleIdsOf(openapi: BundledDocument): Map<string, string> {
  const ids = new Map<string, string>();
  const deref = derefIn(openapi);
  const isUuid = (schema: any): boolean => deref(schema)?.format === "uuid";
  const camel = (words: string[]) => words.map((w, i) => (i === 0 ? w.toLowerCase() : w[0].toUpperCase() + w.slice(1).toLowerCase())).join("");
  for (const item of Object.values<Record<string, any>>(openapi.paths ?? {})) {
    for (const op of Object.values<any>(item)) {
      for (const raw of op?.parameters ?? []) {
        const parameter = deref(raw);
        const schema = deref(parameter.schema);
        const list = schema?.type === "array";
        if (!(list ? isUuid(schema.items) : isUuid(schema)) || parameter.example === undefined) continue;
        const kind = parameter.in === "path" ? camel(String(op.tags?.[0] ?? "record").replace(/s$/, "").split(/\s+/)) : String(parameter.name).replace(/Id$/, "").replace(/ies$/, "y").replace(/s$/, "").replace(/^./, (c: string) => c.toLowerCase());
        for (const value of list ? parameter.example : [parameter.example]) {
          const known = ids.get(kind);
          if (known !== undefined && known !== value) throw new Error(`the examples of ${kind} ids disagree: ${known} and ${value} (${parameter.name}); give one record one id`);
          ids.set(kind, value);
        }
      }
    }
  }
  return ids;
}

/**
 * What the operations' success examples show of each example record: every object of a 2xx
 * response example whose id is an example id (the answer's data, or an item of a list's page; the
 * references inside them, as a department's leads, are other views), its fields merged by kind (a
 * list's item and a detail of one record together), so the mock's default dataset can give that
 * record the example's values. Examples of one record must agree on a field they both show.
 */
function renderExampleRecords(openapi: BundledDocument): string[] {
  const kindOf = new Map([...exampleIdsOf(openapi)].map(([kind, id]) => [id, kind]));
  const deref = derefIn(openapi);
  const records = new Map<string, Record<string, unknown>>();
  const visit = (node: unknown, where: string): void => {
    if (!node || typeof node !== "object" || Array.isArray(node)) return;
    const object = node as Record<string, unknown>;
    const kind = typeof object.id === "string" ? kindOf.get(object.id) : undefined;
    if (kind !== undefined) {
      const record = records.get(kind) ?? {};
      for (const [field, value] of Object.entries(object)) {
        if (field in record && JSON.stringify(record[field]) !== JSON.stringify(value)) throw new Error(`the examples of ${kind} ${object.id} disagree on ${field}: ${JSON.stringify(record[field])} and ${JSON.stringify(value)} (${where})`);
        record[field] = value;
      }
      records.set(kind, record);
    }
  };
  for (const [template, item] of Object.entries<Record<string, any>>(openapi.paths ?? {})) {
    for (const [method, op] of Object.entries<any>(item)) {
      for (const [status, response] of Object.entries<any>(op?.responses ?? {})) {
        if (!/^2/.test(status)) continue;
        const content = deref(response)?.content?.["application/json"];
        const examples = [content?.example, ...Object.values<any>(content?.examples ?? {}).map((e) => deref(e)?.value)];
        for (const data of examples.map((e) => e?.data)) {
          visit(data, `${method.toUpperCase()} ${template} ${status} data`);
          if (Array.isArray(data?.data)) data.data.forEach((item: unknown, i: number) => visit(item, `${method.toUpperCase()} ${template} ${status} data.data[${i}]`));
        }
      }
    }
  }
  return [
    "/** What the operations' success examples show of each example record (by kind, as exampleIds), in the API's field names: organisation 1's records in the mock's default dataset carry these values where the data's rules allow. */",
    `export const exampleRecords = ${JSON.stringify(Object.fromEntries([...records].sort(([a], [b]) => (a < b ? -1 : 1))), null, 2)} as const;`,
  ];
}

/**
 * The rate limit, from the one component response that carries `x-rate-limit` (requests per key in
 * any rolling window of windowSeconds): with the status the operations answer it with, the envelope
 * code its examples show, and its headers by name, so that the client, the mock and the contract
 * suite decide "rate limited" from the document and not from literals.
 */
function renderRateLimit(openapi: BundledDocument): string[] {
  const carrying = Object.entries<Record<string, any>>(openapi.components?.responses ?? {}).filter(([, response]) => response["x-rate-limit"] !== undefined);
  if (carrying.length !== 1) throw new Error(`exactly one component response states the rate limit (x-rate-limit); found ${carrying.length}: ${carrying.map(([name]) => name).join(", ") || "none"}`);
  const [name, response] = carrying[0];
  const { requests, windowSeconds, ...other } = response["x-rate-limit"] ?? {};
  for (const [key, value] of Object.entries({ requests, windowSeconds })) {
    if (!Number.isInteger(value) || value < 1) throw new Error(`x-rate-limit of the ${name} response: ${key} must be a whole number of at least 1, got ${JSON.stringify(value)}`);
  }
  if (Object.keys(other).length > 0) throw new Error(`x-rate-limit of the ${name} response takes requests and windowSeconds only, not ${Object.keys(other).join(", ")}`);
  const statuses = new Set<string>();
  for (const item of Object.values<Record<string, any>>(openapi.paths ?? {})) {
    for (const operation of Object.values<any>(item)) {
      for (const [status, answer] of Object.entries<any>(operation?.responses ?? {})) if (answer?.$ref === `#/components/responses/${name}`) statuses.add(status);
    }
  }
  if (statuses.size !== 1 || !/^\d{3}$/.test([...statuses][0])) throw new Error(`the operations must answer the ${name} response under one HTTP status; found ${[...statuses].join(", ") || "none"}`);
  const codes = new Set(Object.values<any>(response.content?.["application/json"]?.examples ?? {}).map((example) => example?.value?.code));
  const code = [...codes][0];
  if (codes.size !== 1 || typeof code !== "string") throw new Error(`the ${name} response's examples must show one envelope code; found ${[...codes].map((c) => JSON.stringify(c)).join(", ") || "none"}`);
  const headers = Object.keys(response.headers ?? {}).map((header) => `${camel(header)}: ${JSON.stringify(header)}`);
  return [
    `/** The rate limit (x-rate-limit of the ${name} response): requests per key in any rolling windowSeconds, the HTTP status and envelope code it is answered with, and that answer's headers by name. */`,
    `export const rateLimit = { requests: ${requests}, windowSeconds: ${windowSeconds}, status: ${Number([...statuses][0])}, code: ${JSON.stringify(code)}, headers: { ${headers.join(", ")} } } as const;`,
  ];
}

/** A header or extension name as a property name: Retry-After is retryAfter, x-signature-tolerance-seconds signatureToleranceSeconds. */
const camel = (text: string) => text.replace(/^x-/, "").replace(/-([a-z])/gi, (_m, c: string) => c.toUpperCase()).replace(/^[A-Z]/, (c) => c.toLowerCase());

/**
 * Every enum of components/schemas, and of their properties one level down (`Delivery.state` is
 * DeliveryStateValues), as const lists typed against the document's generated types.
 */
function renderEnums(document: BundledDocument): string[] {
  const lines: string[] = [];
  for (const [name, schema] of Object.entries<Record<string, any>>(document.components?.schemas ?? {})) {
    const found: Array<[string, string, Record<string, any>]> = [[name, `components["schemas"]["${name}"]`, schema]];
    for (const [property, sub] of Object.entries<Record<string, any>>(schema.properties ?? {})) {
      found.push([`${name}${property[0].toUpperCase()}${property.slice(1)}`, `NonNullable<components["schemas"]["${name}"]["${property}"]>`, sub]);
    }
    for (const [constName, type, enumSchema] of found) {
      if (!Array.isArray(enumSchema.enum)) continue;
      lines.push(`/** The values of the ${constName} enum, in the spec's order. */`);
      lines.push(`export const ${constName}Values = ${JSON.stringify(enumSchema.enum)} as const satisfies readonly ${type}[];`);
      if (Array.isArray(enumSchema["x-enum-varnames"])) {
        lines.push(`/** ${constName} values by their x-enum-varnames. */`);
        const entries = enumSchema["x-enum-varnames"].map((varname: string, i: number) => `${JSON.stringify(varname)}: ${JSON.stringify(enumSchema.enum[i])}`);
        lines.push(`export const ${constName}ByName = { ${entries.join(", ")} } as const;`);
      }
      lines.push("");
    }
  }
  return lines;
}

/** generated/control-facts.ts: the enums of the mock's control API document (delivery states, attempt outcomes), its bounds, and its path prefix. */
export function renderControlFacts(control: BundledDocument): string {
  const limits = control["x-mock-limits"];
  if (typeof limits !== "object" || limits === null) throw new Error("mock/control/openapi/openapi.yaml states no x-mock-limits (the webhook queue and delivery log bounds)");
  const limitLines = Object.entries<number>(limits).map(([key, value]) => `  ${key}: ${JSON.stringify(value)},`);
  return [
    GENERATED_BANNER.trimEnd(),
    'import type { components } from "./control-api.js";',
    "",
    ...renderEnums(control),
    "/** The webhook queue and delivery log bounds the control API's document states (x-mock-limits). */",
    `export const mockLimits = {\n${limitLines.join("\n")}\n} as const;`,
    "",
    "/** What a trigger's `id` names, per event type: the trigger operation's table (the CLI's help). */",
    `export const triggerSubjects = ${JSON.stringify(triggerSubjects(control))} as const satisfies Record<components["schemas"]["EventType"], string>;`,
    "",
    "/** The fields `set` takes per event type, from TriggerRequest's if/then parts (the CLI's help and flags). */",
    `export const triggerOverrideFields = ${JSON.stringify(triggerOverrideFields(control))} as const satisfies Record<components["schemas"]["EventType"], readonly string[]>;`,
    "",
    ...renderControlPaths(control),
  ].join("\n");
}

/** The prefix every control path starts with (the longest the paths share, up to a "/"); each operation's method and path are in routes.ts. */
function renderControlPaths(control: BundledDocument): string[] {
  const paths = Object.keys(control.paths ?? {});
  if (paths.length === 0) throw new Error("the control API's document has no paths");
  let prefix = paths.reduce((shared, p) => {
    let i = 0;
    while (i < shared.length && i < p.length && shared[i] === p[i]) i++;
    return shared.slice(0, i);
  });
  prefix = prefix.slice(0, prefix.lastIndexOf("/") + 1);
  if (prefix.length < 2) throw new Error(`the control API's paths share no prefix below "/" (${paths.join(", ")}), so they could collide with the read API's`);
  return [
    "/** The prefix every control API path starts with (the longest its paths share, up to a slash). */",
    `export const controlPrefix = ${JSON.stringify(prefix)};`,
    "",
  ];
}

/**
 * Per event type, what `id` names: the "`id` names" column of the table in the trigger operation's
 * description (POST /_mock/webhooks/events), where a reader of the control API's reference sees it.
 */
function triggerSubjects(control: BundledDocument): Record<string, string> {
  const types: string[] = control.components?.schemas?.EventType?.enum ?? [];
  const description: string = control.paths?.["/_mock/webhooks/events"]?.post?.description ?? "";
  const subjects: Record<string, string> = {};
  for (const line of description.split("\n")) {
    const cells = line.split("|").map((cell) => cell.trim());
    const type = /^`([a-z._]+)`$/.exec(cells[1] ?? "")?.[1];
    if (type && cells.length >= 4) subjects[type] = cells[2].replace(/`/g, "");
  }
  const missing = types.filter((t) => !subjects[t]);
  if (missing.length > 0) throw new Error(`the trigger operation's table says nothing of what id names for ${missing.join(", ")}`);
  return Object.fromEntries(types.map((t) => [t, subjects[t]]));
}

/** Per event type, the property names of the `set` schema its if/then part of TriggerRequest names; every type exactly once. */
function triggerOverrideFields(control: BundledDocument): Record<string, string[]> {
  const schemas = control.components?.schemas ?? {};
  const types: string[] = schemas.EventType?.enum ?? [];
  const resolve = (schema: any) => (typeof schema?.$ref === "string" ? schemas[schema.$ref.split("/").pop()] : schema);
  const fields: Record<string, string[]> = {};
  for (const part of schemas.TriggerRequest?.allOf ?? []) {
    const named = part.if?.properties?.type;
    const set = resolve(part.then?.properties?.set);
    if (!named || !set) throw new Error("TriggerRequest's allOf has a part that is not `if type ... then set ...`");
    for (const type of named.enum ?? [named.const]) {
      if (fields[type]) throw new Error(`TriggerRequest's allOf names event type ${type} twice`);
      fields[type] = Object.keys(set.properties ?? {});
    }
  }
  const missing = types.filter((t) => !fields[t]);
  if (missing.length > 0) throw new Error(`TriggerRequest's allOf says nothing of the overrides of ${missing.join(", ")}`);
  return Object.fromEntries(types.map((t) => [t, fields[t]]));
}

/**
 * The status a receiver answers when a delivery fails its signature check: the one non-2xx answer
 * every webhook of the OpenAPI document's webhooks section documents (service-api.md 5 and 7.5).
 */
function signatureFailureStatus(openapi: BundledDocument): number {
  const statuses = new Set<string>();
  for (const [name, item] of Object.entries<Record<string, any>>(openapi.webhooks ?? {})) {
    const failures = Object.keys(item.post?.responses ?? {}).filter((status) => !status.startsWith("2"));
    if (failures.length !== 1) throw new Error(`webhook ${name} documents ${failures.length} non-2xx answers of the receiver; the signature failure should be its only one`);
    statuses.add(failures[0]);
  }
  if (statuses.size !== 1) throw new Error(`the webhooks disagree on the receiver's answer to a failed signature check: ${[...statuses].join(", ") || "none documented"}`);
  const [status] = statuses;
  if (!/^[1-5]\d\d$/.test(status)) throw new Error(`the receiver's answer to a failed signature check is ${status}, not one status code`);
  return Number(status);
}

/**
 * generated/webhook-facts.ts: the delivery's header names and the delivery rules the AsyncAPI document
 * states once, and the receiver's answer to a failed signature check (the OpenAPI webhooks').
 */
export function renderWebhookFacts(asyncapi: BundledDocument, openapi: BundledDocument): string {
  const traits = Object.values<Record<string, any>>(asyncapi.components?.messageTraits ?? {});
  // A trait's headers are the WebhookHeaders component, by reference.
  const resolve = (schema: any) => (typeof schema?.$ref === "string" ? asyncapi.components?.schemas?.[schema.$ref.split("/").pop()] : schema);
  const names = traits.flatMap((trait) => Object.keys(resolve(trait.headers)?.properties ?? {}));
  if (names.length === 0) throw new Error("the AsyncAPI document's message traits name no headers");
  const operations = Object.values<Record<string, any>>(asyncapi.operations ?? {});
  const rules = operations.find((op) => op["x-signature-tolerance-seconds"] !== undefined);
  if (!rules) throw new Error("no AsyncAPI operation carries the delivery rules (x-signature-tolerance-seconds and the others)");
  const headerLines = [...new Set(names)].map((name) => `  ${camel(name)}: ${JSON.stringify(name)},`);
  // Headers whose value the document fixes (`const`): the same on every delivery.
  const fixed = new Map<string, string>();
  for (const trait of traits) for (const [name, schema] of Object.entries<any>(resolve(trait.headers)?.properties ?? {})) if (typeof schema.const === "string") fixed.set(name, schema.const);
  if (fixed.size === 0) throw new Error("the AsyncAPI document's delivery headers fix no value (const): Content-Type at least must be fixed");
  const fixedLines = [...fixed].map(([name, value]) => `  ${JSON.stringify(name)}: ${JSON.stringify(value)},`);
  const ruleLines = Object.entries(rules)
    .filter(([key]) => key.startsWith("x-") && key !== "x-assumption" && key !== "x-permission")
    .map(([key, value]) => `  ${camel(key)}: ${JSON.stringify(value)},`);
  return [
    GENERATED_BANNER.trimEnd(),
    "",
    "/** The headers of every delivery, by name (the message trait's headers). */",
    `export const webhookHeaders = {\n${headerLines.join("\n")}\n} as const;`,
    "",
    "/** The headers whose value the document fixes (their `const`), by name as sent. */",
    `export const webhookHeaderValues = {\n${fixedLines.join("\n")}\n} as const;`,
    "",
    "/** The permission adding webhook endpoints needs (the send operation's x-permission). */",
    `export const webhookPermission = ${JSON.stringify(rules["x-permission"])};`,
    "",
    "/** The delivery rules of the send operation's x- extensions. */",
    `export const deliveryRules = {\n${ruleLines.join("\n")}\n} as const;`,
    "",
    "/** What a receiver answers when a delivery fails its signature check (the OpenAPI webhooks' one non-2xx answer). */",
    `export const signatureFailureStatus = ${signatureFailureStatus(openapi)};`,
    "",
  ].join("\n");
}
