// Every endpoint, parameter, field, enum value, limit, event type, header, delivery rule and "not
// shown" of the provider's document (written once into test/fixtures/provider-document.json) is in
// the bundled specs, and the specs add nothing to the provider's tables without an x-assumption.
import { describe, expect, it } from "vitest";
import { sentences, textUnits } from "../../scripts/docs/assumptions.js";
import { deref, effective, flatten, loadAsyncApi, loadJson, loadOpenApi, resolvePointer } from "../../scripts/lib/spec-document.js";
import { createDocumentValidator } from "../../scripts/lib/spec-validator.js";

const provider = loadJson("test/fixtures/provider-document.json");
const endpoints: any[] = provider.endpoints;
const failureStatuses: string[] = provider.failures.statuses;
const catalogue: Record<string, string> = provider.events.catalogue;
const eventTypes = Object.keys(catalogue);
const limitRows: { limit: string; value: string; key: string; number: number }[] = provider.limits.rows;
const limit = (key: string): number => {
  const row = limitRows.find((r) => r.key === key);
  if (!row) throw new Error(`the fixture's limits have no row ${key}`);
  return row.number;
};
interface NotShown { section: string; what: string; document: "openapi" | "asyncapi"; pointer: string; shownAs: "assumption" | "unknown"; says: string[] }
const notShown: NotShown[] = provider.notShown;
const deliveryRules: { section: string; rule: string; phrases: string[] }[] = provider.events.rules;
const openapi = loadOpenApi();
const asyncapi = (() => { try { return loadAsyncApi(); } catch { return undefined; } })();
const documents: Record<string, any> = { openapi, asyncapi };

type FieldType = string;

/** Checks that a schema node has the type the provider's table names. */
function typeProblem(node: any, want: FieldType): string | undefined {
  const s = effective(openapi, node);
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  const has = (t: string) => types.includes(t) || (t === "boolean" && typeof s.const === "boolean") || (t === "string" && typeof s.const === "string");
  switch (want) {
    case "any":
      return undefined;
    case "uuid":
      return has("string") && s.format === "uuid" ? undefined : `want string/uuid, got ${JSON.stringify({ type: s.type, format: s.format })}`;
    case "datetime":
      return has("string") && s.format === "date-time" ? undefined : `want string/date-time, got ${JSON.stringify({ type: s.type, format: s.format })}`;
    case "date":
      return has("string") && s.format === "date" ? undefined : `want string/date, got ${JSON.stringify({ type: s.type, format: s.format })}`;
    case "datetext":
      return has("string") && typeof s.pattern === "string" && new RegExp(s.pattern).test("2026-12-21T00:00:00") && !new RegExp(s.pattern).test("2026-12-21")
        ? undefined
        : `want the YYYY-MM-DDT00:00:00 text with a pattern, got ${JSON.stringify({ type: s.type, pattern: s.pattern })}`;
    case "string[]":
    case "object[]":
    case "uuid[]": {
      if (!has("array")) return `want an array, got ${JSON.stringify(s.type)}`;
      const item = effective(openapi, s.items ?? {});
      if (want === "string[]" && item.type !== "string") return `want items of type string, got ${JSON.stringify(item.type)}`;
      if (want === "uuid[]" && (item.type !== "string" || item.format !== "uuid")) return "want items string/uuid";
      if (want === "object[]" && item.type !== "object" && !item.allOf) return `want items of type object, got ${JSON.stringify(item.type)}`;
      return undefined;
    }
    case "array":
      // The page wrapper's data: its concrete type is given by each list's page schema.
      return undefined;
    default:
      return has(want) ? undefined : `want ${want}, got ${JSON.stringify(s.type ?? s.const)}`;
  }
}

const operationOf = (e: any) => openapi.paths[e.path][e.method];

/** The component every operation's failure response of a status refers to (the first endpoint's). */
const sharedFailure = (status: string): string | undefined => {
  const ref = operationOf(endpoints[0]).responses[status]?.$ref;
  return typeof ref === "string" && ref.startsWith("#/components/responses/") ? ref : undefined;
};

