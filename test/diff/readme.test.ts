// The guide's "What a change breaks" section names only commands, files and folders that exist, and
// states the exit codes the CLI's own help states.
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { USAGE } from "../../mock/diff/cli.js";
import { section, shLines, withoutComment } from "../readme/documents.js";

const root = path.resolve(import.meta.dirname, "../..");
const { doc } = section("Changing the contract safely");
const diffSection = section("What a change breaks: `npm run diff`").text;
const commands = shLines(diffSection).map(withoutComment);

test("the section is there, with commands", () => {
  expect(commands.length, "commands in its sh block").toBeGreaterThanOrEqual(5);
});

// That each command is a script, bin or flag that exists is test/readme's check of every sh block.
test("every release folder the commands name is recorded", () => {
  const named = commands.flatMap((command) => command.match(/contract-releases\/[\w.-]+/g) ?? []);
  expect(named.length, "release folders named").toBeGreaterThan(0);
  expect(named.filter((folder) => !fs.existsSync(path.join(root, folder))), "named but not recorded").toEqual([]);
});

test("the exit codes are the CLI's", () => {
  const [, codes] = /Exit codes: ([\s\S]*?\.)\n*$/.exec(USAGE) ?? [];
  const flat = (text: string) => text.replace(/\s+/g, " ").trim();
  expect(codes, "the CLI's help states exit codes").toBeDefined();
  expect(flat(doc.text), `${doc.file}'s exit codes differ from \`npm run diff -- --help\``).toContain(flat(`Exit codes: ${codes}`));
});
