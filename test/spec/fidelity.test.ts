// Every endpoint, parameter, field, enum value, event type and header of the provider's document
// (written once into test/fixtures/provider-document.json) is in the bundled specs.
import { describe, expect, it } from "vitest";
import { deref, effective, flatten, loadAsyncApi, loadJson, loadOpenApi } from "../../scripts/lib/spec-document.js";
import { createDocumentValidator } from "../../scripts/lib/spec-validator.js";

const provider = loadJson("test/fixtures/provider-document.json");
const endpoints: any[] = provider.endpoints;
const failureStatuses: string[] = provider.failures.statuses;
const eventTypes: string[] = provider.events.types;
const openapi = loadOpenApi();
const asyncapi = (() => { try { return loadAsyncApi(); } catch { return undefined; } })();

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

function responseDataSchema(path: string): any {
  const op = openapi.paths[path].get;
  const content = deref(openapi, op.responses["200"]).content["application/json"];
  return flatten(openapi, content.schema).properties.data;
}

function resourceFields(name: string): Record<string, FieldType> {
  const r = provider.resources[name];
  return { ...(r.extends ? resourceFields(r.extends) : {}), ...r.fields };
}

describe("provider endpoints are in the OpenAPI document", () => {
  it.each(endpoints.map((e: any) => [`${e.method.toUpperCase()} ${e.path}`, e] as [string, any]))("%s", (_name, e: any) => {
    const op = openapi.paths[e.path]?.[e.method];
    expect(op, `${e.method.toUpperCase()} ${e.path} (section ${e.section}) is missing`).toBeDefined();
    expect(op.operationId, `${e.path}: operationId must start with list or get`).toMatch(/^(list|get)[A-Z]/);
    if (e.permission) expect(op["x-permission"], `${e.path}: x-permission`).toBe(e.permission);
    expect(op.security ?? openapi.security, `${e.path}: bearer security`).toEqual([{ bearerAuth: [] }]);
    for (const status of provider.failures.statuses) {
      expect(op.responses[status], `${e.path}: shared ${status} response`).toBeDefined();
    }
  });
});

describe("provider parameters are in the OpenAPI document with name, type and default", () => {
  const cases: [string, any][] = endpoints.flatMap((e: any) =>
    e.parameters.map((p: any) => [`${e.path} ${p.name}`, { endpoint: e, param: p }] as [string, any]),
  );
  it.each(cases)("%s", (_name, { endpoint, param }: any) => {
    const params = (openapi.paths[endpoint.path][endpoint.method].parameters ?? []).map((p: any) => deref(openapi, p));
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
      expect(alternatives.some((a: any) => a.type === "integer"), `${param.name} accepts a number`).toBe(true);
      expect(alternatives.some((a: any) => a.type === "string"), `${param.name} accepts a name`).toBe(true);
    } else {
      const problem = typeProblem(found.schema, param.type);
      expect(problem, `${endpoint.path} ${param.name}: ${problem}`).toBeUndefined();
    }
  });
});

