// Stress scenarios "webhook queues" and "delivery log" (issue 14, items 2 and 3), against the mock
// through its CLI and control API: organisation 1 fires a few events to one endpoint; organisation
// 2 registers 10 endpoints at a loopback port nothing listens on and fires `triggers` events, every
// delivery refused and left waiting for its retry; then endpoints are added and removed `cycles`
// times. Reports the mock's resident memory after each step, what organisation 1's log still holds,
// and the drop lines the mock printed.
import { createServer } from "node:net";
import { startMockServer, type BenchServer, type Probe } from "../bench/servers.js";
import { DEMO_KEY } from "../../mock/keys/demo-keys.js";

export interface WebhooksResult {
  rssStartMb: number;
  rssAfterTriggersMb: number;
  rssAfterCyclesMb: number;
  triggers: number;
  triggerFailures: number;
  organisation1Kept: number;
  organisation1Fired: number;
  dropLines: number;
  cycles: number;
}

const ORG1 = DEMO_KEY.org1WebhooksAdmin;
const ORG2 = DEMO_KEY.org2Full;

export async function webhooksScenario(root: string, probe: Probe, triggers: number, cycles: number): Promise<WebhooksResult> {
  const server = await startMockServer(root, probe, []);
  let stderr = "";
  server.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    const rssStartMb = await server.rssMb();
    const dead = `http://127.0.0.1:${await deadPort()}`;
    await control(server, ORG1, "POST", "/_mock/webhooks/endpoints", { url: `${dead}/org1` });
    const organisation1Fired = 5;
    for (let i = 0; i < organisation1Fired; i++) await control(server, ORG1, "POST", "/_mock/webhooks/events", { type: "payroll.paid" });
    for (let i = 0; i < 10; i++) await control(server, ORG2, "POST", "/_mock/webhooks/endpoints", { url: `${dead}/org2/${i}` });

    let triggerFailures = 0;
    await inParallel(triggers, 16, async () => {
      const status = await control(server, ORG2, "POST", "/_mock/webhooks/events", { type: "payroll.paid" }).catch(() => 0);
      if (status !== 202) triggerFailures++;
    });
    const rssAfterTriggersMb = await server.rssMb();
    const listed = await fetch(`${server.url}/_mock/webhooks/deliveries?limit=1000`, { headers: { authorization: `Bearer ${ORG1}` } }).then((r) => r.json() as Promise<{ data: unknown[] }>);

    await inParallel(cycles, 8, async () => {
      const added = await fetch(`${server.url}/_mock/webhooks/endpoints`, {
        method: "POST",
        headers: { authorization: `Bearer ${ORG1}`, "content-type": "application/json" },
        body: JSON.stringify({ url: `${dead}/cycle` }),
      }).then((r) => r.json() as Promise<{ data?: { id: string } }>);
      if (added.data) await fetch(`${server.url}/_mock/webhooks/endpoints/${added.data.id}`, { method: "DELETE", headers: { authorization: `Bearer ${ORG1}` } }).then((r) => r.arrayBuffer());
    });
    const rssAfterCyclesMb = await server.rssMb();
    return {
      rssStartMb,
      rssAfterTriggersMb,
      rssAfterCyclesMb,
      triggers,
      triggerFailures,
      organisation1Kept: listed.data.length,
      organisation1Fired,
      dropLines: stderr.split("\n").filter((line) => line.includes("dropped the oldest waiting delivery")).length,
      cycles,
    };
  } finally {
    await server.stop();
  }
}

async function control(server: BenchServer, key: string, method: string, path: string, body: unknown): Promise<number> {
  const response = await fetch(server.url + path, { method, headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify(body) });
  await response.arrayBuffer();
  return response.status;
}

async function inParallel(count: number, width: number, one: () => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) {
        next++;
        await one();
      }
    }),
  );
}

function deadPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}
