// The bundled OpenAPI documents are valid for an independent OpenAPI 3.1 validator
// (@seriousme/openapi-schema-validator: the OpenAPI Initiative's JSON Schemas for 3.1), not only
// for the tools that write and lint them; planted mistakes show the check can fail.
import fs from "node:fs";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/lib/spec-document.js";

const load = (file: string) => JSON.parse(fs.readFileSync(path.join(repoRoot, file), "utf8"));

async function check(doc: unknown): Promise<{ valid: boolean; version: string; errors: string }> {
  const validator = new Validator();
  const result = await validator.validate(structuredClone(doc) as Parameters<Validator["validate"]>[0]);
  return { valid: result.valid, version: validator.version, errors: JSON.stringify(result.errors ?? []).slice(0, 800) };
}

describe("an independent OpenAPI 3.1 validator accepts the bundles", () => {
  it.each(["generated/openapi.json", "generated/openapi.failure-200.json", "generated/control-openapi.json"])("%s", async (file) => {
    const result = await check(load(file));
    expect(result.version, `${file}: the version the validator detected`).toBe("3.1");
    expect(result.valid, `${file} is invalid: ${result.errors}`).toBe(true);
  });
});

const PLANTED: Array<[string, { edit: (doc: any) => void }]> = [
  ["info without its title", { edit: (doc) => delete doc.info.title }],
  ["a response without its description", { edit: (doc) => delete doc.paths["/v1/leavetype/list"].get.responses["200"].description }],
  ["a parameter with an unknown location", { edit: (doc) => (doc.components.parameters.PageSize.in = "body") }],
  ["an unknown top-level field", { edit: (doc) => (doc.pathz = {}) }],
];

describe("the validator rejects planted mistakes in a copy of the read API's bundle", () => {
  it.each(PLANTED)("%s", async (_name, { edit }) => {
    const doc = load("generated/openapi.json");
    edit(doc);
    expect((await check(doc)).valid, "a planted mistake passed").toBe(false);
  });
});
