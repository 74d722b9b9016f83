// Debian's redis-server for the tests (never a Redis mock library): one server on a free loopback
// port (scripts/lib/redis-server.ts, which the bench starts too), and a three-node Redis Cluster
// made by `redis-cli --cluster create`, as an operator makes one. Every wait is for an event,
// bounded so that a failure names what it waited for.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { startRedis, type RedisServer } from "../../scripts/lib/redis-server.js";

export { freePort } from "../../scripts/lib/free-port.js";
export { startRedis, type RedisServer, type RedisServerOptions } from "../../scripts/lib/redis-server.js";

/** What the cluster gets at most to form, on a loaded machine. */
const WAIT_MS = 30_000;

const run = promisify(execFile);

export interface RedisCluster {
  nodes: RedisServer[];
  close(): Promise<void>;
}

/**
 * Three masters on loopback (started together), all 16,384 slots assigned by `redis-cli --cluster
 * create`, once every node says cluster_state:ok.
 */
export async function startRedisCluster(): Promise<RedisCluster> {
  const nodes: RedisServer[] = [];
  try {
    const started = await Promise.allSettled([0, 1, 2].map(() => startRedis({ args: ["--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf", "--cluster-node-timeout", "5000"] })));
    for (const result of started) if (result.status === "fulfilled") nodes.push(result.value);
    const failed = started.find((result) => result.status === "rejected");
    if (failed) throw (failed as PromiseRejectedResult).reason;
    await run("redis-cli", ["--cluster", "create", ...nodes.map((n) => `127.0.0.1:${n.port}`), "--cluster-yes"], { timeout: WAIT_MS });
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
