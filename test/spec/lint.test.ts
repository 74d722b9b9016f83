// Both documents lint clean: Redocly's recommended rules plus the house rules, and asyncapi validate.
import { describe, expect, it } from "vitest";
import { asyncapiValidate, redoclyLint } from "../../scripts/lint.js";

describe("lint", () => {
  it.each([["hr-api"], ["hr-events"]])("redocly lint %s has no error and no warning", (api) => {
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
