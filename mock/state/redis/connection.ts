// The connection to the Redis that holds a replicated mock's state. ioredis is loaded here, only with
// --state redis:// (start-up and --help do not pay for it). The address may be a single server or
// any node of a Redis Cluster: the first connection asks which. Failures are answered fast: commands
// are not queued while the connection is down and time out after COMMAND_TIMEOUT_MS when a server
// stops answering; the client reconnects by itself. Each change between reachable and unreachable
// is said once.
import { isIP } from "node:net";
import type { Cluster, Redis } from "ioredis";
import { REDIS_PASSWORD_VARIABLE, StateError } from "../state-error.js";
import { whereOf, type RedisAddress } from "./address.js";

/** A command not answered within this is given up (a hung server): well within the 5 s a request may wait. */
export const COMMAND_TIMEOUT_MS = 2000;
const CONNECT_TIMEOUT_MS = 3000;
/** A probe's connection, once done with, is destroyed if not closed within this. */
const PROBE_DISCONNECT_MS = 100;
/** How often a store that went down is asked whether it answers again. */
const PROBE_MS = 250;

export type RedisClient = Redis | Cluster;

export type RedisLink = ReturnType<typeof link>;

/** Connects, or throws a StateError of one line: unreachable, refused credentials, no such database. */
export async function openRedis(address: RedisAddress): Promise<RedisLink> {
  // ioredis is CommonJS: its module.exports (the default export) is what Node's import() and a
  // bundle's answer alike; the named exports a bundle's chunk does not carry.
  const { default: ioredis } = await import("ioredis");
  // disconnectTimeout: how long ioredis waits for a closed connection's "close" before destroying
  // it, on a timer that keeps the process alive; a refused probe's connection is closed already
  // (hr-mock serve with a wrong password printed its one line, then sat 2 s before exiting).
  const probe = new ioredis.Redis({ ...serverOptions(address), lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0, disconnectTimeout: PROBE_DISCONNECT_MS });
  let lastError: Error | undefined;
  probe.on("error", (error: Error) => (lastError = error));
  let cluster: boolean;
  try {
    await probe.connect();
    cluster = /cluster_enabled:1/.test(await probe.info("cluster"));
    if (address.db !== 0) {
      if (cluster) throw new StateError(`${whereOf(address)}: a Redis Cluster has database 0 only; leave the /${address.db} off`);
      await probe.select(address.db);
    }
  } catch (error) {
    probe.disconnect();
    if (error instanceof StateError) throw error;
    throw new StateError(`${whereOf(address)}: ${connectProblem(lastError ?? (error as Error), address)}`);
  }
  if (cluster) {
    probe.disconnect();
    const client = new ioredis.Cluster([{ host: address.host, port: address.port }], {
      redisOptions: serverOptions(address),
      enableOfflineQueue: false,
      enableAutoPipelining: false,
      clusterRetryStrategy: retryDelay,
    });
    try {
      await waitReady(client);
    } catch (error) {
      client.disconnect();
      throw new StateError(`${whereOf(address)}: the Redis Cluster is not ready (${describe(error as Error)})`);
    }
    return link(address, true, client, () => client.duplicate<undefined>());
  }
  // A connection that reconnects by itself takes the probe's place.
  probe.disconnect();
  const client = new ioredis.Redis({ ...serverOptions(address), lazyConnect: true, enableAutoPipelining: false, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: retryDelay });
  client.on("error", () => {});
  await client.connect().catch((error: Error) => {
    throw new StateError(`${whereOf(address)}: ${connectProblem(error, address)}`);
  });
  return link(address, false, client, () => client.duplicate<undefined>());
}

