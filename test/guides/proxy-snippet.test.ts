import { afterAll, beforeAll, expect, test } from "vitest";
import { startMock, startProxy, type RunningMock, type RunningProxy } from "hr-service-mock";

// The upstream is your staging deployment; here the mock stands in for it.
let upstream: RunningMock;
let proxy: RunningProxy;
beforeAll(async () => {
  upstream = await startMock({ port: 0 });
  proxy = await startProxy({ upstream: upstream.url, port: 0 });
});
afterAll(async () => {
  await proxy.close();
  await upstream.close();
});

test("my client's traffic keeps the contract", async () => {
  // Your client's calls, with proxy.url as its base URL.
  await fetch(`${proxy.url}/v1/leavetype/list?PageSize=5`, { headers: { Authorization: "Bearer demo_org1_full" } });
  await proxy.idle();
  expect(proxy.report().violations.listed).toEqual([]);
});
