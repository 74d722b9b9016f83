// hr-mock serve's delivery log says once, per endpoint, the cause behind deliveries that fail in a
// row: a receiver refusing every delivery as a failed signature check is refused (it verifies with
// another secret), or nothing listening at the endpoint's address; a success ends the run.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMock, type RunningMock } from "../../mock/index.js";
import { createDeliveryHints, HINT_AFTER } from "../../mock/cli/hints.js";
import { printDeliveryHints } from "../../mock/cli/commands/serve.js";
import { register, TestReceiver, WAIT_BOUND_MS } from "./support.js";

describe("the rule", () => {
  type Attempt = { outcome: "succeeded" | "failed"; status: number | null; error: string | null };
  const refused: Attempt = { outcome: "failed", status: 400, error: null };
  const down: Attempt = { outcome: "failed", status: null, error: "ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9" };
  const ok: Attempt = { outcome: "succeeded", status: 200, error: null };
  const cases: [string, { given: [string, Attempt][]; want: (RegExp | undefined)[] }][] = [
    ["three refusals with 400: the secret, once", { given: [["a", refused], ["a", refused], ["a", refused], ["a", refused]], want: [undefined, undefined, /^hint: a answered the last 3 deliveries with 400, .*another secret than this endpoint's/, undefined] }],
    ["a success between: no run of three", { given: [["a", refused], ["a", refused], ["a", ok], ["a", refused]], want: [undefined, undefined, undefined, undefined] }],
    ["per endpoint", { given: [["a", refused], ["b", refused], ["a", refused], ["b", refused]], want: [undefined, undefined, undefined, undefined] }],
    ["nothing listening", { given: [["a", down], ["a", down], ["a", down]], want: [undefined, undefined, /^hint: the last 3 deliveries to a found nothing listening \(ECONNREFUSED\)/] }],
    ["a 500 says nothing of one cause", { given: [["a", { outcome: "failed", status: 500, error: null }], ["a", { outcome: "failed", status: 500, error: null }], ["a", { outcome: "failed", status: 500, error: null }]], want: [undefined, undefined, undefined] }],
  ];
  it.each(cases)("%s", (_, { given, want }) => {
    const hint = createDeliveryHints();
    const said = given.map(([url, attempt]) => hint(url, attempt));
    expect(said.map((line) => line !== undefined)).toEqual(want.map((w) => w !== undefined));
    for (const [i, w] of want.entries()) if (w) expect(said[i]).toMatch(w);
  });
});

describe("in a running mock", () => {
  let mock: RunningMock;
  let receiver: TestReceiver;
  beforeAll(async () => {
    mock = await startMock({ port: 0, rateLimit: "off", webhooks: { timeScale: 0.0001 } });
    receiver = await new TestReceiver().start();
  });
  afterAll(async () => {
    await mock?.close();
    await receiver?.close();
  });

  it("prints the hint once when a receiver verifies with another secret", async () => {
    await register(mock, receiver, { events: ["webhook.test"] });
    receiver.useSecret("whsec_not_the_endpoints_secret");
    const lines: string[] = [];
    let attempts = 0;
    let enough!: () => void;
    const done = new Promise<void>((resolve) => (enough = resolve));
    const stopCounting = mock.webhooks.onAttempt(() => ++attempts === HINT_AFTER + 1 && enough());
    const stopHints = printDeliveryHints(mock, (line) => lines.push(line));
    try {
      for (let i = 0; i < HINT_AFTER + 1; i++) await mock.trigger("webhook.test");
      await Promise.race([done, new Promise((_, reject) => setTimeout(() => reject(new Error(`only ${attempts} attempts`)), WAIT_BOUND_MS))]);
      expect(lines).toEqual([expect.stringMatching(new RegExp(`^hint: ${receiver.url.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} answered the last ${HINT_AFTER} deliveries with 400`))]);
    } finally {
      stopCounting();
      stopHints();
    }
  });
});