function successSchema(e: any): any {
  const content = deref(openapi, operationOf(e).responses["200"]).content["application/json"];
  return content.schema;
}

function responseDataSchema(e: any): any {
  return flatten(openapi, successSchema(e)).properties.data;
}

/** The schema of the resource an endpoint returns: the page's item for lists, data otherwise. */
function resourceSchema(e: any): any {
  const data = responseDataSchema(e);
  return e.item ? effective(openapi, flatten(openapi, data).properties.data).items : data;
}

function resourceFields(name: string): Record<string, FieldType> {
  const r = provider.resources[name];
  return { ...(r.extends ? resourceFields(r.extends) : {}), ...r.fields };
}

const endpointOf = (resource: string) =>
  endpoints.find((x: any) => (x.item ?? x.data) === resource || provider.resources[x.item ?? x.data]?.extends === resource);

/** The properties of a nested field (documents, carryForward, ...) of a resource. */
function nestedProperties(resource: string, field: string): Record<string, any> {
  const outer = effective(openapi, flatten(openapi, resourceSchema(endpointOf(resource))).properties[field]);
  return flatten(openapi, outer.type === "array" ? outer.items : outer).properties;
}

describe("provider endpoints are in the OpenAPI document", () => {
  it.each(endpoints.map((e: any) => [`${e.method.toUpperCase()} ${e.path}`, e] as [string, any]))("%s", (_name, e: any) => {
    const op = openapi.paths[e.path]?.[e.method];
    expect(op, `${e.method.toUpperCase()} ${e.path} (section ${e.section}) is missing`).toBeDefined();
    expect(op.operationId, `${e.path}: operationId must start with list or get`).toMatch(/^(list|get)[A-Z]/);
    if (e.permission) expect(op["x-permission"], `${e.path}: x-permission`).toBe(e.permission);
    expect(op.security ?? openapi.security, `${e.path}: bearer security`).toEqual([{ bearerAuth: [] }]);
    for (const status of provider.failures.statuses) {
      expect(sharedFailure(status), `${endpoints[0].path}: the ${status} response must refer to components/responses`).toBeDefined();
      expect(op.responses[status]?.$ref, `${e.path}: the ${status} response must be the shared component`).toBe(sharedFailure(status));
    }
  });

  it.each(endpoints.map((e: any) => [`${e.method.toUpperCase()} ${e.path}`, e] as [string, any]))(
    "%s answers success with isSuccessful true, code \"00\" and message \"Success\" (section 2.1)",
    (_name, e: any) => {
      const { properties } = flatten(openapi, successSchema(e));
      const { success } = provider.resources.envelope;
      expect(effective(openapi, properties.isSuccessful).const, `${e.path}: isSuccessful on success`).toBe(true);
      expect(effective(openapi, properties.code).const, `${e.path}: code on success`).toBe(success.code);
      const message = effective(openapi, properties.message);
      expect(message.example, `${e.path}: message example on success`).toBe(success.message);
      expect(message.description, `${e.path}: the message description says what success reads`).toContain(`"${success.message}" on success`);
    },
  );
});

