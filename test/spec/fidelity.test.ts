// Every endpoint, parameter, field, enum value, limit, event type, header, delivery rule and "not
// shown" of the provider's document (written once into test/fixtures/provider-document.json) is in
// the bundled specs, and the specs add nothing to the provider's tables without an x-assumption (the
// events and the webhooks section: fidelity-events.test.ts; the fixture: provider-fixture.ts).
import { describe, expect, it } from "vitest";
import { sentences, textUnits } from "../../scripts/docs/assumptions.js";
import { deref, effective, flatten, resolvePointer } from "../../scripts/lib/spec-document.js";
import { provider, visible, documents, endpoints, failureStatuses, limit, limitRows, notShown, openapi, typeProblem, type FieldType, type NotShown } from "./provider-fixture.js";

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
