// The README tells the truth: its snippets are the type-checked files, its commands exist, and its
// key table is the mock's.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEMO_KEYS } from "../../mock/keys/demo-keys.js";
import { repoRoot } from "../../scripts/lib/spec-document.js";

const readme = fs.readFileSync(path.join(repoRoot, "README.md"), "utf8");
const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8"));

describe("README", () => {
  const snippets = [...readme.matchAll(/<!-- snippet: (\S+) -->\n```ts\n([\s\S]*?)\n```/g)];

  it("embeds snippets", () => {
    expect(snippets.map((m) => m[1]), "README snippets").toEqual(["test/client/readme-snippet.ts", "test/readme/receiver-snippet.ts"]);
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

  it("gives the two set-up commands", () => {
    expect(readme).toContain("npm ci && npm start");
    expect(readme).toContain("npm ci && npm test");
    expect(pkg.scripts.start, "npm start").toBeDefined();
    expect(pkg.scripts.test, "npm test").toBeDefined();
  });
});