describe("provider parameters are in the OpenAPI document with name, type and default", () => {
  const cases: [string, any][] = endpoints.flatMap((e: any) =>
    e.parameters.map((p: any) => [`${e.path} ${p.name}`, { endpoint: e, param: p }] as [string, any]),
  );
  it.each(cases)("%s", (_name, { endpoint, param }: any) => {
    const params = (operationOf(endpoint).parameters ?? []).map((p: any) => deref(openapi, p));
    const found = params.find((p: any) => p.name === param.name && p.in === param.in);
    expect(found, `parameter ${param.name} (${param.in}) of ${endpoint.path} is missing or misspelt`).toBeDefined();
    expect(found.example, `parameter ${param.name} of ${endpoint.path} has no example`).toBeDefined();
    if (param.required) expect(found.required, `${param.name} must be required`).toBe(true);
    else expect(found.required ?? false, `${param.name} must be optional`).toBe(false);
    const schema = effective(openapi, found.schema);
    if (param.default !== undefined) expect(schema.default, `${param.name} default`).toBe(param.default);
    if (param.enum) expect([...(schema.enum ?? [])].sort(), `${param.name} enum`).toEqual([...param.enum].sort());
    if (param.style) expect([found.style, found.explode], `${param.name} style/explode`).toEqual([param.style, param.explode]);
    if (param.type === "name-or-integer") {
      const alternatives = (schema.anyOf ?? schema.oneOf ?? []).map((a: any) => effective(openapi, a));
      const names = alternatives.find((a: any) => a.type === "string" && Array.isArray(a.enum));
      const numbers = alternatives.find((a: any) => a.type === "integer");
      expect(numbers?.enum, `${param.name} accepts the status numbers of section 3.1`).toEqual(provider.enums.leaveStatus.ids);
      expect(names?.enum, `${param.name} accepts the status names of section 3.1`).toEqual(provider.enums.leaveStatus.names);
    } else {
      const problem = typeProblem(found.schema, param.type);
      expect(problem, `${endpoint.path} ${param.name}: ${problem}`).toBeUndefined();
    }
  });
});

describe("provider fields are in the response schemas with type, format and an example", () => {
  const cases: [string, any][] = [];
  for (const e of endpoints) {
    const resource = e.item ?? e.data;
    for (const [field, type] of Object.entries(resourceFields(resource))) {
      cases.push([`${e.path} ${resource}.${field}`, { e, resource, field, type }]);
    }
  }
  it.each(cases)("%s", (_name, { e, resource, field, type }: any) => {
    const { properties, required } = flatten(openapi, resourceSchema(e));
    expect(properties[field], `${resource}.${field} (section ${provider.resources[resource].section}) is missing`).toBeDefined();
    const problem = typeProblem(properties[field], type);
    expect(problem, `${resource}.${field}: ${problem}`).toBeUndefined();
    const prop = effective(openapi, properties[field]);
    if (!("const" in prop) && type !== "any") expect(prop.example, `${resource}.${field} has no example`).toBeDefined();
    if (resource !== "envelope") expect(required.has(field), `${resource}.${field} is not required`).toBe(true);
  });

  it.each(["envelope", "page"])("the %s fields are in every endpoint's response", (resource) => {
    for (const e of endpoints) {
      const schema = resource === "envelope" ? successSchema(e) : e.item ? responseDataSchema(e) : undefined;
      if (!schema) continue;
      const { properties } = flatten(openapi, schema);
      for (const [field, type] of Object.entries<string>(provider.resources[resource].fields)) {
        expect(properties[field], `${e.path}: ${resource}.${field} (section ${provider.resources[resource].section}) is missing`).toBeDefined();
        const problem = typeProblem(properties[field], type);
        expect(problem, `${e.path}: ${resource}.${field}: ${problem}`).toBeUndefined();
      }
    }
  });

  it.each(Object.entries(provider.resources).filter(([, r]: any) => r.nested).flatMap(([name, r]: any) =>
    Object.entries(r.nested).map(([field, fields]) => [`${name}.${field}`, { name, field, fields }]),
  ))("nested %s", (_n, { name, field, fields }: any) => {
    const inner = nestedProperties(name, field);
    for (const [f, t] of Object.entries<string>(fields)) {
      expect(inner[f], `${name}.${field}.${f} is missing`).toBeDefined();
      const problem = typeProblem(inner[f], t);
      expect(problem, `${name}.${field}.${f}: ${problem}`).toBeUndefined();
    }
  });

  it("department details carry leaders in place of the list's leads", () => {
    const details = flatten(openapi, resourceSchema(endpointOf("departmentDetails"))).properties;
    for (const absent of provider.resources.departmentDetails.absent) {
      expect(details[absent], `department details must not have ${absent}`).toBeUndefined();
    }
  });
});

