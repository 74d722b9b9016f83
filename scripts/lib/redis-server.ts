// Debian's redis-server, for the tests and the bench (never a Redis mock library): one server on a
// free loopback port with its own directory and append-only file, started when its "Ready to
// accept connections" line comes, and stopped, killed or restarted on the same port and files.
// Every wait is for an event (a log line, a process exit), bounded so that a failure names what it
// waited for. test/support/redis-server.ts adds a three-node Redis Cluster on top.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { freePort } from "./free-port.js";

const run = promisify(execFile);

/** What a server gets at most to start or stop, on a loaded machine. */
const WAIT_MS = 30_000;

export interface RedisServer {
  port: number;
  /** redis://127.0.0.1:<port> (with the password, when one was set). */
  url: string;
  dir: string;
  /** Stops it as an operator would (SHUTDOWN: the append-only file written). */
  stop(): Promise<void>;
  /** Kills it (SIGKILL): what the append-only file holds is what survives. */
  kill(): Promise<void>;
  /** Starts it again on the same port and files. */
  start(): Promise<void>;
  /** Stops it answering without closing a connection (SIGSTOP): a server that hung. */
  pause(): void;
  /** Lets it answer again (SIGCONT). */
  resume(): void;
  /** A command through redis-cli, its output. */
  cli(...args: string[]): Promise<string>;
  /** Stops it and removes its files. */
  close(): Promise<void>;
}

export interface RedisServerOptions {
  password?: string;
  /** Extra arguments (e.g. cluster settings). */
  args?: string[];
  port?: number;
}

export async function startRedis(options: RedisServerOptions = {}): Promise<RedisServer> {
  const port = options.port ?? (await freePort());
  const dir = mkdtempSync(join(tmpdir(), "hr-mock-redis-"));
  const args = [
    "--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", "", "--appendonly", "yes", "--appendfsync", "always",
    "--logfile", "", "--daemonize", "no", ...(options.password ? ["--requirepass", options.password] : []), ...(options.args ?? []),
  ];
  let child: ChildProcess | undefined;
  const auth = options.password ? ["-a", options.password, "--no-auth-warning"] : [];
  const server: RedisServer = {
    port,
    url: `redis://${options.password ? `:${encodeURIComponent(options.password)}@` : ""}127.0.0.1:${port}`,
    dir,
    async start() {
      child = await launch(args, port);
    },
    async stop() {
      if (!child || child.exitCode !== null) return;
      const exited = exit(child);
      child.kill("SIGTERM");
      await exited;
    },
    async kill() {
      if (!child || child.exitCode !== null) return;
      const exited = exit(child);
      child.kill("SIGKILL");
      await exited;
    },
    pause() {
      child?.kill("SIGSTOP");
    },
    resume() {
      child?.kill("SIGCONT");
    },
    async cli(...command) {
      const { stdout } = await run("redis-cli", ["-p", String(port), ...auth, ...command], { timeout: WAIT_MS });
      return stdout.trim();
    },
    async close() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await server.start();
  return server;
}

/** Starts redis-server and resolves once it says it accepts connections; rejects with its output otherwise. */
function launch(args: string[], port: number): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn("redis-server", args, { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(new Error(`redis-server on port ${port} ${why}; its output: ${output.slice(-800)}`));
    };
    const timer = setTimeout(() => fail(`did not accept connections within ${WAIT_MS} ms`), WAIT_MS);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (/Ready to accept connections/.test(output)) {
        clearTimeout(timer);
        child.stdout?.off("data", read);
        resolve(child);
      }
    };
    child.stdout?.on("data", read);
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("error", (error) => fail(`could not start (${error.message}; is Debian's redis-server installed?)`));
    child.once("exit", (code) => {
      if (!/Ready to accept connections/.test(output)) fail(`exited with ${code} before it was ready`);
    });
  });
}

function exit(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server (pid ${child.pid}) did not stop within ${WAIT_MS} ms`)), WAIT_MS);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
