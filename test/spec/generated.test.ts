// generated/ is what `npm run generate` makes from the specs, and everything type-checks.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findStaleFiles } from "../../scripts/check-generated.js";
import { repoRoot } from "../../scripts/lib/spec-document.js";

describe("generated files", () => {
  it("are fresh: regenerating from openapi/ and asyncapi/ gives the committed files", async () => {
    const stale = await findStaleFiles();
    const report = stale.map((s) => `${s.file}:\n${s.diff.split("\n").slice(0, 40).join("\n")}`).join("\n");
    expect(stale.map((s) => s.file), `stale generated files; run npm run generate and commit:\n${report}`).toEqual([]);
  }, 120_000);

  it("type-check with the rest of the project (tsc --noEmit)", () => {
    const tsc = spawnSync(path.join(repoRoot, "node_modules/.bin/tsc"), ["--noEmit", "-p", repoRoot], { encoding: "utf8" });
    expect(tsc.stdout + tsc.stderr, "tsc --noEmit reported errors").toBe("");
    expect(tsc.status).toBe(0);
  }, 180_000);
});
