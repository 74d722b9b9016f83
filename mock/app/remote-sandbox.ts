// A sandbox on a mock running elsewhere (hr-mock serve, a container, startMock in another process),
// made and asked over HTTP through the control API: the same `key`, `verify()`, `requests()`,
// `pact()`, `reset()` and `delete()` as startMock's createSandbox() gives in process. verify() asks
// POST /_mock/requests/verify, which judges the journal where it is (one implementation, verify.ts)
// and waits there for requests still on their way: nothing polls, and the asking is one control call.
import { CONTROL_TIMEOUT_MS, controlAnswer, createControlClient } from "../kernel/control-client.js";
import { MockOptionError } from "../kernel/option-error.js";
import { DEMO_KEY } from "../keys/demo-keys.js";
import type { SandboxView } from "../operations/control/sandboxes.js";
import { answeredBy, SandboxError, sandboxHandle, sandboxKeyNames, type MockSandbox } from "./sandbox-handle.js";
import { VerificationError, type PactFile, type PactOptions, type RecordedRequest, type RequestFilter, type VerifyOptions } from "./journal-access.js";

export interface RemoteSandboxOptions {
  /** The running mock (http://127.0.0.1:4010). */
  mockUrl: string | URL;
  /** Shown in the mock's list of sandboxes, such as the test's title. */
  label?: string;
  /** A key of the mock's default world holding Manage Webhooks, which creates and deletes the sandbox (default demo_org1_webhooks_admin). */
  apiKey?: string;
  /** Default the global fetch. */
  fetch?: (request: Request) => Promise<Response>;
}

/** Creates a sandbox on the mock at `mockUrl`; rejects with a SandboxError naming the mock's refusal, or why it could not be reached. */
export async function createRemoteSandbox({ mockUrl, label, apiKey = DEMO_KEY.org1WebhooksAdmin, fetch }: RemoteSandboxOptions): Promise<MockSandbox> {
  const admin = createControlClient({ baseUrl: mockUrl, apiKey, fetch });
  const answered = answeredBy(mockUrl, "line");
  const view = await answered<SandboxView>(admin.POST("/_mock/sandboxes", { body: label === undefined ? {} : { label } }));

  async function verify(filter: RequestFilter, options: VerifyOptions = {}): Promise<RecordedRequest[]> {
    // The sandbox's own admin key: the journal asked is the sandbox's.
    const within = typeof options.within === "number" && Number.isFinite(options.within) ? Math.max(0, options.within) : 0;
    const own = createControlClient({ baseUrl: mockUrl, apiKey: sandboxKeyNames(view).org1WebhooksAdmin, fetch, timeoutMs: within + CONTROL_TIMEOUT_MS });
    const body = { filter: onTheWire(filter), times: options.times, within: options.within };
    const answer = await controlAnswer(own.POST("/_mock/requests/verify", { body: body as never }), mockUrl);
    if (!answer.ok) throw answer.status === 400 ? new MockOptionError(answer.message) : new SandboxError(answer.status, answer.line);
    const result = answer.data;
    if (!result.held) throw new VerificationError(result.message ?? "the verification did not hold", result.actual, result.nearMisses);
    return result.requests as RecordedRequest[];
  }

  return sandboxHandle(view, admin, answered, {
    verify,
    // Every matching request: a verification that always holds answers them all.
    requests: (filter = {}) => verify(filter, { times: { atLeast: 0 } }),
    // The sandbox's journal as a Pact file, made where the journal is (GET /_mock/requests?format=pact).
    pact: async ({ consumer, provider }: PactOptions): Promise<PactFile> => {
      const file = await answered<PactFile>(admin.GET("/_mock/requests", { params: { query: { format: "pact", consumer, sandbox: view.id } } }));
      return provider === undefined ? file : { ...file, provider: { name: provider } };
    },
  });
}

/** The filter as JSON carries it: `since` as an ISO 8601 text (a Date or milliseconds in process). */
function onTheWire(filter: RequestFilter): unknown {
  if (typeof filter !== "object" || filter === null || filter.since === undefined || typeof filter.since === "string") return filter;
  const since = new Date(filter.since);
  return { ...filter, since: Number.isNaN(since.getTime()) ? String(filter.since) : since.toISOString() };
}
