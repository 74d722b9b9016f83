// The README's "Changing the contract safely" section names only commands, files and folders that
// exist, and states the exit codes the CLI's own help states.
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { USAGE } from "../../mock/diff/cli.js";

const root = path.resolve(import.meta.dirname, "../..");
const readme = fs.readFileSync(path.join(root, "README.md"), "utf8");
const scripts = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).scripts as Record<string, string>;
const section = /## Changing the contract safely\n([\s\S]*?)\n## /.exec(readme)?.[1] ?? "";
const commands = (/```sh\n([\s\S]*?)\n```/.exec(section)?.[1] ?? "")
  .split("\n")
  .map((line) => line.replace(/#.*$/, "").trim())
  .filter(Boolean);

test("the section is there, with commands", () => {
  expect(section, 'README has no "## Changing the contract safely" section').not.toBe("");
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
  expect(flat(section), "README's exit codes differ from `npm run diff -- --help`").toContain(flat(`Exit codes: ${codes}`));
});