describe("the OpenAPI document adds nothing to the provider's tables without an x-assumption", () => {
  it("every operation is one of the provider's endpoints", () => {
    const documented = new Set(endpoints.map((e: any) => `${e.method} ${e.path}`));
    const extra = Object.entries<any>(openapi.paths).flatMap(([p, item]) =>
      Object.keys(item).filter((m) => ["get", "put", "post", "patch", "delete"].includes(m)).map((m) => `${m} ${p}`),
    ).filter((op) => !documented.has(op));
    expect(extra, "operations the provider does not document").toEqual([]);
  });

  it.each(endpoints.map((e: any) => [`${e.method.toUpperCase()} ${e.path}`, e] as [string, any]))("%s has no parameter beyond the provider's unless marked", (_n, e: any) => {
    const documented = new Set(e.parameters.map((p: any) => `${p.in} ${p.name}`));
    const extra = (operationOf(e).parameters ?? [])
      .map((p: any) => deref(openapi, p))
      .filter((p: any) => !documented.has(`${p.in} ${p.name}`) && typeof p["x-assumption"] !== "string")
      .map((p: any) => `${p.in} ${p.name}`);
    expect(extra, `${e.path}: parameters the provider does not show and no x-assumption explains`).toEqual([]);
  });

  it.each(endpoints.map((e: any) => [`${e.item ?? e.data} of ${e.path}`, e] as [string, any]))("%s has no field beyond the provider's", (_n, e: any) => {
    const resource = e.item ?? e.data;
    const documented = new Set(Object.keys(resourceFields(resource)));
    const extra = Object.keys(flatten(openapi, resourceSchema(e)).properties).filter((f) => !documented.has(f));
    expect(extra, `${resource} (section ${provider.resources[resource].section}): fields the provider does not show`).toEqual([]);
    for (const [field, fields] of Object.entries<Record<string, string>>(provider.resources[resource].nested ?? {})) {
      const nestedExtra = Object.keys(nestedProperties(resource, field)).filter((f) => !(f in fields));
      expect(nestedExtra, `${resource}.${field}: fields the provider does not show`).toEqual([]);
    }
  });
});

describe("every enum value of the provider's tables is in the OpenAPI document", () => {
  const schemas = openapi.components.schemas;
  const cases: [string, { schema: string; values: unknown[] }][] = [
    ["leave status numbers", { schema: "LeaveStatusId", values: provider.enums.leaveStatus.ids }],
    ["leave status names", { schema: "LeaveStatusName", values: provider.enums.leaveStatus.names }],
    ["work modes", { schema: "WorkMode", values: provider.enums.workMode.names }],
    ["eligibility criteria", { schema: "EligibilityCriteria", values: provider.enums.eligibilityCriteria.ids }],
    ["department status", { schema: "DepartmentStatus", values: provider.enums.departmentStatus.names }],
    ["carry-forward expiry month", { schema: "Month", values: provider.enums.carryForwardMonth.ids }],
  ];
  it.each(cases)("%s", (_name, { schema, values }) => {
    expect(schemas[schema], `components.schemas.${schema} is missing`).toBeDefined();
    expect(schemas[schema].enum, `${schema} enum`).toEqual(values);
  });

  const named: [string, { schema: string; names: string[]; meanings?: string[] }][] = [
    ["leave status numbers are paired with the names and meanings in order", { schema: "LeaveStatusId", names: provider.enums.leaveStatus.names, meanings: provider.enums.leaveStatus.meanings }],
    ["eligibility criteria numbers are named in order", { schema: "EligibilityCriteria", names: provider.enums.eligibilityCriteria.names }],
    ["month numbers are named in order, 0 January", { schema: "Month", names: provider.enums.carryForwardMonth.names }],
  ];
  it.each(named)("%s", (_name, { schema, names, meanings }) => {
    const squash = (s: string) => s.replace(/\s+/g, "").toLowerCase();
    expect(schemas[schema]["x-enum-varnames"].map(squash), `${schema} x-enum-varnames`).toEqual(names.map(squash));
    if (meanings) expect(schemas[schema]["x-enum-descriptions"], `${schema} x-enum-descriptions`).toEqual(meanings.map((m) => `${m}.`));
  });
});

