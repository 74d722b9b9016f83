// flush() hands back what a replica holds: a delivery it leased but is not sending is due again at
// once, for any replica, instead of after its lease runs out; the one it is sending keeps its lease.
// Two replicas on one Redis, one endpoint taking one attempt at a time (concurrency 1), its
// receiver holding the first request: the second delivery waits, and is leased to the sending
// replica as a claim whose attempt never began would leave it.
import { afterAll, beforeAll, expect, test } from "vitest";
import { DEMO_KEY, type RunningMock } from "../../mock/index.js";
import { stateBackendOf } from "../../mock/app/state-backend.js";
import { worldKeys } from "../../mock/state/redis/keys.js";
import { CLAIM_SCRIPT, DELIVERY_KEY_COUNT, deliveryKeys } from "../../mock/state/redis/lua/deliveries.js";
import { startRedis, type RedisServer } from "../support/redis-server.js";
import { register, TestReceiver } from "../webhooks-engine/support.js";
import { send, startReplicas } from "./support.js";

/** Longer than the receiver's wait for an event: a delivery left to its lease would fail the test. */
const LEASE_MS = 120_000;

let redis: RedisServer;
let replicas: RunningMock[];
let receiver: TestReceiver;

beforeAll(async () => {
  redis = await startRedis();
  ({ replicas } = await startReplicas(redis, { webhooks: { concurrency: 1 } }));
  receiver = await new TestReceiver().start();
  receiver.answer = (request) => (request.number === 1 ? { kind: "hold" } : { kind: "verify" });
});

afterAll(async () => {
  await receiver?.close();
  await Promise.all((replicas ?? []).map((replica) => replica.close()));
  await redis?.close();
});

test("a lease held but not sent is released by flush(): the delivery goes at its time, through either replica; the one being sent keeps its lease", async () => {
  const [a, b] = replicas;
  await register(a, receiver);
  const keys = worldKeys("default");
  const fire = async (via: RunningMock) => (await send(via, "POST", "/_mock/webhooks/events", DEMO_KEY.org1WebhooksAdmin, { type: "payroll.paid" })).body.data.event.id as string;
  const deliveryOf = async (eventId: string) => (await a.webhooks.deliveries({ eventId }))[0].id;
  const first = await fire(a);
  await receiver.until(() => receiver.requests.length === 1, "the first delivery to be sent (and held)");
  const second = await fire(b);
  const [sending, waiting] = [await deliveryOf(first), await deliveryOf(second)];
  const owner = await redis.cli("hget", keys.leaseOwners, sending);
  expect(owner, "the replica sending the first delivery holds its lease").not.toBe("");

  // The claim of a replica whose attempt never began (its answer lost, the replica stopping).
  await redis.cli("eval", CLAIM_SCRIPT, String(DELIVERY_KEY_COUNT), ...deliveryKeys(keys), owner, String(LEASE_MS), "10", "2");
  expect(await redis.cli("hget", keys.leaseOwners, waiting), "the second delivery leased to the same replica").toBe(owner);

  await Promise.all(replicas.map((replica) => stateBackendOf(replica).flush()));
  const handedBack = {
    sending: await redis.cli("hget", keys.leaseOwners, sending),
    waiting: await redis.cli("hget", keys.leaseOwners, waiting),
    due: Number(await redis.cli("zscore", keys.due, waiting)) <= Date.now(),
  };
  expect(handedBack, "after flush(): the lease of the delivery being sent kept, the other released and due now").toEqual({ sending: owner, waiting: "", due: true });

  receiver.releaseHeld();
  await receiver.event(second);
  expect((await a.webhooks.deliveries({ eventId: second }))[0].attempts.length, "attempted once").toBe(1);
});
