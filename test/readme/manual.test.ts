// The manual cannot go stale: every command of both bins, every export of both packages, and every
// function and class an entry point exports is named in the README or a guide. The lists come from
// the code (the bins' command tables, the packages' `exports` maps, each entry's module as it
// loads), so a command or an export added without its documentation fails here, naming it.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { COMMAND_NAMES as HR_MOCK_COMMANDS } from "../../mock/cli/main.js";
import { sourceOf } from "../../scripts/lib/package-layout.js";
import { repoRoot } from "../../scripts/lib/spec-document.js";
import { COMMANDS as HR_CONTRACT_COMMANDS } from "../../src/contract/cli.js";
import { DOCUMENTS, fencedBlocks } from "./documents.js";

/** Exports that are no API to document, each with why. */
const NOT_API: Record<string, string> = {
  "./package.json": "exported so that tools can read the manifest; no reader imports it",
};
/** Functions an entry exports that the documents leave out on purpose, each with why. */
const UNNAMED: Record<string, string> = {
  createHrClient: "createClient's first name, kept for code written with it; the documents give the factory one name (test/readme/front-door.test.ts)",
};

const manifests = [JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")), JSON.parse(fs.readFileSync(path.join(repoRoot, "mock/package.json"), "utf8"))] as Array<{
  name: string;
  exports: Record<string, string | Record<string, string>>;
}>;

const prose = DOCUMENTS.map((doc) => doc.text).join("\n");
/** What the documents show as code: fenced blocks and inline code spans. */
const code = DOCUMENTS.flatMap((doc) => [
  ...fencedBlocks(doc.text).map((block) => block.body),
  ...[...doc.text.replace(/```[\s\S]*?```/g, "").matchAll(/`([^`\n]+)`/g)].map((m) => m[1]),
]);
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
const namedInCode = (name: string) => code.some((text) => new RegExp(`(^|[^\\w$.-])${escape(name)}(?![\\w$-])`).test(text));
const where = "in the README or a guide (docs/guides/)";

describe("every command is named", () => {
  it.each(HR_MOCK_COMMANDS.map((name) => [name]))("hr-mock %s", (name) => {
    expect(prose.includes(`hr-mock ${name}`), `"hr-mock ${name}" ${where}`).toBe(true);
  });

  it.each(Object.keys(HR_CONTRACT_COMMANDS).map((name) => [name]))("hr-contract %s", (name) => {
    expect(prose.includes(`hr-contract ${name}`), `"hr-contract ${name}" ${where}`).toBe(true);
  });

  it("the lists are read from the command tables", () => {
    expect(HR_MOCK_COMMANDS, "hr-mock's commands").toContain("serve");
    expect(Object.keys(HR_CONTRACT_COMMANDS), "hr-contract's commands").toContain("receiver");
  });
});

/** Each export of both packages, as a reader imports it ("hr-service-mock/msw"), with its module's source when it has code. */
const EXPORTS = manifests.flatMap(({ name, exports }) =>
  Object.entries(exports)
    .filter(([subpath]) => !(subpath in NOT_API))
    .map(([subpath, target]) => {
      const runtime = typeof target === "string" ? (target.endsWith(".js") ? target : undefined) : target.import;
      return { specifier: subpath === "." ? name : `${name}/${subpath.slice(2)}`, source: runtime ? sourceOf(runtime) : undefined };
    }),
);

describe("every export of both packages is named, as a reader imports it", () => {
  it.each(EXPORTS.map((e) => [e.specifier]))("%s", (specifier) => {
    expect(namedInCode(specifier), `\`${specifier}\` ${where}`).toBe(true);
  });

  it("the list is read from both exports maps", () => {
    expect(EXPORTS.map((e) => e.specifier), "exports found").toEqual(expect.arrayContaining(["hr-service-contract/client", "hr-service-mock/msw"]));
  });
});

describe("every function and class an entry point exports is named", () => {
  const modules = EXPORTS.filter((e) => e.source !== undefined);

  it.each(modules.map((e) => [e.specifier, e.source!]))("%s (%s)", async (specifier, source) => {
    const entry = (await import(path.join(repoRoot, source))) as Record<string, unknown>;
    const functions = Object.entries(entry)
      .filter(([name, value]) => typeof value === "function" && !(name in UNNAMED))
      .map(([name]) => name);
    expect(functions.filter((name) => !namedInCode(name)), `functions and classes of ${specifier} named nowhere ${where}`).toEqual([]);
  });
});
