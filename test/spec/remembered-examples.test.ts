// Spectral's example rules with their findings remembered (scripts/lint/remembered-examples.ts)
// report what the rules themselves report, and call them once for a schema and examples met again
// at a place of the same kind.
import spectralCore from "@stoplight/spectral-core";
import spectralParsers from "@stoplight/spectral-parsers";
import spectralRulesets from "@stoplight/spectral-rulesets";
import type { RulesetDefinition } from "@stoplight/spectral-core";
import { describe, expect, it } from "vitest";
import { rememberExampleFindings, withRememberedExamples } from "../../scripts/lint/remembered-examples.js";

const { Spectral, Document } = spectralCore;
const { Json } = spectralParsers;
const EXAMPLE_RULES = ["oas3-valid-media-example", "oas3-valid-schema-example"];

// A media type whose example lacks a required readOnly and a required writeOnly property: only the
// writeOnly one is missing in a request, only the readOnly one in a response. It comes back at
// several places of each kind, beside a schema whose example is wrong wherever it is inlined.
const media = {
  schema: {
    type: "object",
    required: ["id", "secret", "count"],
    properties: { id: { type: "string", readOnly: true }, secret: { type: "string", writeOnly: true }, count: { $ref: "#/components/schemas/Count" } },
  },
  example: { count: 2 },
};
const operation = (id: string) => ({
  operationId: id,
  summary: id,
  description: id,
  tags: ["a"],
  requestBody: { content: { "application/json": media } },
  responses: { "200": { description: "ok", content: { "application/json": media } }, "201": { $ref: "#/components/responses/Created" } },
});
const DOCUMENT = {
  openapi: "3.1.0",
  info: { title: "t", version: "1", description: "d", contact: { name: "a", url: "https://a.example.dev" } },
  servers: [{ url: "https://api.example.dev" }],
  tags: [{ name: "a", description: "a" }],
  paths: { "/a": { post: operation("postA"), put: operation("putA") }, "/b": { post: operation("postB") } },
  components: {
    schemas: { Count: { type: "integer", maximum: 10, example: 12 } },
    requestBodies: { Body: { content: { "application/json": media } } },
    responses: { Created: { description: "created", content: { "application/json": media } } },
  },
};

async function lint(ruleset: RulesetDefinition) {
  const spectral = new Spectral();
  spectral.setRuleset({ extends: [[ruleset, "recommended"]] });
  return spectral.run(new Document(JSON.stringify(DOCUMENT, null, 2), Json, "planted.json"));
}

describe("Spectral's example rules with their findings remembered", () => {
  it("report every finding the rules report, at the same places, with the same messages", async () => {
    const oas = spectralRulesets.oas as unknown as RulesetDefinition;
    const own = await lint(oas);
    const examples = own.filter((d) => EXAMPLE_RULES.includes(String(d.code)));
    // The document plants both kinds in requests, responses and an inlined schema.
    expect(examples.map((d) => d.message).sort(), "the planted findings, as the rules report them").toEqual([
      ...Array(4).fill('"example" property must have required property "id"'),
      ...Array(4).fill('"example" property must have required property "secret"'),
      '"example" property must be <= 10',
    ].sort());
    expect(await lint(withRememberedExamples(oas, EXAMPLE_RULES))).toEqual(own);
  });

  const cases: [string, { given: Array<{ value: unknown; path: string[] }>; want: { calls: number; paths: string[][] } }][] = [
    ["the same value at two places of one kind: the rule runs once, the finding is moved", { given: [{ value: { a: 1 }, path: ["paths", "/a", "get", "responses", "200"] }, { value: { a: 1 }, path: ["paths", "/b", "post", "responses", "404"] }], want: { calls: 1, paths: [["paths", "/a", "get", "responses", "200", "example"], ["paths", "/b", "post", "responses", "404", "example"]] } }],
    ["the same value in a request body and in a response: two runs", { given: [{ value: { a: 1 }, path: ["paths", "/a", "post", "requestBody"] }, { value: { a: 1 }, path: ["paths", "/a", "post", "responses", "200"] }], want: { calls: 2, paths: [["paths", "/a", "post", "requestBody", "example"], ["paths", "/a", "post", "responses", "200", "example"]] } }],
    ["different values: two runs", { given: [{ value: { a: 1 }, path: ["components", "schemas", "A"] }, { value: { a: 2 }, path: ["components", "schemas", "A"] }], want: { calls: 2, paths: [["components", "schemas", "A", "example"], ["components", "schemas", "A", "example"]] } }],
    ["a schema with an $id (the document's AJV keeps it by that id): every time", { given: [{ value: { $id: "x" }, path: ["components", "schemas", "A"] }, { value: { $id: "x" }, path: ["components", "schemas", "B"] }], want: { calls: 2, paths: [["components", "schemas", "A", "example"], ["components", "schemas", "B", "example"]] } }],
  ];
  it.each(cases)("%s", (_name, { given, want }) => {
    let calls = 0;
    const rule = rememberExampleFindings((_value, _options, context) => {
      calls++;
      return [{ message: "wrong", path: [...context.path, "example"] }];
    });
    const document = { formats: new Set(), data: {} };
    const results = given.map(({ value, path }) => rule(value, { type: "media" }, { document, path }));
    expect(calls, "runs of the rule's own function").toBe(want.calls);
    expect(results).toEqual(want.paths.map((path) => [{ message: "wrong", path }]));
  });
});
