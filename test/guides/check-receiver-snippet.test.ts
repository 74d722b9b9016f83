import { expect, test } from "vitest";
import { checkReceiver } from "hr-service-contract/contract";
// Your receiver's fetch handler (Hono's app.fetch, a Next.js route handler, a Worker): here the README's edge example.
import worker from "../readme/edge-snippet.js";

test("the receiver follows the provider's webhook rules", async () => {
  const secret = "whsec_test_only"; // any secret: the check signs with it and the receiver verifies with it
  const result = await checkReceiver({ handler: (request) => worker.fetch(request, { HR_WEBHOOK_SECRET: secret }) }, { secret });
  // A failing case names the rule it holds the receiver to and what the receiver answered.
  expect(result.cases.filter((c) => !c.ok)).toEqual([]);
});
