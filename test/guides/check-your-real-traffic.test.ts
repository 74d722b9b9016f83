// docs/guides/check-your-real-traffic.md tells the truth: its TypeScript snippet is the test file
// beside this one, verbatim (and so runs with the suite); its commands parse as written; its
// defaults, paths and report fields are the code's; its example lines have the form the proxy prints.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PROXY_DEFAULTS, PROXY_PREFIX } from "../../mock/app/proxy-options.js";
import { parseProxyArgs } from "../../mock/cli/commands/proxy.js";
import { parseServeArgs } from "../../mock/cli/commands/serve.js";
import { createTally } from "../../mock/edges/proxy/tally.js";
import { repoRoot } from "../../scripts/lib/spec-document.js";
import { SECURITY_RULES } from "../../src/contract/key-evidence.js";

const GUIDE = "docs/guides/check-your-real-traffic.md";
const guide = fs.readFileSync(path.join(repoRoot, GUIDE), "utf8");
const flat = guide.replace(/\s+/g, " ");
const snippets = [...guide.matchAll(/<!-- snippet: (\S+) -->\n```ts\n([\s\S]*?)\n```/g)];
const shell = [...guide.matchAll(/```sh\n([\s\S]*?)\n```/g)].flatMap((m) => m[1].split("\n"));
const examples = [...guide.matchAll(/```text\n([\s\S]*?)\n```/g)].flatMap((m) => m[1].split("\n"));

describe(GUIDE, () => {
  it("has the section 'Check your real traffic'", () => {
    expect(guide).toMatch(/^## Check your real traffic$/m);
  });

  it.each(snippets.map((m) => [m[1], m[2]] as [string, string]))("snippet %s is the file, verbatim", (file, text) => {
    expect(snippets).toHaveLength(1);
    const source = fs.readFileSync(path.join(repoRoot, file), "utf8").trimEnd();
    expect(text, `the guide's copy of ${file} differs from the file; paste the file again`).toBe(source);
  });

  it("gives hr-mock commands that parse as written", () => {
    const commands = shell.filter((line) => line.startsWith("npx hr-mock "));
    expect(commands.map((c) => c.split(/\s+/).slice(0, 3).join(" "))).toEqual(["npx hr-mock proxy", "npx hr-mock proxy", "npx hr-mock proxy", "npx hr-mock serve"]);
    for (const command of commands) {
      const [, , verb, ...args] = command.replace(/ &$/, "").replace(/"\$HR_STAGING_URL"/g, "https://hr.staging.example.com").split(/\s+/);
      const parse = verb === "proxy" ? parseProxyArgs : parseServeArgs;
      expect(() => parse(args), command).not.toThrow();
    }
  });

  it("states the defaults and the proxy's own path as the code has them", () => {
    expect(flat).toContain(`default ${PROXY_DEFAULTS.timeoutMs / 1000} seconds`);
    expect(flat).toContain(`default ${PROXY_DEFAULTS.maxBodyBytes / 1024 / 1024} MiB`);
    expect(flat).toContain(`Answers over ${PROXY_DEFAULTS.maxCheckBytes / 1024 / 1024} MiB`);
    expect(flat).toContain(`at most ${PROXY_DEFAULTS.maxUpstreamConnections} connections go to the upstream`);
    expect(flat).toContain(`127.0.0.1:${PROXY_DEFAULTS.port}`);
    for (const named of guide.matchAll(/\/_proxy\/\w+/g)) expect(named[0]).toBe(`${PROXY_PREFIX}report`);
  });

  it("names only report fields the report has", () => {
    const report = createTally({ upstream: "u", maxListed: 1, now: () => new Date(0) }).report();
    const fields = [...guide.matchAll(/`((?:exchanges|violations)\.\w+|exitCode)`/g)].map((m) => m[1]);
    expect(fields.length).toBeGreaterThan(5);
    for (const field of fields) expect(field.split(".").reduce((at: any, key) => at?.[key], report), field).toBeDefined();
  });

  it("names every security rule the proxy reports, and no other", () => {
    const named = [...new Set([...guide.matchAll(/`(security\.[\w-]+)`/g)].map((m) => m[1]))];
    expect(named.sort()).toEqual(Object.values(SECURITY_RULES).sort());
  });

  it("shows violation lines in the form the proxy prints", () => {
    const lines = examples.filter((line) => line.startsWith("VIOLATION "));
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).toMatch(/^VIOLATION \w+ (request|answer) [\w.-]+ \/\S*: .+ \[GET \/\S+ → \d{3}\]$/);
  });
});
