// Start-up as users meet it, on the packages installed from their tarballs into an empty project:
// each figure the median of several runs, the contenders taking turns within each run so that what
// the shared machine does at one moment falls on all of them alike.
// - serve: spawn to the first 200 of GET /v1/leaverequest/list (the installed `hr-mock serve`, and
//   `npm start` in this clone), against a bare node:http server's spawn to its first answer; the
//   serving mock's resident memory at that moment.
// - commands that serve nothing (`hr-mock --help`, `trigger --help`, …): spawn to exit, against
//   `node -e 0`.
// - in process: `import("hr-service-mock")` plus the first `startMock()`, in a fresh node.
import { spawn } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { freePort } from "../lib/free-port.js";
import type { Probe } from "./servers.js";

export const HELP_COMMANDS = ["--help", "trigger --help", "receive --help", "diff --help", "scenario --help", "export --help"];

export interface StartupFigures {
  runs: number;
  /** Medians, in milliseconds (memory in MB). */
  bareFirstAnswerMs: number;
  serveFirst200Ms: number;
  serveRssMb: number;
  npmStartFirst200Ms: number;
  nodeNoopMs: number;
  helpMs: Record<string, number>;
  importAndStartMs: number;
  /** Every sample, for the JSON file. */
  samples: Record<string, number[]>;
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

async function residentMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
  const kb = /VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1];
  return kb ? Number(kb) / 1024 : Number.NaN;
}

/** Spawn to exit of a command, in milliseconds; a failure (non-zero exit) throws with its stderr. */
function timeToExit(command: string, args: string[], cwd: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`${command} ${args.join(" ")} exited ${code}: ${stderr.trim().split("\n")[0]}`))));
  });
}

/**
 * Spawn to the first 200 of `probe` on `port` (polled every 5 ms), the process's resident memory
 * then (`rssOf` picks which process: npm's child for npm start), then SIGTERM and its exit.
 */
async function timeToFirst200(command: string, args: string[], cwd: string, port: number, probe: Probe, rssOf?: (pid: number) => Promise<number>): Promise<{ ms: number; rssMb: number }> {
  const started = performance.now();
  const child = spawn(command, args, { cwd, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once("exit", () => ((exited = true), resolve())));
  try {
    for (;;) {
      if (exited) throw new Error(`${command} ${args.join(" ")} exited before answering: ${stderr.trim().split("\n").slice(-2).join(" | ")}`);
      const status = await fetch(`http://127.0.0.1:${port}${probe.path}`, { headers: probe.headers }).then(
        async (response) => (await response.arrayBuffer(), response.status),
        () => 0,
      );
      if (status === 200) break;
      if (performance.now() - started > 60_000) throw new Error(`${command} ${args.join(" ")} gave no 200 within 60 s (last status ${status})`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const ms = performance.now() - started;
    const rssMb = await (rssOf ?? residentMb)(child.pid!);
    return { ms, rssMb };
  } finally {
    if (!exited) {
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      child.kill("SIGTERM");
      await exit;
      clearTimeout(timer);
    }
  }
}

/** The resident memory of a process's only child (npm start execs node under npm). */
async function childRssMb(pid: number): Promise<number> {
  const children = (await readFile(`/proc/${pid}/task/${pid}/children`, "utf8").catch(() => "")).trim().split(/\s+/).filter(Boolean);
  return children.length ? residentMb(Number(children[0])) : Number.NaN;
}

/** In a fresh node in the project: import("hr-service-mock") then startMock({ port: 0 }), in milliseconds. */
async function importAndStart(project: string): Promise<number> {
  const script = `const t0 = performance.now();
const { startMock } = await import("hr-service-mock");
const mock = await startMock({ port: 0 });
const ms = performance.now() - t0;
await mock.close();
process.stdout.write(JSON.stringify({ ms }));`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], { cwd: project, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (err += chunk));
    child.once("exit", (code) => {
      if (code !== 0) return reject(new Error(`import + startMock failed (${code}): ${err.trim().split("\n")[0]}`));
      resolve((JSON.parse(out) as { ms: number }).ms);
    });
  });
}

/**
 * hr-mock serve (`bin`, run with node) against a bare node:http server: medians of spawn to the first
 * 200, and serve's resident memory then; `hr-mock --help` against `node -e 0`, spawn to exit.
 */
