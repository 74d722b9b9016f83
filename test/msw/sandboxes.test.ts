// Sandboxes and scripted faults in the MSW handlers (msw/node), through the same pipeline as the
// server: a sandbox created with the control API under the base URL, its keys working with the
// typed client, its changes and faults invisible to the demo keys; the webhook operations, which
// need a server that sends deliveries, are not served here.
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleIds } from "../../mock/data/dataset.js";
import { sharedStartDataset } from "../../mock/data/start-datasets.js";
import { createHandlers, DEMO_KEY } from "../../mock/msw/index.js";
import { createHrClient, HrApiError } from "../../src/client/index.js";

const SEED = 7;
const TODAY = "2026-05-04";
const BASE = "http://127.0.0.1:4010";
const [org1] = sampleIds(sharedStartDataset({ seed: SEED, today: TODAY }));

const server = setupServer(...createHandlers({ seed: SEED, today: TODAY }));
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(() => server.close());

async function control(method: string, path: string, body?: unknown, key: string = DEMO_KEY.org1WebhooksAdmin) {
  const response = await fetch(BASE + path, { method, headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
}

describe("the MSW handlers serve sandboxes and faults", () => {
  it("a sandbox's keys read its own copy, and its faults reach no one else", async () => {
    const created = await control("POST", "/_mock/sandboxes", { label: "msw" });
    expect(created.status).toBe(201);
    const key = (demo: string) => created.body.data.keys.find((k: { demoKey: string }) => k.demoKey === demo).key;
    const mine = createHrClient({ baseUrl: BASE, apiKey: key(DEMO_KEY.org1Full), retry: false });
    const demo = createHrClient({ baseUrl: BASE, apiKey: DEMO_KEY.org1Full, retry: false });
    expect((await mine.getDepartment(org1.departmentId)).id).toBe(org1.departmentId);

    expect((await control("POST", "/_mock/faults", { operation: "getDepartment", status: 404, times: 1 }, key(DEMO_KEY.org1WebhooksAdmin))).status).toBe(201);
    expect((await demo.getDepartment(org1.departmentId)).id, "the demo keys meet no fault").toBe(org1.departmentId);
    const failure = await mine.getDepartment(org1.departmentId).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(HrApiError);
    expect((failure as HrApiError).status).toBe(404);
    expect((await mine.getDepartment(org1.departmentId)).id, "used up").toBe(org1.departmentId);

    expect((await control("DELETE", `/_mock/sandboxes/${created.body.data.id}`)).status).toBe(200);
    const gone = await mine.getDepartment(org1.departmentId).catch((e: unknown) => e);
    expect((gone as HrApiError).status, "a deleted sandbox's key is unknown").toBe(401);
  });

  it("a scripted delay holds the answer", async () => {
    await control("POST", "/_mock/faults", { operation: "listLeaveTypes", delayMs: 200, times: 1 });
    const started = performance.now();
    const response = await fetch(`${BASE}/v1/leavetype/list`, { headers: { authorization: `Bearer ${DEMO_KEY.org1Full}` } });
    expect(response.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
  });

  it("the webhook operations are not served (no deliveries without a server)", async () => {
    const answer = await control("GET", "/_mock/webhooks/endpoints");
    expect(answer.status).toBe(404);
    expect(answer.body.isSuccessful).toBe(false);
  });
});
