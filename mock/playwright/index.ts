// hr-service-mock/playwright: Playwright Test's `test` and `expect`, with the mock. Each test gets
// `sandbox`, a fresh sandbox on the mock at the `mockUrl` option (default HR_MOCK_URL; without
// either, a mock this worker starts on a free port and closes when it ends), with the same `key`,
// `verify()` and `requests()` as startMock's createSandbox() gives, deleted after the test; `mock.url`
// says where the mock is. `expect` is Playwright's own with toHaveReceived(filter, { times, within })
// added (mock/app/journal-matcher.ts, the matcher hr-service-mock/vitest registers too), `.not` included.
//
//   import { test, expect } from "hr-service-mock/playwright";
//   test("asks for page 2", async ({ page, sandbox, mock }) => { …
//     await expect(sandbox).toHaveReceived({ operationId: "listLeaveRequests", query: { PageNumber: 2 } }, { within: 5_000 });
//   });
//
// @playwright/test is a peer dependency this entry alone loads; the mock itself is loaded only when
// the worker has to start one.
import { expect as playwrightExpect, test as playwrightTest, type Expect, type ExpectMatcherState, type MatcherReturnType } from "@playwright/test";
import { toHaveReceived } from "../app/journal-matcher.js";
import { createRemoteSandbox } from "../app/remote-sandbox.js";
import type { MockSandbox } from "../app/sandbox-handle.js";
import type { RequestFilter, VerifyOptions } from "../app/journal-access.js";

export type { MockSandbox } from "../app/sandbox-handle.js";
export type { RecordedRequest, RequestFilter, Times, VerifyOptions } from "../app/journal-access.js";

/** The test-scoped fixtures: a fresh sandbox per test. */
export interface MockTestFixtures {
  sandbox: MockSandbox;
}

/** The worker-scoped option and fixture: where the mock is. */
export interface MockWorkerFixtures {
  /** The running mock to make sandboxes on (default the HR_MOCK_URL variable); unset: the worker starts one. */
  mockUrl: string | undefined;
  /** The mock this worker's sandboxes are made on. */
  mock: { url: string };
}

export const test = playwrightTest.extend<MockTestFixtures, MockWorkerFixtures>({
  mockUrl: [process.env.HR_MOCK_URL || undefined, { scope: "worker", option: true }],
  mock: [
    async ({ mockUrl }, use) => {
      if (mockUrl) return use({ url: mockUrl.replace(/\/+$/, "") });
      const { startMock } = await import("../app/start-mock.js");
      const started = await startMock({ port: 0 });
      try {
        await use({ url: started.url });
      } finally {
        await started.close();
      }
    },
    { scope: "worker" },
  ],
  sandbox: async ({ mock }, use, testInfo) => {
    const sandbox = await createRemoteSandbox({ mockUrl: mock.url, label: testInfo.titlePath.join(" › ").slice(0, 200) });
    try {
      await use(sandbox);
    } finally {
      await sandbox.delete();
    }
  },
});

/** The matcher as Playwright types it (written here, so this entry's declarations name Playwright's types only, not vitest's). */
export type JournalMatchers = {
  /**
   * Passes when the sandbox received requests matching `filter` as often as `times` says (default
   * at least once), waiting up to `within` ms; fails with verify()'s message.
   */
  toHaveReceived(this: ExpectMatcherState, received: unknown, filter: RequestFilter, options?: VerifyOptions): Promise<MatcherReturnType>;
};

export const expect: Expect<JournalMatchers> = playwrightExpect.extend<JournalMatchers>({ toHaveReceived });