describe("failures and limits are stated", () => {
  it("the 429 response carries Retry-After", () => {
    const tooMany = deref(openapi, openapi.paths["/v1/leaverequest/list"].get.responses["429"]);
    expect(tooMany.headers?.[provider.failures.rateLimitHeader], "429 must document Retry-After").toBeDefined();
  });
  it.each(failureStatuses.map((s: string) => [s] as [string]))("the %s response is the failure envelope with an example", (status) => {
    const response = deref(openapi, openapi.paths["/v1/leaverequest/list"].get.responses[status]);
    const media = response.content["application/json"];
    expect(flatten(openapi, media.schema).properties.isSuccessful, `${status}: envelope`).toBeDefined();
    const examples = Object.entries<any>(media.examples ?? {});
    expect(examples.length, `${status}: a named example`).toBeGreaterThan(0);
    for (const [name, example] of examples) expect(example.value?.isSuccessful, `${status}: example ${name} with isSuccessful false`).toBe(false);
    expect(response["x-assumption"], `${status}: the status is an assumption and must be marked`).toMatch(/\.$/);
  });
  it.each(limitRows.map((row) => [row.limit, row] as [string, (typeof limitRows)[number]]))(
    "the API reference's limits table states: %s (section 8)",
    (_name, row) => {
      const rows = (openapi.info.description as string).split("\n").filter((line) => line.trim().startsWith(`| ${row.limit} |`));
      expect(rows, `no row "${row.limit}" in the limits table of info.description`).toHaveLength(1);
      expect(rows[0], `row "${row.limit}" must state ${row.value}`).toContain(`| ${row.value}`);
    },
  );
  it("the reference states the assumed largest page size, and PageSize carries it", () => {
    expect(openapi.info.description, "largest page size").toMatch(/\| Largest page size \| 100 /);
    const pageSize = deref(openapi, openapi.components.parameters.PageSize);
    expect(pageSize.schema.maximum, "PageSize maximum").toBe(100);
    expect(pageSize.schema.default, "PageSize default").toBe(limit("defaultPageSize"));
    expect(deref(openapi, openapi.components.parameters.PageNumber).schema.default, "PageNumber default").toBe(limit("defaultPageNumber"));
  });
  it("the server's base_url defaults to the mock's local address", () => {
    expect(openapi.servers[0].variables.base_url.default).toBe("http://127.0.0.1:4010");
  });
});

