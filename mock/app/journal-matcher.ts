// toHaveReceived(filter, { times, within }): the journal's matcher, once, for every test runner
// that takes matchers as Jest's expect.extend does (vitest and Jest through hr-service-mock/vitest,
// Playwright through hr-service-mock/playwright). It calls the received object's verify()
// (startMock's mock, a sandbox, createHandlers()'s handlers, the Playwright fixture's sandbox over
// HTTP), so its failure message is verify's: expected against actual, and the near misses.
import type { RecordedRequest, RequestFilter, VerifyOptions } from "./journal-access.js";

/** What toHaveReceived can ask: anything with the journal's verify(). */
export interface Verifiable {
  verify(filter: RequestFilter, options?: VerifyOptions): Promise<RecordedRequest[]>;
}

/** What expect.extend expects of a matcher's result. */
export interface MatcherResult {
  pass: boolean;
  message: () => string;
}

/** The matcher: pass it to expect.extend({ toHaveReceived }). */
export async function toHaveReceived(received: unknown, filter: RequestFilter, options?: VerifyOptions): Promise<MatcherResult> {
  if (typeof (received as Verifiable | null)?.verify !== "function") {
    const shown = received === null ? "null" : Array.isArray(received) ? "an array without verify()" : typeof received;
    return { pass: false, message: () => `toHaveReceived asks a mock with a journal: startMock's mock, a sandbox from createSandbox() or the Playwright fixture, or createHandlers()'s handlers; got ${shown}` };
  }
  let found: RecordedRequest[];
  try {
    found = await (received as Verifiable).verify(filter, options);
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
