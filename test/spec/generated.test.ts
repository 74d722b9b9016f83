// generated/ is what `npm run generate` makes from the specs (the type check of everything is
// test/spec/typecheck.test.ts).
import { describe, expect, it } from "vitest";
import { findStaleFiles } from "../../scripts/check-generated.js";

describe("generated files", () => {
  it("are fresh: regenerating from openapi/ and asyncapi/ gives the committed files", async () => {
    const stale = await findStaleFiles();
    const report = stale.map((s) => `${s.file}:\n${s.diff.split("\n").slice(0, 40).join("\n")}`).join("\n");
    expect(stale.map((s) => s.file), `stale generated files; run npm run generate and commit:\n${report}`).toEqual([]);
  }, 120_000);
});