describe("provider events are in the AsyncAPI document", () => {
  const messages = Object.values<any>(asyncapi?.components?.messages ?? {});
  const schemaOf = (node: any) => deref(asyncapi, node);
  const propertiesOf = (node: any) => flattenAsync(schemaOf(node));
  function flattenAsync(schema: any): Record<string, any> {
    const out: Record<string, any> = {};
    for (const part of schema.allOf ?? []) Object.assign(out, flattenAsync(schemaOf(part)));
    return Object.assign(out, schema.properties ?? {});
  }
  const byType = new Map(messages.map((m) => [effective(asyncapi, propertiesOf(m.payload).type ?? {}).const, m]));
  const events = createDocumentValidator(asyncapi ?? {});

  it("the AsyncAPI bundle exists", () => {
    expect(asyncapi, "generated/asyncapi.json is missing: run npm run generate").toBeDefined();
    expect(asyncapi.asyncapi, "AsyncAPI version").toMatch(/^3\./);
  });

  it.each(Object.entries(catalogue))("event type %s has a message in plan group %s (section 6.3)", (type, group) => {
    const message = byType.get(type);
    expect(message, `no message whose payload type is ${type}`).toBeDefined();
    expect(message.name, `message name of ${type}`).toBe(type);
    expect(message["x-event-group"], `plan group of ${type}`).toBe(group);
  });

  it("no message beyond the provider's named types, and the others counted as not shown", () => {
    expect([...byType.keys()].filter((t) => !(t in catalogue)), "messages of types the provider does not name").toEqual([]);
    const channel = Object.values<any>(asyncapi.channels)[0];
    expect(channel["x-event-types-total"], "total event types").toBe(provider.events.totalTypes);
    expect(channel["x-not-shown-event-types"], "event types not shown").toBe(provider.events.notShownTypes);
    expect(provider.events.totalTypes - eventTypes.length, "the fixture's own arithmetic").toBe(provider.events.notShownTypes);
  });

  it("the send operation is an HTTP POST to the receiver's endpoint", () => {
    const ops = Object.values<any>(asyncapi.operations);
    expect(ops.map((o) => o.action), "operations").toEqual(["send"]);
    expect(ops[0].bindings?.http?.method, "HTTP binding method").toBe("POST");
  });

  it.each(Object.entries(provider.events.headers))("every message carries header %s", (name, value) => {
    for (const message of messages) {
      const headers = (message.traits ?? []).map((t: any) => schemaOf(t).headers).concat(message.headers ?? []).filter(Boolean);
      const props = Object.assign({}, ...headers.map((h: any) => flattenAsync(schemaOf(h))));
      expect(props[name], `${message.name}: header ${name} is missing`).toBeDefined();
      const required = new Set(headers.flatMap((h: any) => schemaOf(h).required ?? []));
      expect(required.has(name), `${message.name}: header ${name} is not required`).toBe(true);
      if (value !== null) expect(schemaOf(props[name]).const, `${message.name}: header ${name} value`).toBe(value);
    }
  });

  it("the delivery headers are exactly the provider's (section 6.1)", () => {
    const headers = Object.keys(asyncapi.components.schemas.WebhookHeaders.properties);
    expect(headers.sort(), "headers in WebhookHeaders").toEqual(Object.keys(provider.events.headers).sort());
  });

  it("Service-Signature has a pattern for t=<unix>,v1=<hex>", () => {
    const trait = schemaOf(messages[0].traits[0]);
    const pattern = new RegExp(schemaOf(schemaOf(trait.headers).properties["Service-Signature"]).pattern);
    expect(pattern.test(`t=1763800000,v1=${"a".repeat(64)}`), "a valid header must match").toBe(true);
    expect(pattern.test("v1=abc"), "a header without t must not match").toBe(false);
    expect(pattern.test(`t=1763800000,v1=${"A".repeat(64)}`), "upper-case hex must not match").toBe(false);
  });

  it.each(Object.entries(provider.events.body))("every event body has %s", (field, type) => {
    for (const message of messages) {
      const props = propertiesOf(message.payload);
      expect(props[field], `${message.name}: body field ${field} is missing`).toBeDefined();
      const prop = effective(asyncapi, props[field]);
      const types = [prop.type].flat();
      if (type === "uuid") expect([types.includes("string"), prop.format], `${message.name}.${field} type/format`).toEqual([true, "uuid"]);
      if (type === "string") expect(types.includes("string") || typeof prop.const === "string", `${message.name}.${field} must be a string`).toBe(true);
      if (type === "object") expect(types, `${message.name}.${field} type`).toContain("object");
      if (type === "datetime") {
        expect(prop.format, `${message.name}.${field} format`).toBe("date-time");
        expect(new RegExp(prop.pattern).test("2026-11-22T08:15:30.1234567Z"), "7 fractional digits, Z").toBe(true);
        expect(new RegExp(prop.pattern).test("2026-11-22T08:15:30.123Z"), "3 fractional digits rejected").toBe(false);
        expect(new RegExp(prop.pattern).test("2026-11-22T08:15:30.1234567+00:00"), "an offset in place of Z rejected").toBe(false);
      }
      if (field === "apiVersion") expect(prop.const, `${message.name}.apiVersion`).toBe(provider.events.apiVersion);
    }
  });

  it("every event body has exactly the provider's fields (section 6.1)", () => {
    for (const message of messages) {
      expect(Object.keys(propertiesOf(message.payload)).sort(), `${message.name}: body fields`).toEqual(Object.keys(provider.events.body).sort());
    }
  });

  it.each(messages.map((m) => [m.name, m] as [string, any]))("the %s body is closed: an extra field in the body or in data is refused", (_name, message) => {
    const pointer = message.payload.$ref.slice(1);
    const example = message.examples?.[0]?.payload;
    expect(example, `${message.name}: a message example to start from`).toBeDefined();
    expect(events.validate(pointer, example), `${message.name}: its own example must be valid`).toEqual([]);
    expect(events.validate(pointer, { ...example, salary: 1 }), `${message.name}: a body with an extra field must be refused`).not.toEqual([]);
    expect(events.validate(pointer, { ...example, data: { ...example.data, bankAccount: "x" } }), `${message.name}: data with an extra field must be refused`).not.toEqual([]);
  });

  it.each(Object.entries(provider.events.leaveApprovedData))("leave.approved data has %s", (field, type) => {
    const data = schemaOf(propertiesOf(byType.get("leave.approved").payload).data);
    expect(data.properties[field], `leave.approved data.${field} is missing`).toBeDefined();
    const prop = effective(asyncapi, data.properties[field]);
    expect(data.required, `leave.approved data.${field} required`).toContain(field);
    if (type === "uuid") expect(prop.format).toBe("uuid");
    if (type === "datetext") expect(new RegExp(prop.pattern).test("2026-12-21T00:00:00")).toBe(true);
    if (field === "status") expect(prop.const).toBe("Approved");
  });

  it("leave.approved data has exactly the provider's fields (section 6.4)", () => {
    const data = schemaOf(propertiesOf(byType.get("leave.approved").payload).data);
    expect(Object.keys(data.properties).sort()).toEqual(Object.keys(provider.events.leaveApprovedData).sort());
  });

  it("no event can carry pay, bank details or notes: every data schema is closed and names none of them", () => {
    for (const message of messages) {
      const data = schemaOf(propertiesOf(message.payload).data);
      expect(data.additionalProperties, `${message.name}: data must be closed`).toBe(false);
      const names = Object.keys(data.properties ?? {});
      const forbidden = names.filter((n) => provider.events.forbiddenDataFields.includes(n));
      expect(forbidden, `${message.name}: forbidden fields in data`).toEqual([]);
    }
  });

  it.each(deliveryRules.map((r) => [`${r.rule} (section ${r.section})`, r] as const))(
    "the events reference states the delivery rule: %s",
    (_name, rule) => {
      const text = visible(`${asyncapi.info.description}`).toLowerCase();
      for (const phrase of rule.phrases) expect(text, `AsyncAPI info.description must state: ${phrase}`).toContain(visible(phrase).toLowerCase());
    },
  );

  it("the delivery rules are machine-readable for the mock", () => {
    const op = Object.values<any>(asyncapi.operations)[0];
    expect(op["x-signature-tolerance-seconds"]).toBe(limit("toleranceSeconds"));
    expect(op["x-response-timeout-seconds"]).toBe(limit("responseTimeoutSeconds"));
    expect(op["x-max-endpoints-per-organisation"]).toBe(limit("maxEndpoints"));
    expect(op["x-api-version"]).toBe(provider.events.apiVersion);
    const schedule: number[] = op["x-retry-schedule-seconds"];
    const total = schedule.reduce((a, b) => a + b, 0);
    expect(total, "the retry schedule spans roughly two days").toBeGreaterThan((limit("retryPeriodHours") * 3600 * 3) / 4);
    expect(total, "the retry schedule stays within two days").toBeLessThanOrEqual(limit("retryPeriodHours") * 3600);
  });
});

