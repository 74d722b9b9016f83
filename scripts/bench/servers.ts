// The servers the bench compares, each in its own process: the mock (through its CLI), Prism's own
// CLI mock of the same bundled spec, and a bare node:http server. Start-up is timed from spawn to the
// first 200 on the benchmarked request; memory is the child's resident set (Linux /proc).
import { spawn, type ChildProcess } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { freePort } from "../lib/free-port.js";
import { readStat, TICK_MS } from "../lib/process-cpu.js";

export interface BenchServer {
  name: string;
  url: string;
  /** Milliseconds from spawn to the first 200 on the benchmarked request. */
  startupMs: number;
  rssMb(): Promise<number>;
  /** CPU time (user and system) the process has used so far, in milliseconds (Linux /proc). */
  cpuMs(): Promise<number>;
  /** What the process writes to stderr, as it comes. */
  stderr: NodeJS.ReadableStream | null;
  /** The heap in use after full collections, MB, as the process reads it (with the "heap" probe only). */
  heapMb?(): Promise<number>;
  /** Sends a message to the probe inside the process and waits for its answer (with a probe only). */
  ask?(message: unknown): Promise<unknown>;
  stop(): Promise<void>;
}

export interface Probe {
  path: string;
  headers: Record<string, string>;
}

/**
 * How the mock's CLI is run: `{ installedBin }` is an installed package's `hr-mock` (its bundle,
 * installed from the tarball; scripts/lib/packed-install.ts), "source" what `npm start` runs in a
 * clone (TypeScript through tsx).
 */
export type MockEntry = { installedBin: string } | "source";

/** Two mocks side by side under the bench's probe (the journal's cost, shared state's): where they run and how long. */
export interface SideBySideOptions {
  /** Where the mock runs: this clone, or the project the packages were installed into. */
  root: string;
  probe: Probe;
  seconds: number;
  warmup: number;
  connections: number;
  rounds: number;
  /** How the mock runs: the built package (after npm run build) or the sources through tsx. */
  entry: MockEntry;
  log: (line: string) => void;
}

/**
 * The mock through its CLI; with `fileLimit`, under that soft limit on open files (ulimit -n); with
 * the "heap" probe, answering `heapMb()` from inside the process (heap-probe.mjs, over an IPC
 * channel); with the "profile" probe, taking a CPU profile when asked (profile-probe.mjs).
 */
export async function startMockServer(root: string, probe: Probe, extraArgs: string[], fileLimit?: number, entry: MockEntry = "source", inside?: "heap" | "profile"): Promise<BenchServer> {
  const started = performance.now();
  const cli = entry === "source" ? ["--import", "tsx", join(root, "mock/cli.ts")] : [entry.installedBin];
  const probeArgs = inside === "heap" ? ["--expose-gc", "--import", new URL("heap-probe.mjs", import.meta.url).href] : inside === "profile" ? ["--import", new URL("profile-probe.mjs", import.meta.url).href] : [];
  const args = [...probeArgs, ...cli, "serve", "--port", "0", "--rate-limit", "off", ...extraArgs];
  const stdio = inside ? (["ignore", "pipe", "pipe", "ipc"] as const) : (["ignore", "pipe", "pipe"] as const);
  const child =
    fileLimit === undefined
      ? spawn(process.execPath, args, { cwd: root, stdio: [...stdio] })
      : spawn("sh", ["-c", `ulimit -n ${fileLimit} && exec "$0" "$@"`, process.execPath, ...args], { cwd: root, stdio: [...stdio] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    let err = "";
    child.stdout!.on("data", (chunk) => {
      out += chunk;
      const found = /API {3}(http:\/\/\S+)/.exec(out);
      if (found) resolve(found[1]);
    });
    child.stderr!.on("data", (chunk) => (err += chunk));
    child.on("exit", (code) => reject(new Error(`hr-mock exited with ${code} before listening: ${err.trim()}`)));
  });
  return finishStart("hr-mock", child, url, probe, started);
}

export async function startPrismServer(root: string, probe: Probe): Promise<BenchServer> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [join(root, "scripts/bench/prism-server.mjs"), join(root, "generated/openapi.json"), String(port)],
    { cwd: root, stdio: ["ignore", "ignore", "pipe"] },
  );
  return finishStart("prism", child, `http://127.0.0.1:${port}`, probe, started);
}

export async function startBareServer(root: string, probe: Probe, bodyFile: string): Promise<BenchServer> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [join(root, "scripts/bench/bare-server.mjs"), String(port), bodyFile], { cwd: root, stdio: ["ignore", "ignore", "pipe"] });
  return finishStart("bare", child, `http://127.0.0.1:${port}`, probe, started);
}

async function finishStart(name: string, child: ChildProcess, url: string, probe: Probe, started: number): Promise<BenchServer> {
  let exited = false;
  child.on("exit", () => (exited = true));
  const deadline = started + 60_000;
  for (;;) {
    if (exited) throw new Error(`${name} exited during start-up`);
    const status = await fetch(url + probe.path, { headers: probe.headers }).then(
      async (response) => (await response.arrayBuffer(), response.status),
      () => 0,
    );
    if (status === 200) break;
    if (performance.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`${name} did not answer 200 within 60 s (last status ${status})`);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const startupMs = performance.now() - started;
  return {
    name,
    url,
    startupMs,
    rssMb: () => residentMb(child.pid!),
    cpuMs: () => cpuMs(child.pid!),
    stderr: child.stderr,
    ...(child.connected && { heapMb: () => heapOf(child), ask: (message: unknown) => ask(child, message) }),
    stop: () =>
      new Promise<void>((resolve) => {
        // An open IPC channel would keep the child running after the mock closes.
        if (child.connected) child.disconnect();
        if (exited) return resolve();
        const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
        child.once("exit", () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill("SIGTERM");
      }),
  };
}

/** A probe's answer to `message` (the next message the child sends). */
function ask(child: ChildProcess, message: unknown): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const answer = (reply: unknown) => {
      child.off("exit", gone);
      resolve(reply);
    };
    const gone = () => reject(new Error("the mock exited before its probe answered"));
    child.once("message", answer);
    child.once("exit", gone);
    child.send(message as object);
  });
}

/** heap-probe.mjs's answer: the child's heap in use after full collections, MB. */
function heapOf(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    const answer = (message: unknown) => {
      child.off("exit", gone);
      resolve((message as { heapUsed: number }).heapUsed / 1024 / 1024);
    };
    const gone = () => reject(new Error("the mock exited before it reported its heap"));
    child.once("message", answer);
    child.once("exit", gone);
    child.send("heap");
  });
}

async function residentMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
  const kb = /VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1];
  return kb ? Number(kb) / 1024 : Number.NaN;
}

/** utime + stime of /proc/<pid>/stat, in ms. */
async function cpuMs(pid: number): Promise<number> {
  const stat = readStat(`/proc/${pid}/stat`);
  return stat ? stat.ticks * TICK_MS : Number.NaN;
}