export async function measureServeStartup(targets: { bin: string; clone: string; probe: Probe; runs: number; work: string; log: (line: string) => void }): Promise<{ bareMs: number; serveMs: number; rssMb: number; noopMs: number; helpMs: number }> {
  const { bin, clone, probe, runs, work, log } = targets;
  const bareBody = join(work, "bare-body.json");
  await writeFile(bareBody, JSON.stringify({ isSuccessful: true }));
  const bare = join(clone, "scripts", "bench", "bare-server.mjs");
  const samples = { bare: [] as number[], serve: [] as number[], rss: [] as number[], noop: [] as number[], help: [] as number[] };
  for (let run = 1; run <= runs; run++) {
    log(`start-up run ${run}/${runs}: node -e 0 and hr-mock --help, spawn to exit; a bare node:http server, then hr-mock serve, spawn to the first 200…`);
    samples.noop.push(await timeToExit(process.execPath, ["-e", "0"], clone));
    samples.help.push(await timeToExit(process.execPath, [bin, "--help"], clone));
    const barePort = await freePort();
    samples.bare.push((await timeToFirst200(process.execPath, [bare, String(barePort), bareBody], clone, barePort, { path: "/", headers: {} })).ms);
    const port = await freePort();
    const serve = await timeToFirst200(process.execPath, [bin, "serve", "--port", String(port)], clone, port, probe);
    samples.serve.push(serve.ms);
    samples.rss.push(serve.rssMb);
  }
  return { bareMs: median(samples.bare), serveMs: median(samples.serve), rssMb: median(samples.rss), noopMs: median(samples.noop), helpMs: median(samples.help) };
}

export interface StartupTargets {
  /** The installed project (hr-service-contract + hr-service-mock from their tarballs). */
  project: string;
  /** This clone, where npm start runs. */
  clone: string;
  probe: Probe;
  runs: number;
  work: string;
  log: (line: string) => void;
}

export async function measureStartup(targets: StartupTargets): Promise<StartupFigures> {
  const { project, clone, probe, runs, work, log } = targets;
  const bin = join(project, "node_modules", ".bin", "hr-mock");
  const bareBody = join(work, "bare-body.json");
  await writeFile(bareBody, JSON.stringify({ isSuccessful: true }));
  const bare = join(clone, "scripts", "bench", "bare-server.mjs");
  const samples: Record<string, number[]> = { nodeNoop: [], bare: [], serve: [], serveRss: [], npmStart: [], importAndStart: [] };
  for (const command of HELP_COMMANDS) samples[`hr-mock ${command}`] = [];
  for (let run = 1; run <= runs; run++) {
    const tag = `start-up run ${run}/${runs}:`;
    log(`${tag} node -e 0, then hr-mock ${HELP_COMMANDS.join(", ")} (installed bin, spawn to exit)…`);
    samples.nodeNoop.push(await timeToExit(process.execPath, ["-e", "0"], project));
    for (const command of HELP_COMMANDS) samples[`hr-mock ${command}`].push(await timeToExit(process.execPath, [bin, ...command.split(" ")], project));
    log(`${tag} a bare node:http server, spawn to first answer…`);
    const barePort = await freePort();
    samples.bare.push((await timeToFirst200(process.execPath, [bare, String(barePort), bareBody], clone, barePort, { path: "/", headers: {} })).ms);
    log(`${tag} hr-mock serve (installed), spawn to the first 200 of GET ${probe.path}…`);
    const port = await freePort();
    const serve = await timeToFirst200(process.execPath, [bin, "serve", "--port", String(port)], project, port, probe);
    samples.serve.push(serve.ms);
    samples.serveRss.push(serve.rssMb);
    log(`${tag} npm start in this clone, spawn to the first 200…`);
    const npmPort = await freePort();
    samples.npmStart.push((await timeToFirst200("npm", ["start", "--silent", "--", "--port", String(npmPort)], clone, npmPort, probe, childRssMb)).ms);
    log(`${tag} import("hr-service-mock") + the first startMock(), in a fresh node…`);
    samples.importAndStart.push(await importAndStart(project));
  }
  const helpMs = Object.fromEntries(HELP_COMMANDS.map((command) => [command, median(samples[`hr-mock ${command}`])]));
  return {
    runs,
    bareFirstAnswerMs: median(samples.bare),
    serveFirst200Ms: median(samples.serve),
    serveRssMb: median(samples.serveRss),
    npmStartFirst200Ms: median(samples.npmStart),
    nodeNoopMs: median(samples.nodeNoop),
    helpMs,
    importAndStartMs: median(samples.importAndStart),
    samples,
  };
}
