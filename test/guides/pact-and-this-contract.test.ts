// docs/guides/pact-and-this-contract.md tells the truth: its commands use only flags the commands
// take (the broker's are Pact's own, not run here), its enum regex is the one an export writes for
// the schema, the values the state endpoint answers are the control document's, and the finding
// codes it lists are exactly those hr-contract pact reports.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EXPORT_HELP } from "../../mock/cli/commands/export.js";
import { enumRegex } from "../../mock/pact/body-rules.js";
import { PACT_USAGE } from "../../src/contract/pact/cli.js";
import { repoRoot } from "../../scripts/lib/spec-document.js";

const GUIDE = "docs/guides/pact-and-this-contract.md";
const guide = fs.readFileSync(path.join(repoRoot, GUIDE), "utf8");
const read = (file: string) => JSON.parse(fs.readFileSync(path.join(repoRoot, file), "utf8"));
const commands = [...guide.matchAll(/```sh\n([\s\S]*?)\n```/g)].flatMap((m) => m[1].split("\n")).filter((line) => line.trim());
const flagsOf = (line: string) => [...line.matchAll(/(?<=\s)--[a-z][a-z-]*/g)].map((m) => m[0]);

describe(GUIDE, () => {
  it.each([
    ["hr-mock export", EXPORT_HELP],
    ["hr-contract pact", PACT_USAGE],
  ])("uses only flags %s takes", (command, help) => {
    const lines = commands.filter((line) => line.replace(/^npx /, "").startsWith(command));
    expect(lines.length, `${command} lines in the guide`).toBeGreaterThan(0);
    for (const line of lines) for (const flag of flagsOf(line)) expect(help, `${flag} of "${line}"`).toContain(flag);
  });

  it("shows the enum regex an export writes for LeaveStatusName", () => {
    const regex = enumRegex(read("generated/openapi.json").components.schemas.LeaveStatusName.enum);
    expect(guide).toContain(`\`${regex}\``);
  });

  it("names every value the state endpoint answers, as the control document lists them", () => {
    const values = Object.keys(read("generated/control-openapi.json").components.schemas.ProviderStateValues.properties);
    for (const name of values) expect(guide, name).toContain(`\`${name}\``);
  });

  it("lists exactly the finding codes hr-contract pact reports", () => {
    const source = fs.readFileSync(path.join(repoRoot, "src/contract/pact/check.ts"), "utf8");
    const reported = new Set([...source.matchAll(/"((?:request|response|semantic)\.[a-z.-]+)"/g)].map((m) => m[1]));
    const listed = new Set([...guide.matchAll(/`((?:request|response|semantic)\.[a-z.-]+)`/g)].map((m) => m[1]));
    expect([...listed].sort()).toEqual([...reported].sort());
  });
});
