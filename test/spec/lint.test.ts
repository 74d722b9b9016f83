// Both documents lint clean: Redocly's recommended rules plus the house rules, and asyncapi validate.
import { describe, expect, it } from "vitest";
import { asyncapiValidate, redoclyLint } from "../../scripts/lint.js";

describe("lint", () => {
  it.each([["hr-api"], ["hr-events"], ["mock-control"]])("redocly lint %s has no error and no warning", (api) => {
    const result = redoclyLint(api);
    expect(result.output, `redocly lint ${api} reported problems`).toBe("");
    expect({ errors: result.errors, warnings: result.warnings }).toEqual({ errors: 0, warnings: 0 });
  }, 60_000);

  it("asyncapi validate passes with no warning", () => {
    const result = asyncapiValidate();
    expect(result.ok, `asyncapi validate failed:\n${result.output}`).toBe(true);
    expect(result.warnings, `asyncapi validate warned:\n${result.output}`).toBe(0);
  }, 120_000);
});

describe("the bundled AsyncAPI document", () => {
  it("parses with @asyncapi/parser without errors (a bundle that left a relative $ref would not)", async () => {
    const { Parser } = await import("@asyncapi/parser");
    const fs = await import("node:fs");
    const { repoRoot } = await import("../../scripts/lib/spec-document.js");
    const text = fs.readFileSync(`${repoRoot}/generated/asyncapi.yaml`, "utf8");
    const { document, diagnostics } = await new Parser().parse(text);
    const errors = diagnostics.filter((d) => d.severity === 0).map((d) => `${d.message} at ${d.path.join(".")}`);
    expect(errors, "parser errors in generated/asyncapi.yaml").toEqual([]);
    expect(document, "the parser returned no document").toBeDefined();
    expect(document!.messages().length, "messages in the bundle").toBe(13);
  }, 60_000);
});
