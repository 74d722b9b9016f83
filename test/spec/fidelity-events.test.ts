// The provider's events in the AsyncAPI document (types, envelope, headers, delivery rules) and the
// OpenAPI document's webhooks section mirroring its messages by reference.
import { describe, expect, it } from "vitest";
import { deref, effective } from "../../scripts/lib/spec-document.js";
import { createDocumentValidator } from "../../scripts/lib/spec-validator.js";
import { catalogue, deliveryRules, provider, visible, endpoints, eventTypes, limit, openapi, asyncapi } from "./provider-fixture.js";

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
