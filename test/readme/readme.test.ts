// The README tells the truth: its snippets are the type-checked files, its commands exist, and its
// key table is the mock's.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FLAGS as CONTRACT_FLAGS } from "../../src/contract/options.js";
import { DEMO_KEYS } from "../../mock/keys/demo-keys.js";
import { HELP } from "../../mock/cli/main.js";
import { SERVE_HELP } from "../../mock/cli/commands/serve.js";
import { EXPORT_HELP } from "../../mock/cli/commands/export.js";
import { RECEIVE_HELP } from "../../mock/cli/commands/receive.js";
import { SCENARIO_HELP } from "../../mock/cli/commands/scenario.js";
import { TRIGGER_HELP } from "../../mock/cli/commands/trigger.js";
import { COVERAGE_HELP } from "../../mock/cli/commands/coverage.js";
import { USAGE as DIFF_HELP } from "../../mock/diff/cli.js";
import { repoRoot } from "../../scripts/lib/spec-document.js";

const readme = fs.readFileSync(path.join(repoRoot, "README.md"), "utf8");
const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8"));
const mockPkg = JSON.parse(fs.readFileSync(path.join(repoRoot, "mock/package.json"), "utf8"));

/** Every command of the README's sh blocks, as a reader copies it: comments dropped, && split. */
const commands = [...readme.matchAll(/```sh\n([\s\S]*?)\n```/g)]
  .flatMap((m) => m[1].split("\n"))
  .map((line) => line.replace(/\s+#.*$/, "").trim())
  .filter(Boolean)
  .flatMap((line) => line.split("&&").map((part) => part.trim()))
  // An environment assignment before a command (CONTRACT_BASE=ref npm run diff) is the shell's.
  .map((command) => command.replace(/^([A-Z][A-Z0-9_]*=\S*\s+)+/, ""));
const flagsOf = (line: string) => [...line.matchAll(/(?:^|\s)(--[a-z][a-z-]*)/g)].map((m) => m[1]);
/**
 * What `hr-mock <command> --help` prints, by command: the texts the commands print (read here, not
 * from child processes; test/mock-server/cli.test.ts runs the bin itself). The first test below holds
 * this list to the commands `hr-mock --help` names.
 */
const MOCK_HELP: Record<string, string> = { serve: SERVE_HELP, receive: RECEIVE_HELP, trigger: TRIGGER_HELP, scenario: SCENARIO_HELP, export: EXPORT_HELP, diff: DIFF_HELP, coverage: COVERAGE_HELP };
const mockHelp = (command: string) => MOCK_HELP[command] ?? "";

describe("README", () => {
  it("checks flags against every command hr-mock --help names", () => {
    const named = [...HELP.matchAll(/^ {2}([a-z]+) {2,}/gm)].map((m) => m[1]);
    expect(Object.keys(MOCK_HELP).sort(), "commands of hr-mock --help without a help text here").toEqual(named.sort());
  });

  const snippets = [...readme.matchAll(/<!-- snippet: (\S+) -->\n```ts\n([\s\S]*?)\n```/g)];

  it("embeds snippets", () => {
    expect(snippets.map((m) => m[1]), "README snippets").toEqual(["test/client/readme-snippet.ts", "test/readme/sandbox-snippet.test.ts", "test/readme/msw-snippet.test.ts", "test/readme/receiver-snippet.ts", "test/readme/edge-snippet.ts"]);
  });

  it.each(snippets.map((m) => [m[1], m[2]] as [string, string]))("snippet %s is the type-checked file, verbatim", (file, text) => {
    const source = fs.readFileSync(path.join(repoRoot, file), "utf8").trimEnd();
    expect(text, `README's copy of ${file} differs from the file; paste the file again`).toBe(source);
  });

  it("names only npm scripts that exist", () => {
    const named = [...readme.matchAll(/npm run ([\w:-]+)/g)].map((m) => m[1]);
    expect(named.length).toBeGreaterThan(3);
    const missing = [...new Set(named)].filter((name) => !(name in pkg.scripts));
    expect(missing, "README names npm scripts that package.json does not have").toEqual([]);
  });

  it("lists every demo key with its organisation and permissions, as the mock defines them", () => {
    for (const key of DEMO_KEYS) {
      const row = readme.split("\n").find((line) => line.startsWith(`| \`${key.key}\``));
      expect(row, `README has no row for demo key ${key.key}`).toBeDefined();
      expect(row, `${key.key}: organisation`).toContain(`| ${key.organisation} |`);
      const permissions = key.permissions.length ? key.permissions.join(", ") : "none";
      expect(row, `${key.key}: permissions`).toContain(`| ${permissions} |`);
    }
  });

  it("shows only commands that exist: npm scripts, this repository's packages, their bins and flags", () => {
    const problems: string[] = [];
    const ours = [pkg.name, mockPkg.name];
    const bins = { ...pkg.bin, ...mockPkg.bin } as Record<string, string>;
    for (const command of commands) {
      const [tool, verb, ...rest] = command.split(/\s+/);
      if (tool === "npm") {
        if (verb === "run" && !(rest[0] in pkg.scripts)) problems.push(`${command}: no script ${rest[0]}`);
        else if ((verb === "start" || verb === "test") && !(verb in pkg.scripts)) problems.push(`${command}: no ${verb} script`);
        else if (verb === "install" && rest.filter((w) => !w.startsWith("-")).some((name) => !ours.includes(name))) problems.push(`${command}: not one of ${ours.join(", ")}`);
        else if (!["run", "start", "test", "install", "ci"].includes(verb)) problems.push(`${command}: unexpected npm ${verb}`);
      } else if (tool === "npx") {
        if (!(verb in bins)) problems.push(`${command}: no bin ${verb} in either package`);
        else if (verb === "hr-contract") problems.push(...flagsOf(command).filter((f) => !CONTRACT_FLAGS.has(f)).map((f) => `${command}: hr-contract takes no ${f}`));
        else {
          const help = mockHelp(rest[0]);
          if (!help.startsWith(`Usage: hr-mock ${rest[0]}`)) problems.push(`${command}: hr-mock has no command ${rest[0]}`);
          problems.push(...flagsOf(command).filter((f) => !help.includes(f)).map((f) => `${command}: not in hr-mock ${rest[0]} --help: ${f}`));
        }
      } else if (tool !== "curl") problems.push(`${command}: an unchecked command`);
    }
    expect(commands.length, "commands found in sh blocks").toBeGreaterThan(8);
    expect(problems, "README commands that do not exist as written").toEqual([]);
  }, 120_000);

  it("gives the two set-up commands", () => {
    expect(readme).toContain("npm ci && npm start");
    expect(readme).toContain("npm ci && npm test");
    expect(pkg.scripts.start, "npm start").toBeDefined();
    expect(pkg.scripts.test, "npm test").toBeDefined();
  });
});