// duplicate<undefined>(): the copy's options are the original's. Left to inference, its type argument
// is inferred against RedisClient, which has TypeScript measure the variance of ioredis' whole
// command interface: about a fifth of `tsc --noEmit -p .`'s time went to these two calls.
function link(address: RedisAddress, cluster: boolean, client: RedisClient, duplicate: () => RedisClient) {
  type Listener = (up: boolean, reason?: string) => void;
  const listeners = new Set<Listener>();
  const subscribers: RedisClient[] = [];
  let up = true;
  let reason = "";
  let lastError: Error | undefined;
  let prober: NodeJS.Timeout | undefined;
  let closed = false;
  const set = (now: boolean, why?: string) => {
    if (now === up) return;
    up = now;
    reason = now ? "" : (why ?? (lastError ? describe(lastError) : "the connection closed"));
    for (const listener of listeners) listener(now, now ? undefined : reason);
    if (!now) probe();
  };
  // While down, a PING every PROBE_MS says when the server answers again: a server that hung keeps
  // its connection open, so no reconnection would say so.
  const probe = () => {
    if (prober || closed) return;
    prober = setInterval(() => {
      if (up || closed) return void (clearInterval(prober), (prober = undefined));
      client.ping().then(
        () => set(true),
        () => undefined,
      );
    }, PROBE_MS);
    prober.unref();
  };
  client.on("error", (error: Error) => (lastError = error));
  client.on("ready", () => set(true));
  client.on("close", () => set(false));
  client.on("reconnecting", () => set(false));
  client.on("end", () => set(false));
  return {
    address,
    /** Whether the address is a node of a Redis Cluster. */
    cluster,
    /** Not auto-pipelined: requests answered together share one script call (batch.ts) already, and ioredis' grouping cost more CPU than it saved (npm run bench). */
    client,
    /** Whether the last word from the server was good: commands are worth sending. */
    get up() {
      return up;
    },
    /** Why it is down ("" while up). */
    get reason() {
      return reason;
    },
    /** A command went unanswered: down until the server answers a PING again. */
    down: (why: string) => set(false, why),
    onChange(listener: Listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** A connection for subscriptions (it sends no other commands), reconnecting and subscribing again by itself: `onReady` runs at each connection. */
    subscriber(onReady: (connection: RedisClient) => void): RedisClient {
      const connection = duplicate();
      connection.on("error", () => {});
      // Commands are not queued while it connects (enableOfflineQueue off): it subscribes once ready.
      connection.on("ready", () => onReady(connection));
      if (connection.status === "wait") connection.connect().catch(() => undefined);
      subscribers.push(connection);
      return connection;
    },
    async close(): Promise<void> {
      closed = true;
      clearInterval(prober);
      listeners.clear();
      for (const connection of [client, ...subscribers]) {
        try {
          await connection.quit();
        } catch {
          connection.disconnect();
        }
      }
    },
  };
}

function serverOptions(address: RedisAddress) {
  return {
    host: address.host,
    port: address.port,
    db: address.db,
    ...(address.username !== undefined && { username: address.username }),
    ...(address.password !== undefined && { password: address.password }),
    // An IP address is no server name (RFC 6066): Node warns (DEP0123) if one is set.
    ...(address.tls && { tls: isIP(address.host) ? {} : { servername: address.host } }),
    connectTimeout: CONNECT_TIMEOUT_MS,
    commandTimeout: COMMAND_TIMEOUT_MS,
    connectionName: "hr-mock",
  };
}

/** Reconnect after 50 ms, doubling up to 1 s: a restarted Redis is found again within a second. */
function retryDelay(times: number): number {
  return Math.min(50 * 2 ** Math.min(times, 5), 1000);
}

function waitReady(client: Cluster): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${CONNECT_TIMEOUT_MS} ms`)), CONNECT_TIMEOUT_MS);
    client.once("ready", () => {
      clearTimeout(timer);
      resolve();
    });
    client.on("error", (error: Error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

/** Why the first connection failed, in words a user acts on. */
function connectProblem(error: Error, address: RedisAddress): string {
  const message = error.message ?? String(error);
  if (/^WRONGPASS/.test(message)) return `Redis refused the password (or user) ${address.passwordFrom ? `from ${address.passwordFrom}` : "in the address"}; check it`;
  if (/^NOAUTH/.test(message)) return `Redis asks for a password; give it in ${REDIS_PASSWORD_VARIABLE} or a file (--redis-password-file)`;
  if (/DB index is out of range/i.test(message)) return `Redis has no database ${address.db}`;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ECONNREFUSED") return `nothing answers at ${address.host}:${address.port} (connection refused); is redis-server running there?`;
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return `the host ${address.host} is not known`;
  if (code === "ETIMEDOUT" || /timeout/i.test(message)) return `${address.host}:${address.port} did not answer within ${CONNECT_TIMEOUT_MS} ms`;
  return describe(error);
}

/** An error in one line, never quoting a password (ioredis' messages do not carry it). */
export function describe(error: Error): string {
  const code = (error as NodeJS.ErrnoException).code;
  const message = (error.message ?? String(error)).split("\n")[0].slice(0, 200);
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}