describe("provider fields are in the response schemas with type and format", () => {
  const cases: [string, any][] = [];
  for (const e of provider.endpoints) {
    const resource = e.item ?? e.data;
    for (const [field, type] of Object.entries(resourceFields(resource))) {
      cases.push([`${e.path} ${resource}.${field}`, { e, resource, field, type }]);
    }
  }
  it.each(cases)("%s", (_name, { e, resource, field, type }: any) => {
    let schema = responseDataSchema(e.path);
    if (e.item) schema = effective(openapi, flatten(openapi, schema).properties.data).items;
    const { properties, required } = flatten(openapi, schema);
    expect(properties[field], `${resource}.${field} (section ${provider.resources[resource].section}) is missing`).toBeDefined();
    const problem = typeProblem(properties[field], type);
    expect(problem, `${resource}.${field}: ${problem}`).toBeUndefined();
    const prop = effective(openapi, properties[field]);
    if (prop.type !== "object" && prop.type !== "array" && !("const" in prop) && type !== "any") {
      expect(prop.example, `${resource}.${field} has no example`).toBeDefined();
    }
    if (resource !== "envelope") expect(required.has(field), `${resource}.${field} is not required`).toBe(true);
  });

  it.each(Object.entries(provider.resources).filter(([, r]: any) => r.nested).flatMap(([name, r]: any) =>
    Object.entries(r.nested).map(([field, fields]) => [`${name}.${field}`, { name, field, fields }]),
  ))("nested %s", (_n, { name, field, fields }: any) => {
    const e = provider.endpoints.find((x: any) => (x.item ?? x.data) === name || provider.resources[x.item ?? x.data]?.extends === name);
    let schema = responseDataSchema(e.path);
    if (e.item) schema = effective(openapi, flatten(openapi, schema).properties.data).items;
    const outer = effective(openapi, flatten(openapi, schema).properties[field]);
    const inner = flatten(openapi, outer.type === "array" ? outer.items : outer).properties;
    for (const [f, t] of Object.entries<string>(fields)) {
      expect(inner[f], `${name}.${field}.${f} is missing`).toBeDefined();
      const problem = typeProblem(inner[f], t);
      expect(problem, `${name}.${field}.${f}: ${problem}`).toBeUndefined();
    }
  });

  it("department details carry leaders in place of the list's leads", () => {
    const details = flatten(openapi, responseDataSchema("/v1/department/{id}")).properties;
    for (const absent of provider.resources.departmentDetails.absent) {
      expect(details[absent], `department details must not have ${absent}`).toBeUndefined();
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

  it("leave status numbers and names are paired in order", () => {
    expect(schemas.LeaveStatusId["x-enum-varnames"]).toEqual(provider.enums.leaveStatus.names);
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
    expect(media.example?.isSuccessful, `${status}: example with isSuccessful false`).toBe(false);
    expect(response["x-assumption"], `${status}: the status is an assumption and must be marked`).toMatch(/\.$/);
  });
  it("the reference states the rate limit, default page size and the assumed largest page size", () => {
    const text = openapi.info.description as string;
    expect(text, "rate limit").toContain(`${provider.limits.rateLimitPerMinute} requests a minute per key`);
    expect(text, "default page size").toMatch(/Default page size \| 25/);
    expect(text, "largest page size").toMatch(/Largest page size \| 100/);
    const pageSize = deref(openapi, openapi.components.parameters.PageSize);
    expect(pageSize.schema.maximum, "PageSize maximum").toBe(100);
    expect(pageSize.schema.default, "PageSize default").toBe(provider.limits.defaultPageSize);
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

  it.each(eventTypes.map((t: string) => [t] as [string]))("event type %s has a message", (type) => {
    const message = byType.get(type);
    expect(message, `no message whose payload type is ${type}`).toBeDefined();
    expect(message.name, `message name of ${type}`).toBe(type);
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

  it("Service-Signature has a pattern for t=<unix>,v1=<hex>", () => {
    const trait = schemaOf(messages[0].traits[0]);
    const pattern = new RegExp(schemaOf(schemaOf(trait.headers).properties["Service-Signature"]).pattern);
    expect(pattern.test(`t=1763800000,v1=${"a".repeat(64)}`), "a valid header must match").toBe(true);
    expect(pattern.test("v1=abc"), "a header without t must not match").toBe(false);
  });

  it.each(Object.entries(provider.events.body))("every event body has %s", (field, type) => {
    for (const message of messages) {
      const props = propertiesOf(message.payload);
      const prop = schemaOf(props[field]);
      expect(prop, `${message.name}: body field ${field} is missing`).toBeDefined();
      if (type === "uuid") expect(prop.format, `${message.name}.${field} format`).toBe("uuid");
      if (type === "datetime") {
        expect(prop.format, `${message.name}.${field} format`).toBe("date-time");
        expect(new RegExp(prop.pattern).test("2026-11-22T08:15:30.1234567Z"), "7 fractional digits, Z").toBe(true);
        expect(new RegExp(prop.pattern).test("2026-11-22T08:15:30.123Z"), "3 fractional digits rejected").toBe(false);
      }
      if (field === "apiVersion") expect(prop.const, `${message.name}.apiVersion`).toBe(provider.limits.apiVersion);
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
    const prop = effective(asyncapi, data.properties[field]);
    expect(prop, `leave.approved data.${field} is missing`).toBeDefined();
    expect(data.required, `leave.approved data.${field} required`).toContain(field);
    if (type === "uuid") expect(prop.format).toBe("uuid");
    if (type === "datetext") expect(new RegExp(prop.pattern).test("2026-12-21T00:00:00")).toBe(true);
    if (field === "status") expect(prop.const).toBe("Approved");
  });

  it("no event can carry pay, bank details or notes: every data schema is closed and names none of them", () => {
    for (const message of messages) {
      const data = schemaOf(propertiesOf(message.payload).data);
      expect(data.additionalProperties, `${message.name}: data must be closed`).toBe(false);
      const names = Object.keys(data.properties ?? {});
      const forbidden = names.filter((n) => provider.events.forbiddenDataFields.includes(n));
      expect(forbidden, `${message.name}: forbidden fields in data`).toEqual([]);
      if (message.name !== "leave.approved") {
        expect(data["x-assumption"], `${message.name}: data not shown by the provider must be marked x-assumption`).toBeTruthy();
      }
    }
  });

  it("the delivery rules are stated for readers and machine-readable for the mock", () => {
    const text = `${asyncapi.info.description}`;
    for (const phrase of ["300", "10 seconds", "two days", "redirect", "at most 10"]) {
      expect(text.toLowerCase(), `AsyncAPI info.description must state: ${phrase}`).toContain(phrase.toLowerCase());
    }
    const op = Object.values<any>(asyncapi.operations)[0];
    expect(op["x-signature-tolerance-seconds"]).toBe(provider.limits.toleranceSeconds);
    expect(op["x-response-timeout-seconds"]).toBe(provider.limits.responseTimeoutSeconds);
    expect(op["x-max-endpoints-per-organisation"]).toBe(provider.limits.maxEndpoints);
    const schedule: number[] = op["x-retry-schedule-seconds"];
    const total = schedule.reduce((a, b) => a + b, 0);
    expect(total, "the retry schedule spans roughly two days").toBeGreaterThan(36 * 3600);
    expect(total).toBeLessThanOrEqual(48 * 3600);
  });
});