/** What a reader sees: Markdown code marks dropped, whitespace collapsed. */
function visible(text: string): string {
  return text.replace(/`/g, "").replace(/\s+/g, " ").trim();
}

/** Sentences of a node's prose (description, summary, x-* fields but x-assumption); an x- field's sentences are prefixed with its name. */
function proseSentences(node: any): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries<any>(node ?? {})) {
    if (typeof value !== "string" || key === "x-assumption") continue;
    if (key !== "description" && key !== "summary" && !key.startsWith("x-")) continue;
    const prefix = key.startsWith("x-") ? `${key.slice(2)}: ` : "";
    for (const unit of textUnits(value)) for (const sentence of sentences(unit)) out.push(prefix + visible(sentence));
  }
  return out;
}

/** The nodes a "not shown" item names: one pointer, or each event's data but leave.approved's. */
function notShownNodes(item: NotShown): [string, any][] {
  const doc = documents[item.document];
  if (item.pointer !== "each event's data but leave.approved") return [[item.pointer, resolvePointer(doc, `#${item.pointer}`)]];
  return Object.values<any>(doc.components.messages)
    .filter((m) => m.name !== "leave.approved")
    .map((m) => {
      const payload = flatten(doc, m.payload);
      return [`${m.name} data`, deref(doc, effective(doc, payload.properties.data))] as [string, any];
    });
}

describe("every \"not shown\" of the provider's document is visible in the specs", () => {
  it("the fixture lists a \"not shown\" of each section that has one", () => {
    const sections = new Set(notShown.map((n) => n.section));
    for (const s of ["1", "2.4", "2.9", "3.1", "3.2", "4.2", "4.7", "4.8", "5.5", "5.6", "6.3", "6.4", "6.5", "7.2", "7.3", "7.4", "8", "9"]) {
      expect(sections.has(s), `no "not shown" of section ${s} in the fixture`).toBe(true);
    }
  });

  it.each(notShown.map((n) => [`${n.section}: ${n.what}`, n] as const))("%s", (_name, item) => {
    expect(documents[item.document], `generated/${item.document}.json is missing`).toBeDefined();
    for (const [where, node] of notShownNodes(item)) {
      const has = (text: string) => item.says.every((k) => text.toLowerCase().includes(k.toLowerCase()));
      if (item.shownAs === "assumption") {
        const mark = node["x-assumption"];
        expect(typeof mark, `${item.document} ${where}: no x-assumption for "${item.what}"`).toBe("string");
        expect(has(visible(mark)), `${item.document} ${where}: x-assumption ${JSON.stringify(mark)} must mention ${item.says.join(", ")}`).toBe(true);
      } else {
        const said = proseSentences(node).filter((s) => /not shown/i.test(s));
        expect(said.some(has), `${item.document} ${where}: no sentence saying "not shown" that mentions ${item.says.join(", ")}; found ${JSON.stringify(said)}`).toBe(true);
      }
    }
  });
});

describe("the OpenAPI webhooks section mirrors the AsyncAPI messages by reference", () => {
  const messages = Object.values<any>(asyncapi?.components?.messages ?? {});
  it("there is one webhook per message, and no other", () => {
    expect(Object.keys(openapi.webhooks ?? {}).sort(), "webhook names").toEqual(messages.map((m) => m.name).sort());
  });

  it.each(messages.map((m) => [m.name, m] as [string, any]))("webhook %s: same body schema, headers from WebhookHeaders, same words", (name, message) => {
    const post = openapi.webhooks[name].post;
    const schemaName = message.payload.$ref.split("/").pop();
    expect(post.requestBody.content["application/json"].schema.$ref, `${name}: body schema`).toBe(`#/components/schemas/${schemaName}`);
    // Both bundles are made from the same file, so the schema must come out identical.
    expect(openapi.components.schemas[schemaName], `${name}: ${schemaName} differs between the bundles`).toEqual(asyncapi.components.schemas[schemaName]);
    const headers = (post.parameters ?? []).map((p: any) => deref(openapi, p)).filter((p: any) => p.in === "header");
    for (const header of headers) {
      const own = effective(openapi, header.schema);
      const source = effective(asyncapi, asyncapi.components.schemas.WebhookHeaders.properties[header.name]);
      expect(own, `${name}: header ${header.name} schema differs from WebhookHeaders`).toEqual(source);
      expect(header.required, `${name}: header ${header.name} required`).toBe(true);
    }
    // Content-Type is the media type in OpenAPI, not a header parameter; every other header is one.
    const names = headers.map((h: any) => h.name).sort();
    expect(names, `${name}: header parameters`).toEqual(Object.keys(provider.events.headers).filter((h) => h !== "Content-Type").sort());
    expect(post.summary, `${name}: summary is the message's title`).toBe(message.title);
    expect(post.description, `${name}: description is the message's, then the pointer to the events reference`).toBe(
      `${message.description} Body and headers as the events reference describes the message \`${name}\`.`,
    );
  });
});
