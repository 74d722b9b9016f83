// hr-service-mock/vitest: `await expect(sandbox).toHaveReceived(filter, { times, within })`, for
// vitest and for Jest (both take matchers through expect.extend; the matcher, shared with
// hr-service-mock/playwright, is mock/app/journal-matcher.ts). Nothing of vitest is loaded at run
// time: register it on the expect you use,
//
//   import { expect } from "vitest";
//   import { toHaveReceived } from "hr-service-mock/vitest";
//   expect.extend({ toHaveReceived });
// A type import only (erased at run time): it puts vitest's types in the program for the augmentation below.
import type {} from "vitest";
import type { RequestFilter, VerifyOptions } from "../app/journal-access.js";
import { toHaveReceived } from "../app/journal-matcher.js";

export type { RecordedRequest, RequestFilter, Times, VerifyOptions } from "../app/journal-access.js";
export { toHaveReceived, type MatcherResult, type Verifiable } from "../app/journal-matcher.js";

/** Every matcher of this module, for expect.extend(journalMatchers). */
export const journalMatchers = { toHaveReceived };

// Vitest 3.2 and later read custom matchers' types from Matchers (expect(), expect.extend and expect.*).
declare module "vitest" {
  interface Matchers<T = any> {
    /**
     * Resolves when the mock, sandbox or handlers received requests matching `filter` as often as
     * `times` says (default at least once), waiting up to `within` ms; fails with verify()'s message.
     */
    toHaveReceived(filter: RequestFilter, options?: VerifyOptions): Promise<void>;
  }
}
