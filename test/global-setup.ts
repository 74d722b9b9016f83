// A vitest global setup, run once before any suite and undone after:
// - one mock for the whole run: a suite reads it with `inject("mock")` from vitest: `{ url, keys,
//   ids }`. The rate limit and the throttle on failed authentication are off, so suites sharing
//   the mock cannot starve each other (every suite calls from 127.0.0.1: past 20 refused keys in
//   10 s, each 401 of every suite would be held 1 s);
//   HR_MOCK_TODAY (YYYY-MM-DD) pins the dataset's "today".
// - the run's own folder (`inject("runDir")`), where the things files share are made once
//   (test/support/run-once.ts: the docs site, one Chromium); removed at the end, after every
//   process registered there has been stopped (or by the next run, when this one was killed).
// Wired in vitest.config.ts (`test.globalSetup: ["test/global-setup.ts"]`).
// First: before anything loads Prism.
import "./support/lazy-modules.js";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startMock, type MockKeyInfo, type OrganizationSampleIds } from "../mock/index.js";
import { isAlive } from "../scripts/lib/build-once.mjs";
import { STOP_DIR } from "./support/run-once.js";

export interface SharedMock {
  url: string;
  keys: MockKeyInfo[];
  ids: OrganizationSampleIds[];
  seed: number;
  today: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    mock: SharedMock;
  }
}

/** Kills each process group listed in the run's stop folder. */
function stopListed(runDir: string): void {
  const listed = fs.existsSync(path.join(runDir, STOP_DIR)) ? fs.readdirSync(path.join(runDir, STOP_DIR)) : [];
  for (const pid of listed) {
    try {
      process.kill(-Number(pid), "SIGKILL");
    } catch {
      // Already gone.
    }
  }
}

const RUN_PREFIX = "hr-test-run-";

/** Folders of runs that were killed before their teardown (their vitest is gone): what they started is stopped, the folder removed. */
function removeAbandonedRuns(): void {
  for (const name of fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith(RUN_PREFIX))) {
    const dir = path.join(os.tmpdir(), name);
    const owner = fs.existsSync(path.join(dir, "owner")) ? Number.parseInt(fs.readFileSync(path.join(dir, "owner"), "utf8"), 10) : Number.NaN;
    // A folder whose owner is not written yet belongs to a run starting at this moment.
    if (Number.isNaN(owner) || isAlive(owner)) continue;
    stopListed(dir);
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  removeAbandonedRuns();
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), RUN_PREFIX));
  fs.writeFileSync(path.join(runDir, "owner"), String(process.pid));
  project.provide("runDir", runDir);
  const seed = 1;
  const mock = await startMock({ port: 0, seed, rateLimit: "off", authThrottle: "off", today: process.env.HR_MOCK_TODAY || undefined });
  project.provide("mock", { url: mock.url, keys: mock.keys, ids: mock.ids, seed, today: mock.dataset.today });
  return async () => {
    await mock.close();
    stopListed(runDir);
    fs.rmSync(runDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  };
}
