// docs/guides/receiving-webhooks.md tells the truth: its TypeScript snippet is the test file beside
// this one, verbatim (and so runs with the suite), and its command runs as written against a
// receiver that keeps the rules, the URL's host and port aside (the test's receiver has a free port).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { deliveryRules, signatureFailureStatus } from "../../generated/webhook-facts.js";
import { main } from "../../src/contract/cli.js";
import { parseReceiverArgs } from "../../src/contract/receiver/options.js";
import { createReceiver, listen } from "../../src/webhooks/node/index.js";
import { repoRoot } from "../../scripts/lib/spec-document.js";

const GUIDE = "docs/guides/receiving-webhooks.md";
const guide = fs.readFileSync(path.join(repoRoot, GUIDE), "utf8");
const snippets = [...guide.matchAll(/<!-- snippet: (\S+) -->\n```ts\n([\s\S]*?)\n```/g)];
const commands = [...guide.matchAll(/```sh\n([\s\S]*?)\n```/g)].flatMap((m) => m[1].split("\n")).filter((line) => line.trim() && !line.startsWith("#"));

describe(GUIDE, () => {
  it("has the section 'Check your receiver'", () => {
    expect(guide).toMatch(/^## Check your receiver$/m);
  });

  it("states the rules' numbers as the documents do", () => {
    const { signatureToleranceSeconds: tolerance, responseTimeoutSeconds: answer } = deliveryRules;
    for (const phrase of [`at most ${tolerance} seconds`, `answered ${signatureFailureStatus}`, `within ${answer} seconds`, `\`t\` ${tolerance + 1} seconds old`, `\`t\` ${tolerance - 1} seconds old`, `of the ${answer} seconds`]) {
      expect(guide.replace(/\s+/g, " "), phrase).toContain(phrase);
    }
  });

  it("embeds the vitest form, which this suite runs", () => {
    expect(snippets.map((m) => m[1])).toEqual(["test/guides/check-receiver-snippet.test.ts"]);
  });

  it.each(snippets.map((m) => [m[1], m[2]] as [string, string]))("snippet %s is the file, verbatim", (file, text) => {
    const source = fs.readFileSync(path.join(repoRoot, file), "utf8").trimEnd();
    expect(text, `the guide's copy of ${file} differs from the file; paste the file again`).toBe(source);
  });

  it("gives one command, hr-contract receiver", () => {
    expect(commands).toHaveLength(1);
    expect(commands[0]).toMatch(/^npx hr-contract receiver /);
  });

  it("the command runs as written: a receiver with its secret passes, the reports are where it says", async () => {
    const argv = commands[0].split(/\s+/).slice(3);
    const parsed = parseReceiverArgs(argv, {});
    if (parsed.kind !== "run") throw new Error(`the guide's command does not parse: ${JSON.stringify(parsed)}`);
    const server = await listen(createReceiver({ secret: parsed.options.secret, onEvent() {} }), { port: 0 });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "guide-"));
    // Only the host and port change (the test's receiver listens on a free port), and the reports go to a temporary folder.
    const url = new URL(parsed.options.url);
    const given = argv.map((arg) =>
      arg === parsed.options.url ? `${server.url}${url.pathname}` : arg === parsed.options.junitFile || arg === parsed.options.jsonFile ? path.join(dir, arg) : arg,
    );
    let stdout = "";
    try {
      const code = await main(["receiver", ...given], {}, { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: () => true } });
      expect(code, stdout).toBe(0);
      expect(JSON.parse(fs.readFileSync(path.join(dir, parsed.options.jsonFile!), "utf8")).ok).toBe(true);
      expect(fs.readFileSync(path.join(dir, parsed.options.junitFile), "utf8")).toMatch(/^<\?xml/);
    } finally {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
