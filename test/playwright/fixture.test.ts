// hr-service-mock/playwright in a real Playwright Test run (one child process: `playwright test`
// with test/playwright/fixture/playwright.config.ts): two spec files on two workers at once, headless
// on Debian's Chromium, each test with a sandbox on the run's mock (HR_MOCK_URL), and the guide's
// example (leave-screen.spec.ts, docs/guides/verify-what-your-app-sent.md). Each of two files' pages
// sends its own request and meets the other file after both were answered: each journal holds its
// own request and not the other's (toHaveReceived and .not); a test whose request never came fails
// with the journal's message.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, inject, test } from "vitest";
import { repoRoot } from "../../scripts/lib/spec-document.js";

interface Result {
  status: string;
  workerIndex: number;
  errors: { message?: string }[];
}
interface Suite {
  specs?: { title: string; file: string; tests: { results: Result[] }[] }[];
  suites?: Suite[];
}

/** Runs the fixture project and answers its JSON report (Playwright exits 1: one test fails on purpose). */
async function runPlaywright(env: Record<string, string>): Promise<{ report: { suites: Suite[] }; stderr: string }> {
  const child = spawn(process.execPath, [path.join(repoRoot, "node_modules", "@playwright", "test", "cli.js"), "test", "--config", "test/playwright/fixture/playwright.config.ts", "--reporter=json"], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  await new Promise((resolve) => child.on("close", resolve));
  try {
    return { report: JSON.parse(stdout), stderr };
  } catch {
    throw new Error(`playwright test printed no JSON report: ${stdout.slice(0, 2000)}${stderr.slice(0, 2000)}`);
  }
}

function results(suites: Suite[]): Map<string, Result> {
  const found = new Map<string, Result>();
  for (const suite of suites) {
    for (const spec of suite.specs ?? []) found.set(`${path.basename(spec.file)} › ${spec.title}`, spec.tests[0]!.results[0]!);
    for (const [name, result] of results(suite.suites ?? [])) found.set(name, result);
  }
  return found;
}

test("two workers at once: each test's journal its own, a failing toHaveReceived prints the journal's message", async () => {
  const output = fs.mkdtempSync(path.join(os.tmpdir(), "hr-playwright-"));
  try {
    const { report, stderr } = await runPlaywright({ HR_MOCK_URL: inject("mock").url, MEET_NONCE: path.basename(output), PLAYWRIGHT_OUTPUT: output });
    const got = results(report.suites);
    const own = (file: string) => got.get(`${file} › the journal holds this test's request, not the other worker's`);
    const summary = [...got].map(([name, r]) => [name, r.status, r.errors.map((e) => e.message?.split("\n")[0]).join(" | ")]);
    expect(summary, stderr).toEqual([
      ["leave-screen.spec.ts › the leave screen asks for page 2 of the approved requests, once", "passed", ""],
      ["page-1.spec.ts › the journal holds this test's request, not the other worker's", "passed", ""],
      ["page-2.spec.ts › the journal holds this test's request, not the other worker's", "passed", ""],
      ["page-2.spec.ts › a request never sent fails with the journal's message", "failed", expect.stringContaining("Expected listEmployees (GET /v1/employee/list) to be received exactly once; it was received 0 times")],
    ]);
    expect(new Set([own("page-1.spec.ts")!.workerIndex, own("page-2.spec.ts")!.workerIndex]).size, "the two files ran on two workers").toBe(2);
    expect(got.get("page-2.spec.ts › a request never sent fails with the journal's message")!.errors[0]!.message).toContain("The journal is empty: no request reached this world.");
  } finally {
    fs.rmSync(output, { recursive: true, force: true });
  }
});
