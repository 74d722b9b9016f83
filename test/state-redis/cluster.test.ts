// The same URL form works when the address is a node of a Redis Cluster: the mock finds out and
// uses the cluster, each world's keys in one hash slot (so a world's updates stay one script).
// Two replicas, each given a different node of a three-node cluster (test/support/redis-server.ts).
import { afterAll, beforeAll, expect, test } from "vitest";
import { DEMO_KEY, type RunningMock } from "../../mock/index.js";
import { startRedisCluster, type RedisCluster } from "../support/redis-server.js";
import { register, TestReceiver } from "../webhooks-engine/support.js";
import { send, startReplicas } from "./support.js";

let cluster: RedisCluster;
let a: RunningMock;
let b: RunningMock;
let receiver: TestReceiver;

beforeAll(async () => {
  cluster = await startRedisCluster();
  [a] = (await startReplicas(cluster.nodes[0], {}, [{}])).replicas;
  [b] = (await startReplicas(cluster.nodes[1], {}, [{}])).replicas;
  receiver = await new TestReceiver().start();
});

afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
  await receiver?.close();
  await cluster?.close();
});

test("each replica finds the cluster behind its node", () => {
  expect([a.shared?.cluster, b.shared?.cluster]).toEqual([true, true]);
});

test("a sandbox made through one node's replica serves, changes, journals and delivers through the other's", async () => {
  const made = await send(a, "POST", "/_mock/sandboxes", DEMO_KEY.org1WebhooksAdmin, { label: "on the cluster" });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const key = (demo: string): string => made.body.data.keys.find((k: { demoKey: string }) => k.demoKey === demo).key;
  const approved = async (via: RunningMock) => (await send(via, "GET", "/v1/leaverequest/list?LeaveStatus=Approved&PageSize=1", key(DEMO_KEY.org1Full))).body.data.totalRecords as number;
  const before = await approved(b);
  await register(b, receiver, {}, key(DEMO_KEY.org1WebhooksAdmin));
  const fired = await send(a, "POST", "/_mock/webhooks/events", key(DEMO_KEY.org1WebhooksAdmin), { type: "leave.approved" });
  expect(fired.status, JSON.stringify(fired.body)).toBe(202);
  expect(await approved(b), "b sees a's change").toBe(before + 1);
  await receiver.event(fired.body.data.event.id);
  await b.webhooks.idle();
  expect(receiver.requestsFor(fired.body.data.event.id).length, "delivered once").toBe(1);
  const journal = await send(a, "GET", "/_mock/requests?operationId=listLeaveRequests", key(DEMO_KEY.org1WebhooksAdmin));
  expect(journal.body.data.requests.length, "both replicas' requests in one journal").toBe(2);

  // Every key of the world hashes to one slot: its scripts run on one node.
  const world = made.body.data.id;
  const slots = new Set<string>();
  for (const slot of await Promise.all(["meta", "changes", "journal", "deliveries", "due"].map((suffix) => cluster.nodes[0].cli("cluster", "keyslot", `hrm:{w:${world}}:${suffix}`)))) slots.add(slot);
  expect(slots.size, "one slot for the world's keys").toBe(1);
});
