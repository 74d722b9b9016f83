// The landing page's quick starts work as written: every command is an npm script or an hr-mock
// command, every flag is one that command takes, the curl call uses a demo key and a path of the
// spec, and the TypeScript snippet type-checks against the package.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { run as runHrMock } from "../../mock/cli/main.js";
import { DEMO_KEYS } from "../../mock/keys/demo-keys.js";
import { landingFacts, repoRoot } from "../../scripts/build-docs.js";
import { loadGuides } from "../../scripts/docs/guides.js";
import { listEvents, listOperations } from "../../scripts/docs/spec-facts.js";
import { nativeTsc } from "../../scripts/lib/native-tsc.js";
import { FLAGS as CONTRACT_FLAGS } from "../../src/contract/options.js";
import { renderLandingPage } from "../../scripts/docs/landing-page.js";

const readJson = (file: string) => JSON.parse(fs.readFileSync(path.join(repoRoot, file), "utf8"));
const openapi = readJson("generated/openapi.json");
const asyncapi = readJson("generated/asyncapi.json");
const pkg = readJson("package.json");
const guides = await loadGuides(repoRoot, { operations: listOperations(openapi), events: listEvents(asyncapi) });
const facts = landingFacts(openapi, asyncapi, "description", 1, guides);
const html = renderLandingPage(facts, { guides });

