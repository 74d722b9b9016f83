// docs/guides/verify-what-your-app-sent.md tells the truth: its TypeScript snippet is the test file
// beside this one, verbatim (and so runs with the suite); its failure message is the one verify()
// gives for the requests it describes; its 404 is the mock's; its bounds are the control document's;
// its commands parse, and hr-mock coverage runs as written against a mock (the address aside).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { mockLimits } from "../../generated/control-facts.js";
import { startMock, type RunningMock } from "../../mock/index.js";
import { run } from "../../mock/cli/main.js";
import { parseArgs } from "../../src/contract/options.js";
import { createClient } from "../../src/client/index.js";
import { repoRoot } from "../../scripts/lib/spec-document.js";

const GUIDE = "docs/guides/verify-what-your-app-sent.md";
const guide = fs.readFileSync(path.join(repoRoot, GUIDE), "utf8");
const snippets = [...guide.matchAll(/<!-- snippet: (\S+) -->\n```ts\n([\s\S]*?)\n```/g)];
const texts = [...guide.matchAll(/```text\n([\s\S]*?)\n```/g)].map((m) => m[1]);
const commands = [...guide.matchAll(/```sh\n([\s\S]*?)\n```/g)].flatMap((m) => m[1].split("\n")).filter((line) => line.trim() && !line.startsWith("#"));

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ port: 0, rateLimit: "off" });
});
afterAll(() => mock.close());

describe(GUIDE, () => {
  it("has the section 'Verify what your app sent'", () => {
    expect(guide).toMatch(/^## Verify what your app sent$/m);
  });

  it("embeds the vitest example and the Playwright one, which this suite runs (test/playwright/fixture.test.ts)", () => {
    expect(snippets.map((m) => m[1])).toEqual(["test/guides/verify-snippet.test.ts", "test/playwright/fixture/leave-screen.spec.ts"]);
  });

  it.each(snippets.map((m) => [m[1], m[2]] as [string, string]))("snippet %s is the file, verbatim", (file, text) => {
    const source = fs.readFileSync(path.join(repoRoot, file), "utf8").trimEnd();
    expect(text, `the guide's copy of ${file} differs from the file; paste the file again`).toBe(source);
  });

  it("shows the failure verify gives when the screen asks for page 1 and once with a misspelt status", async () => {
    const sandbox = await mock.createSandbox({ label: "the guide's failure" });
    const client = createClient({ baseUrl: mock.url, apiKey: sandbox.key.org1Full, retry: false });
    await client.listLeaveRequests({ LeaveStatus: "Approved", PageNumber: 1 });
    await client.listLeaveRequests({ LeaveStatus: "Aproved" as never, PageNumber: 2 }).catch(() => undefined);
    // verify waits its 5 s on the test's timers, which pass them at once: no request is on its way.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    let message: string;
    try {
      const verdict = sandbox
        .verify({ operationId: "listLeaveRequests", query: { PageNumber: 2, LeaveStatus: "Approved" }, status: 200 }, { times: 1, within: 5_000 })
        .then(() => "no failure", (error: Error) => error.message);
      await vi.advanceTimersByTimeAsync(5_000);
      message = await verdict;
    } finally {
      vi.useRealTimers();
    }
    expect(texts[0], "the guide's message is verify's, for the requests it describes").toBe(message);
  });

  it("shows the 404 the mock answers", async () => {
    const answer = await fetch(`${mock.url}/v1/leaverequests`, { headers: { authorization: "Bearer demo_org1_full" } }).then((r) => r.json());
    expect(texts[1]).toBe(answer.message);
  });

  it("states the journal's bounds as the control document does", () => {
    const text = guide.replace(/\s+/g, " ");
    expect(text).toContain(`last ${mockLimits.journalPerWorld.toLocaleString("en")} requests`);
    expect(text).toContain(`first ${mockLimits.journalBodyBytes.toLocaleString("en")} bytes`);
    expect(text).toContain(`URLs cut to their first ${mockLimits.journalUrlBytes.toLocaleString("en")} bytes`);
    expect(text).toContain(`All worlds' journals together hold at most ${mockLimits.journalMemoryMb} MB`);
  });

  it("gives hr-mock coverage and hr-contract --coverage commands that parse", () => {
    expect(commands.map((c) => c.split(" ").slice(0, 3).join(" "))).toEqual(["npx hr-mock coverage", "npx hr-contract --base-url"]);
    expect(parseArgs(commands[1].split(/\s+/).slice(2)).kind).toBe("run");
  });

  it("its hr-mock coverage command runs as written: the table, the JSON file, exit 1 below --min", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "guide-coverage-"));
    const argv = commands[0].split(/\s+/).slice(2).map((arg) => (arg === "http://127.0.0.1:4010" ? mock.url : arg.startsWith("test-artifacts/") ? path.join(dir, arg) : arg));
    fs.mkdirSync(path.join(dir, "test-artifacts"));
    let stdout = "";
    let stderr = "";
    try {
      const code = await run(argv, (t) => void (stderr += t), { write: (t: string) => (stdout += t) });
      // This mock's demo world saw a request or two of this file, far below 80 %.
      expect({ code, stderr }).toEqual({ code: 1, stderr: expect.stringMatching(/^hr-mock coverage: [\d.]+% of the read API's operations were exercised, below --min 80; never exercised: /) });
      expect(stdout).toMatch(/^API \(hr-mock, default\): /);
      expect(JSON.parse(fs.readFileSync(path.join(dir, "test-artifacts/app-coverage.json"), "utf8")).tool).toBe("hr-mock");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
