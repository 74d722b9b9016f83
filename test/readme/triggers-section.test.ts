// The guide's "Triggers with your data, and scenario files" runs as written: its example scenario
// is the committed file, and each command of its sh block runs in-process against a mock (the
// guide's default address swapped for the test's), answering success.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { scenarioCommand } from "../../mock/cli/commands/scenario.js";
import { triggerCommand } from "../../mock/cli/commands/trigger.js";
import { DEFAULT_MOCK_URL } from "../../mock/cli/commands/trigger.js";
import { startMock, type RunningMock } from "../../mock/index.js";
import { repoRoot } from "../../scripts/lib/spec-document.js";
import { register, TestReceiver } from "../webhooks-engine/support.js";
import { fencedBlocks, section, shLines, words } from "./documents.js";

const text = section("Triggers with your data, and scenario files").text;
const commands = shLines(text);

let mock: RunningMock;
let receiver: TestReceiver;
beforeAll(async () => {
  [mock, receiver] = await Promise.all([startMock({ port: 0, today: "2026-11-23", webhooks: { timeScale: 0.0001 } }), new TestReceiver().start()]);
  await register(mock, receiver); // as `hr-mock serve --webhook-url` does
});
afterAll(async () => {
  await mock?.close();
  await receiver?.close();
});

describe("the guide: Triggers with your data, and scenario files", () => {
  test("the example scenario shown is the committed file", () => {
    const shown = fencedBlocks(text).find((block) => block.lang === "yaml");
    expect(shown, "a yaml block in the section").toBeDefined();
    expect(shown!.snippet, "marked as the file it shows").toBe("examples/scenarios/leave-approved.yaml");
    expect(`${shown!.body}\n`).toBe(fs.readFileSync(path.join(repoRoot, "examples/scenarios/leave-approved.yaml"), "utf8"));
  });

  test("every command runs and succeeds; the delivery log's last three are the scenario's, in order", async () => {
    expect(commands.length, "commands in the section's sh block").toBe(4);
    const out: string[] = [];
    const io = { stdout: { write: (t: string) => out.push(t) }, stderr: { write: (t: string) => out.push(`stderr: ${t}`) }, wait: async () => {} };
    let last: any;
    for (const command of commands) {
      const [tool, ...rest] = words(command.replaceAll(DEFAULT_MOCK_URL, mock.url));
      if (tool === "npx") {
        const [bin, name, ...args] = rest;
        expect(bin).toBe("hr-mock");
        const run = name === "trigger" ? triggerCommand : name === "scenario" ? scenarioCommand : undefined;
        expect(run, `${command}: a command this test knows`).toBeDefined();
        const cwdArgs = args.map((a) => (a.startsWith("examples/") ? path.join(repoRoot, a) : a));
        expect(await run!([...cwdArgs, "--mock-url", mock.url], io), `${command}\n${out.join("")}`).toBe(0);
      } else {
        expect(tool).toBe("curl");
        const [, header, url] = rest;
        const [name, value] = header.split(": ");
        const response = await fetch(url, { headers: { [name]: value } });
        expect(response.status).toBe(200);
        last = await response.json();
      }
    }
    expect(last.data.map((d: { type: string }) => d.type).reverse()).toEqual(["employee.created", "leave.requested", "leave.approved"]);
  });
});
