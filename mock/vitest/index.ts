// hr-service-mock/vitest: `await expect(sandbox).toHaveReceived(filter, { times, within })`, for
// vitest and for Jest (both take matchers through expect.extend). The matcher calls the received
// object's verify() (startMock's mock, a sandbox from createSandbox(), createHandlers()'s handlers),
// so its failure message is verify's: expected against actual, and the near misses. Nothing of
// vitest is loaded at run time: register it on the expect you use,
//
//   import { expect } from "vitest";
//   import { toHaveReceived } from "hr-service-mock/vitest";
//   expect.extend({ toHaveReceived });
// A type import only (erased at run time): it puts vitest's types in the program for the augmentation below.
import type { MatcherState } from "vitest";
import type { RecordedRequest, RequestFilter, VerifyOptions } from "../app/journal-access.js";

export type { RecordedRequest, RequestFilter, Times, VerifyOptions } from "../app/journal-access.js";

/** What toHaveReceived can ask: anything with the journal's verify(). */
export interface Verifiable {
  verify(filter: RequestFilter, options?: VerifyOptions): Promise<RecordedRequest[]>;
}

/** What expect.extend expects of a matcher's result. */
export interface MatcherResult {
  pass: boolean;
  message: () => string;
}

function isVerifiable(value: unknown): value is Verifiable {
  return typeof value === "object" && value !== null && typeof (value as { verify?: unknown }).verify === "function";
}

/** The matcher: pass it to expect.extend({ toHaveReceived }). */
export async function toHaveReceived(this: Pick<MatcherState, "isNot"> | void, received: unknown, filter: RequestFilter, options?: VerifyOptions): Promise<MatcherResult> {
  if (!isVerifiable(received)) {
    const shown = received === null ? "null" : Array.isArray(received) ? "an array without verify()" : typeof received;
    return { pass: false, message: () => `toHaveReceived asks a mock with a journal: startMock's mock, a sandbox from createSandbox(), or createHandlers()'s handlers; got ${shown}` };
  }
  let found: RecordedRequest[];
  try {
    found = await received.verify(filter, options);
  } catch (error) {
    // A verification that did not hold is the matcher's failure; a mistake in the filter is thrown as it is.
    if ((error as Error)?.name === "VerificationError") return { pass: false, message: () => (error as Error).message };
    throw error;
  }
  return {
    pass: true,
    message: () =>
      [`Expected ${JSON.stringify(filter)} not to be received${options?.within ? ` within ${options.within} ms` : ""}; it was, ${found.length === 1 ? "once" : `${found.length} times`}:`, ...found.slice(0, 5).map((r) => `  - ${r.method} ${r.path} → ${r.status} at ${r.at}`)].join("\n"),
  };
}

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
