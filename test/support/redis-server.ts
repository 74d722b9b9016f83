// Debian's redis-server for the tests (never a Redis mock library): one server on a free loopback
// port (scripts/lib/redis-server.ts, which the bench starts too), and a three-node Redis Cluster
// formed through redis-cli's CLUSTER commands. Every wait is for an event, bounded so that a failure names
// what it waited for.
import { startRedis, type RedisServer } from "../../scripts/lib/redis-server.js";

export { freePort } from "../../scripts/lib/free-port.js";
export { startRedis, type RedisServer, type RedisServerOptions } from "../../scripts/lib/redis-server.js";

/** What the cluster gets at most to form, on a loaded machine. */
const WAIT_MS = 30_000;

export interface RedisCluster {
  nodes: RedisServer[];
  close(): Promise<void>;
}

/**
 * Three masters on loopback, all 16,384 slots assigned, once every node says cluster_state:ok.
 * Formed as `redis-cli --cluster create` forms it (slots, config epochs, MEET), without its
 * one-second sleeps while it waits for the nodes to join: the nodes' own gossip is waited for.
 */
export async function startRedisCluster(): Promise<RedisCluster> {
  const nodes: RedisServer[] = [];
  try {
    const started = await Promise.allSettled([0, 1, 2].map(() => startRedis({ args: ["--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "5000"] })));
    for (const result of started) if (result.status === "fulfilled") nodes.push(result.value);
    const failed = started.find((result) => result.status === "rejected");
    if (failed) throw (failed as PromiseRejectedResult).reason;
    const SLOTS = 16_384;
    await Promise.all(
      nodes.map(async (node, i) => {
        const expectOk = async (...command: string[]) => {
          const said = (await node.cli(...command)).trim();
          if (said !== "OK") throw new Error(`redis-cli -p ${node.port} ${command.join(" ")}: ${said}`);
        };
        await expectOk("cluster", "addslotsrange", String(Math.floor((i * SLOTS) / 3)), String(Math.floor(((i + 1) * SLOTS) / 3) - 1));
        await expectOk("cluster", "set-config-epoch", String(i + 1));
      }),
    );
    for (const other of nodes.slice(1)) {
      const said = (await nodes[0].cli("cluster", "meet", "127.0.0.1", String(other.port))).trim();
      if (said !== "OK") throw new Error(`redis-cli -p ${nodes[0].port} cluster meet 127.0.0.1 ${other.port}: ${said}`);
    }
    const deadline = Date.now() + WAIT_MS;
    for (const node of nodes) {
      while (!/cluster_state:ok/.test(await node.cli("cluster", "info"))) {
        if (Date.now() > deadline) throw new Error(`the cluster's node on port ${node.port} did not reach cluster_state:ok within ${WAIT_MS} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  } catch (error) {
    await Promise.all(nodes.map((n) => n.close()));
    throw error;
  }
  return { nodes, close: async () => void (await Promise.all(nodes.map((n) => n.close()))) };
}