const unescape = (text: string) => text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, "&");
/** The code blocks of the page, as a reader copies them. */
const blocks = [...html.matchAll(/<pre><code>([\s\S]*?)<\/code><\/pre>/g)].map((m) => unescape(m[1]));
/** Shell lines of the blocks: continuations joined, comments dropped. */
const shellLines = blocks
  .filter((block) => !/^import /m.test(block))
  .flatMap((block) => block.replace(/\\\n\s*/g, " ").split("\n"))
  .map((line) => line.replace(/\s+#.*$/, "").trim())
  .filter(Boolean);
const commandsOf = (line: string) => line.split("&&").map((part) => part.trim());
const flagsOf = (line: string) => [...line.matchAll(/(?:^|\s)(--[a-z][a-z-]*)/g)].map((m) => m[1]);

describe("the landing page's quick starts", () => {
  test("links every guide, and names the client factory the package exports", () => {
    for (const guide of guides) expect(html, `a link to ${guide.file}`).toContain(`href="${guide.file}"`);
    expect(html, "createClient, the name the README and the guides use").toContain("createClient(");
    expect(html).not.toContain("createHrClient");
  });

  test("has shell commands and a TypeScript snippet to check", () => {
    expect(shellLines.length, `shell lines in ${blocks.length} code blocks`).toBeGreaterThanOrEqual(5);
    expect(blocks.filter((block) => /^import /m.test(block)), "TypeScript snippets").toHaveLength(1);
  });

  test("every npm command names a script of package.json", () => {
    const npm = shellLines.flatMap(commandsOf).filter((command) => command.startsWith("npm "));
    const missing = npm
      .map((command) => command.split(/\s+/))
      .filter(([, verb, ...rest]) => {
        if (verb === "run") return !(rest[0] in pkg.scripts);
        if (verb === "start" || verb === "test") return !(verb in pkg.scripts);
        // No npm install: neither package is on the registry yet (the page points at Getting started's tarballs).
        return verb !== "ci";
      })
      .map((words) => words.join(" "));
    expect(npm.length, "npm commands found").toBeGreaterThan(0);
    expect(missing, "npm commands package.json does not have").toEqual([]);
  });

  test("hr-contract is given only options the suite takes", () => {
    const lines = shellLines.filter((line) => line.startsWith("npx hr-contract") || line.startsWith("npm run contract"));
    expect(lines.length, "contract commands").toBeGreaterThan(0);
    for (const line of lines) expect(flagsOf(line).filter((flag) => !CONTRACT_FLAGS.has(flag)), `unknown options in: ${line}`).toEqual([]);
  });

  describe("hr-mock commands", () => {
    const lines = shellLines.filter((line) => line.startsWith("npx hr-mock ") && line !== "npx hr-mock serve");
    const help = new Map<string, string>();
    beforeAll(async () => {
      // Through the bin's own run(), in this process (test/mock-server/cli.test.ts runs the bin itself).
      for (const command of new Set(lines.map((line) => line.split(/\s+/)[2]))) {
        let stdout = "";
        let stderr = "";
        const status = await runHrMock([command, "--help"], (text) => void (stderr += text), { write: (text: string) => (stdout += text) });
        if (status !== 0) throw new Error(`hr-mock ${command} --help exited ${status}: ${stderr.trim()}`);
        help.set(command, stdout);
      }
    });

    test("serve, receive and trigger are shown, so the loop is complete", () => {
      expect(lines.map((line) => line.split(/\s+/)[2]), "hr-mock commands on the page").toEqual(["serve", "receive", "trigger"]);
    });

    test("each is given only options its --help lists", () => {
      for (const line of lines) {
        const text = help.get(line.split(/\s+/)[2]) ?? "";
        expect(text, `${line}: the command has a usage`).toMatch(/^Usage: hr-mock /);
        expect(flagsOf(line).filter((flag) => !text.includes(flag)), `options not in the --help of: ${line}`).toEqual([]);
      }
    });

    test("the trigger names an event type of the AsyncAPI document, and the receiver listens where serve sends", () => {
      const trigger = lines.find((line) => line.includes(" trigger "))!;
      expect(facts.events.map((event) => event.name), `${trigger}: event type`).toContain(trigger.split(/\s+/)[3]);
      const target = new URL(/--webhook-url (\S+)/.exec(lines.find((line) => line.includes(" serve "))!)![1]);
      const receiver = lines.find((line) => line.includes(" receive "))!;
      expect(/--port (\d+)/.exec(receiver)?.[1], `${receiver}: the port of ${target}`).toBe(target.port);
    });
  });

  test("the curl call uses a demo key that may call it, on a path of the spec, at the mock's address", () => {
    const curl = shellLines.find((line) => line.startsWith("curl "));
    const key = /Bearer ([^"\s]+)/.exec(curl ?? "")?.[1];
    const url = new URL(/(http:\/\/\S+)/.exec(curl ?? "")?.[1] ?? "http://invalid");
    const operation = facts.operations.find((op) => op.path === url.pathname);
    const demo = DEMO_KEYS.find((k) => k.key === key);
    expect({ demoKey: !!demo, specPath: !!operation, origin: url.origin }, `curl line: ${curl}`).toEqual({ demoKey: true, specPath: true, origin: facts.baseUrl });
    expect(demo!.permissions, `${key} may call ${url.pathname}`).toContain(operation!.permission);
  });

  describe("the TypeScript snippet", () => {
    let dir: string;
    beforeAll(() => {
      // A consumer's folder: an ES module project whose tsconfig is the package's, so the entry points resolve as in the README snippet.
      dir = fs.mkdtempSync(path.join(os.tmpdir(), "landing-snippet-"));
      fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ type: "module" }));
      fs.writeFileSync(path.join(dir, "snippet.ts"), blocks.find((block) => /^import /m.test(block))!);
      fs.writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ extends: path.join(repoRoot, "tsconfig.json"), compilerOptions: { types: [] }, include: ["snippet.ts"] }));
    });
    afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

    test("type-checks against the package's entry points", async () => {
      // TypeScript 7 (scripts/lib/native-tsc.ts): node_modules/.bin/tsc may be either version.
      const { status, output } = await nativeTsc(["-p", dir], dir);
      expect(output, "tsc errors in the landing page's snippet").toBe("");
      expect(status, "tsc's exit status").toBe(0);
    }, 120_000);
  });
});
