// A vitest global setup: one mock for the whole run, started before any suite and closed after.
// Wire it in vitest.config.ts (`test.globalSetup: ["test/global-setup.ts"]`); a suite reads it with
// `inject("mock")` from vitest: `{ url, keys, ids }`. The rate limit is off so suites sharing the
// mock cannot starve each other; HR_MOCK_TODAY (YYYY-MM-DD) pins the dataset's "today".
import type { TestProject } from "vitest/node";
import { startMock, type MockKeyInfo, type OrganizationSampleIds } from "../mock/index.js";

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

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const seed = 1;
  const mock = await startMock({ port: 0, seed, rateLimit: "off", today: process.env.HR_MOCK_TODAY || undefined });
  project.provide("mock", { url: mock.url, keys: mock.keys, ids: mock.ids, seed, today: mock.dataset.today });
  return () => mock.close();
}
