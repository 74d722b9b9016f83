// The bundled events document is valid against the official AsyncAPI 3.0.0 JSON Schema, which is
// stricter than the parser on one point that generators depend on: an operation's messages must be
// references to its channel's messages, not inline copies.
import fs from "node:fs";
import path from "node:path";
import { Ajv, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import asyncapiSpecs from "@asyncapi/specs";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/lib/spec-document.js";

function officialValidator(): ValidateFunction {
  // The official schema uses keywords Ajv's strict mode rejects, hence strict: false; it embeds its
  // own copy of the draft-07 meta-schema, so Ajv's copy is left out (meta: false) to avoid a clash.
  const ajv = new Ajv({ strict: false, allErrors: true, meta: false, validateSchema: false });
  addFormats.default(ajv);
  return ajv.compile(asyncapiSpecs.schemas["3.0.0"]);
}

const validate = officialValidator();
const errorsOf = (document: unknown): string[] =>
  validate(document) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
const bundled = (file: string): Record<string, any> => JSON.parse(fs.readFileSync(path.join(repoRoot, "generated", file), "utf8"));

describe("the official AsyncAPI 3.0.0 JSON Schema", () => {
  it("accepts generated/asyncapi.json", () => {
    expect(errorsOf(bundled("asyncapi.json")), "generated/asyncapi.json breaks the official AsyncAPI 3.0.0 schema").toEqual([]);
  });

  it("refers every operation message to a message of the operation's channel", () => {
    const document = bundled("asyncapi.json");
    for (const [id, operation] of Object.entries<Record<string, any>>(document.operations)) {
      const channel = String(operation.channel.$ref).replace("#/channels/", "");
      const keys = Object.keys(document.channels[channel].messages);
      const refs = operation.messages.map((m: { $ref?: string }) => m.$ref);
      expect(refs, `operation ${id} must list each of channel ${channel}'s messages by reference`).toEqual(
        keys.map((key) => `#/channels/${channel}/messages/${key}`),
      );
    }
  });

  const PLANTED: Array<[string, { edit: (d: Record<string, any>) => void; want: RegExp }]> = [
    ["an inline operation message", { edit: (d) => (d.operations.sendWebhookEvent.messages[0] = d.channels.webhookEndpoint.messages.employeeCreated), want: /messages\/0 must have required property '\$ref'/ }],
    ["an operation without its action", { edit: (d) => delete d.operations.sendWebhookEvent.action, want: /required property 'action'/ }],
  ];
  it.each(PLANTED)("rejects %s", (_name, { edit, want }) => {
    const document = bundled("asyncapi.json");
    edit(document);
    expect(errorsOf(document).join("\n")).toMatch(want);
  });
});

describe("every schema a generator or the events page names has a name of its own", () => {
  const document = bundled("asyncapi.json");
  const schemas: Record<string, any> = document.components.schemas;
  // Objects become models (Modelina) and boxes on the events page; a schema without a title is shown as <anonymous-schema-N>.
  const objectParts = (schema: any): any[] => [schema, ...(schema.allOf ?? []).filter((part: any) => !part.$ref)];
  it.each(Object.keys(schemas))("component schema %s and its inline allOf parts have a title", (name) => {
    for (const part of objectParts(schemas[name])) expect(part.title, `components.schemas.${name}: an object part without a title`).toMatch(/^[A-Z]\w+$/);
  });

  it("every component schema is used: each message's payload and its trait's headers refer to one", () => {
    const text = JSON.stringify({ ...document, components: { ...document.components, schemas: undefined } });
    const unused = Object.keys(schemas).filter((name) => !text.includes(`"#/components/schemas/${name}"`) && !JSON.stringify(schemas).includes(`"#/components/schemas/${name}"`));
    expect(unused, "component schemas nothing refers to").toEqual([]);
    for (const [key, message] of Object.entries<any>(document.components.messages)) {
      expect(message.payload.$ref, `message ${key}: payload`).toMatch(/^#\/components\/schemas\/\w+Event$/);
      for (const trait of message.traits) expect(trait.headers, `message ${key}: trait headers`).toEqual({ $ref: "#/components/schemas/WebhookHeaders" });
    }
  });

  it("the contact has a url or an email", () => {
    expect(document.info.contact.url ?? document.info.contact.email, "info.contact").toMatch(/^(https:\/\/|\S+@)/);
  });
});
