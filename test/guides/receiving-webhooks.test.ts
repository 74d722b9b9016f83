// The "Check your receiver" section of docs/guides/receiving-webhooks.md tells the truth: its numbers
// are the documents' rules, its vitest form is the test file beside this one (test/readme/documents
// checks it verbatim, and the suite runs it), and its command runs as written against a receiver that
// keeps the rules, the URL's host and port aside (the test's receiver has a free port).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { deliveryRules, signatureFailureStatus } from "../../generated/webhook-facts.js";
import { main } from "../../src/contract/cli.js";
import { parseReceiverArgs } from "../../src/contract/receiver/options.js";
import { createReceiver, listen } from "../../src/webhooks/node/index.js";
import { commands as commandsOf, fencedBlocks, section } from "../readme/documents.js";

const { doc, text: guide } = section("Check your receiver");
const snippets = fencedBlocks(guide).flatMap((block) => (block.snippet ? [block.snippet] : []));
const commands = commandsOf(guide);

describe(`${doc.file}: Check your receiver`, () => {
  it("states the rules' numbers as the documents do", () => {
    const { signatureToleranceSeconds: tolerance, responseTimeoutSeconds: answer } = deliveryRules;
    for (const phrase of [`at most ${tolerance} seconds`, `answered ${signatureFailureStatus}`, `within ${answer} seconds`, `\`t\` ${tolerance + 1} seconds old`, `\`t\` ${tolerance - 1} seconds old`, `of the ${answer} seconds`]) {
      expect(guide.replace(/\s+/g, " "), phrase).toContain(phrase);
    }
  });

  it("embeds the vitest form, which this suite runs", () => {
    expect(snippets).toEqual(["test/guides/check-receiver-snippet.test.ts"]);
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
