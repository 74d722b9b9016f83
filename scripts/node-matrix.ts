// npm run test:node-matrix: the packages as users install them (built, packed, installed from the
// tarballs into an empty project, scripts/lib/packed-install.ts), exercised on each Node line the
// engines name (scripts/node-matrix/lines.ts): hr-mock serve answers the README's curl and
// hr-contract's suite passes against it; startMock and the typed client; webhook signing and
// verifying and the node:http receiver; the MSW handlers under msw/node; every --help. Every
// process runs with --throw-deprecation and must leave stderr empty. One line per line and check;
// exit 1 naming each failure. Options: --lines 22,26 (a subset), --jobs N (processes side by side),
// --fresh (build and install the packages again even when the cached install is of this tree),
// --binaries (only put the lines' Node binaries in the cache: .ci/run fetches them beside the suite).
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { addTo, packAndInstall } from "./lib/packed-install.js";
import { repoRoot } from "./lib/spec-document.js";
import { contentKey } from "./lib/content-key.mjs";
import { matrixCache, NODE_LINES, nodeBinary, nodeCacheFolder } from "./node-matrix/lines.js";

interface Ran {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

interface Line {
  release: string;
  binary: string;
}

/** What a check found: nothing (it passed) or why it failed, and one line of what it saw. */
type Outcome = { failure?: string; detail: string };

const PROCESS_TIMEOUT_MS = 120_000;

function env(line: Line): NodeJS.ProcessEnv {
  // The line's node first on PATH (bins' `#!/usr/bin/env node`), and every deprecation an error.
  return { ...process.env, PATH: `${path.dirname(line.binary)}${path.delimiter}${process.env.PATH}`, NODE_OPTIONS: "--throw-deprecation --trace-warnings", NO_COLOR: "1" };
}

/** Runs `args` under the line's node in `cwd`, collecting its output, killed after the timeout. */
function runNode(line: Line, cwd: string, args: string[]): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(line.binary, args, { cwd, env: env(line), stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    const timer = setTimeout(() => child.kill("SIGKILL"), PROCESS_TIMEOUT_MS);
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.once("error", reject);
    child.once("close", (status, signal) => (clearTimeout(timer), resolve({ status, signal, stdout, stderr })));
  });
}

/** The line of a process's output that says what went wrong: an error or warning line, a line of our bins, else the first. */
function firstLine(text: string): string {
  const lines = text.split("\n").map((line) => line.trim()).filter(Boolean);
  return lines.find((line) => /^(\w*(Error|Warning)\b.*?:|hr-(mock|contract): )/.test(line)) ?? lines[0] ?? "";
}

/** A warning Node printed (with --trace-warnings its stack follows): its first line and the first file of its stack. */
interface Warned {
  text: string;
  file?: string;
}

/** Node's warnings in `stderr` and what else it holds; a warning's file is the first of its stack's frames outside Node itself. */
export function warningsIn(stderr: string): { warnings: Warned[]; rest: string } {
  const warnings: Warned[] = [];
  const rest = stderr.replace(/^\(node:\d+\) (\w*Warning: .*)\n?((?: {4}at .*(?:\n|$))*)/gm, (_all, text: string, stack: string) => {
    warnings.push({ text, file: /(?:file:\/\/)?(\/[^\s():]+)/.exec(stack.split("\n").find((frame) => /\/[^\s():]+\.[cm]?js/.test(frame)) ?? "")?.[1] });
    return "";
  });
  return { warnings, rest };
}

/**
 * msw is the one package users add themselves beside ours (the mock's optional peer): a warning
 * its own code raises (msw 2's cookie store reads localStorage, which Node 26 warns about) is
 * reported beside the check, not as ours. Anything else warned fails.
 */
const PEER_CODE = /\/node_modules\/msw\//;

/** Why a finished process fails a check: killed, a non-zero exit, a warning of ours, or (unless it reports progress there) anything on stderr. */
function fault(what: string, ran: Ran, stderrIsProgress = false): string | undefined {
  if (ran.signal) return `${what} was killed (${ran.signal}) after ${PROCESS_TIMEOUT_MS / 1000} s`;
  if (ran.status !== 0) return `${what} exited ${ran.status}: ${firstLine(ran.stderr || ran.stdout)}`;
  const { warnings, rest } = warningsIn(ran.stderr);
  const ours = warnings.find((w) => !w.file || !PEER_CODE.test(w.file));
  if (ours) return `${what} warned: ${ours.text}${ours.file ? ` (at ${ours.file})` : ""}`;
  if (!stderrIsProgress && rest.trim()) return `${what} wrote to stderr: ${firstLine(rest)}`;
  return undefined;
}

/** The warnings msw's own code raised in a process, as a note. */
function peerNotes(ran: Ran): string {
  const peer = warningsIn(ran.stderr).warnings.filter((w) => w.file && PEER_CODE.test(w.file));
  return peer.map((w) => ` [msw's own warning here: ${w.text}]`).join("");
}

/** The README's one request with curl: its header and URL (the port is the served mock's). */
function readmeCurl(): { header: [string, string]; url: URL } {
  const readme = fs.readFileSync(path.join(repoRoot, "README.md"), "utf8");
  const match = /^curl -H "([^:"]+): ([^"]+)" "(http:\/\/[^"]+)"$/m.exec(readme);
  if (!match) throw new Error('README.md holds no line `curl -H "Name: value" "http://…"` (the request the matrix sends)');
  return { header: [match[1], match[2]], url: new URL(match[3]) };
}

const modules = (project: string, ...rest: string[]) => path.join(project, "node_modules", ...rest);
const HR_MOCK = (project: string) => modules(project, "hr-service-mock", "bin", "hr-mock.js");
const HR_CONTRACT = (project: string) => modules(project, "hr-service-contract", "dist", "src", "contract", "cli.js");

/** hr-mock --help, each command's --help (the commands hr-mock --help lists), hr-contract --help. */
async function helpCheck(line: Line, project: string): Promise<Outcome> {
  const top = await runNode(line, project, [HR_MOCK(project), "--help"]);
  const topFault = fault("hr-mock --help", top);
  if (topFault) return { failure: topFault, detail: "" };
  const commands = [...(top.stdout.split(/^Commands:\n/m)[1] ?? "").matchAll(/^ {2}([a-z-]+) {2,}/gm)].map((m) => m[1]);
  if (commands.length === 0) return { failure: "hr-mock --help lists no command under Commands:", detail: "" };
  const runs = [...commands.map((command) => ({ what: `hr-mock ${command} --help`, args: [HR_MOCK(project), command, "--help"] })), { what: "hr-contract --help", args: [HR_CONTRACT(project), "--help"] }];
  for (const { what, args } of runs) {
    const why = fault(what, await runNode(line, project, args));
    if (why) return { failure: why, detail: "" };
  }
  return { detail: `hr-mock --help, ${commands.length} commands' --help (${commands.join(", ")}) and hr-contract --help: exit 0, stderr empty` };
}

/** hr-mock serve on a free port; the README's curl; hr-contract's suite against it; then SIGTERM. */
async function serveChecks(line: Line, project: string): Promise<{ serve: Outcome; contract: Outcome }> {
  const curl = readmeCurl();
  const child = spawn(line.binary, [HR_MOCK(project), "serve", "--port", "0", "--drain", "0"], { cwd: project, env: env(line), stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<Ran>((resolve) => child.once("close", (status, signal) => resolve({ status, signal, stdout, stderr })));
  const url = await new Promise<string | undefined>((resolve) => {
    const timer = setTimeout(() => resolve(undefined), PROCESS_TIMEOUT_MS);
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      const found = /API\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)?.[1];
      if (found) clearTimeout(timer), resolve(found);
    });
    void exited.then(() => (clearTimeout(timer), resolve(undefined)));
  });
  const skipped = { failure: "not run: hr-mock serve did not start", detail: "" };
  if (!url) {
    child.kill("SIGKILL");
    const ran = await exited;
    return { serve: { failure: `hr-mock serve printed no API address: ${firstLine(ran.stderr) || `exit ${ran.status}`}`, detail: "" }, contract: skipped };
  }
  let serve: Outcome;
  let contract: Outcome;
  try {
    const target = new URL(curl.url.pathname + curl.url.search, url);
    const response = await fetch(target, { headers: { [curl.header[0]]: curl.header[1] } });
    const body = (await response.json().catch(() => undefined)) as { isSuccessful?: boolean; data?: { data?: unknown[] } } | undefined;
    const records = body?.data?.data;
    serve =
      response.status === 200 && body?.isSuccessful === true && Array.isArray(records) && records.length > 0
        ? { detail: `the README's curl (${curl.url.pathname}${curl.url.search}) answered 200 with ${records.length} records` }
        : { failure: `the README's curl answered ${response.status}, isSuccessful ${body?.isSuccessful}`, detail: "" };
    // --rate 50: the suite's requests stay under the mock's 300 a minute without its default pacing.
    const suite = await runNode(line, project, [HR_CONTRACT(project), "--base-url", url, "--api-key", curl.header[1].replace(/^Bearer /, ""), "--rate", "50"]);
    const why = fault("hr-contract", suite, true);
    contract = why ? { failure: why, detail: "" } : { detail: `hr-contract against it exited 0: ${/^RESULT: .*$/m.exec(suite.stdout)?.[0] ?? "(no RESULT line)"}` };
  } catch (error) {
    serve = { failure: `asking hr-mock serve failed: ${error instanceof Error ? error.message : String(error)}`, detail: "" };
    contract = { failure: "not run: hr-mock serve could not be asked", detail: "" };
  } finally {
    child.kill("SIGTERM");
  }
  // Whatever serve printed on stderr over its life (a deprecation, a warning) fails it too.
  const ran = await exited;
  // Its stderr carries its lifecycle lines (draining, stopped): only a warning fails it.
  const why = fault("hr-mock serve", { ...ran, status: 0, signal: null }, true);
  if (why && !serve.failure) serve = { failure: why, detail: "" };
  return { serve, contract };
}

/** scripts/node-matrix/checks.mjs's `names`, in one process run from the project under the line's node. */
async function inProcessChecks(line: Line, project: string, names: Record<string, string>): Promise<Array<[string, Outcome]>> {
  const ran = await runNode(line, project, ["node-matrix-checks.mjs", ...Object.keys(names)]);
  const reported = new Map<string, { detail?: string; failure?: string }>();
  for (const text of ran.stdout.split("\n").filter((l) => l.startsWith("{"))) {
    const entry = JSON.parse(text) as { name: string; detail?: string; failure?: string };
    reported.set(entry.name, entry);
  }
  // A process that warned or crashed fails each check it ran (or did not get to).
  const why = fault("checks.mjs", { ...ran, status: ran.status === 1 && reported.size ? 0 : ran.status });
  return Object.entries(names).map(([name, label]) => {
    const entry = reported.get(name);
    if (entry?.failure) return [label, { failure: entry.failure, detail: "" }];
    if (why || !entry) return [label, { failure: why ?? "checks.mjs reported nothing for it", detail: "" }];
    return [label, { detail: `${entry.detail}${name === "msw" ? peerNotes(ran) : ""}` }];
  });
}

/** The checks of one line, by name, each a job that reports one or more results. */
function lineJobs(line: Line, project: string): Array<() => Promise<Array<[string, Outcome]>>> {
  return [
    async () => Object.entries(await serveChecks(line, project)).map(([name, outcome]) => [name === "serve" ? "serve + README curl" : "hr-contract suite", outcome]),
    () => inProcessChecks(line, project, { client: "startMock + client", webhooks: "webhooks", msw: "msw setupServer" }),
    async () => [["--help", await helpCheck(line, project)]],
  ];
}

/** Runs `jobs` with at most `limit` at a time. */
async function pool<T>(jobs: Array<() => Promise<T>>, limit: number): Promise<T[]> {
  const results: T[] = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const index = next++;
      results[index] = await jobs[index]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, jobs.length) }, worker));
  return results;
}

function option(argv: string[], name: string): string | undefined {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : undefined;
}

const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

export async function nodeMatrix(argv: string[], print: (line: string) => void): Promise<number> {
  const started = performance.now();
  const asked = option(argv, "--lines")?.split(",").map(Number);
  const unknown = asked?.filter((n) => !NODE_LINES.some((l) => l.line === n)) ?? [];
  if (unknown.length) {
    print(`node-matrix: no line ${unknown.join(", ")} (lines: ${NODE_LINES.map((l) => l.line).join(", ")})`);
    return 2;
  }
  const lines = NODE_LINES.filter((l) => !asked || asked.includes(l.line));
  const jobs = Number(option(argv, "--jobs") ?? Math.max(2, os.availableParallelism()));
  if (!Number.isInteger(jobs) || jobs < 1) {
    print(`node-matrix: --jobs takes a whole number of at least 1, got ${JSON.stringify(option(argv, "--jobs"))}`);
    return 2;
  }
  const cache = nodeCacheFolder();
  const fresh = argv.includes("--fresh");
  try {
    print(`node-matrix: Node ${lines.map((l) => l.release).join(", ")} (binaries cached in ${cache})`);
    const fetched = Promise.all(
      lines.map(async ({ release }) => {
        const { binary, source } = await nodeBinary(release, cache, (text) => print(`node-matrix: ${text}`));
        print(`node-matrix: Node ${release}: ${source === "machine" ? "this machine's node" : source === "cache" ? "cached" : "installed into the cache"} (${binary})`);
        return { release, binary };
      }),
    );
    if (argv.includes("--binaries")) {
      await fetched;
      print(`node-matrix: binaries ready after ${seconds(started)}`);
      return 0;
    }
    // The binaries come while the packages build: npm waits on the network, the build on the CPU.
    const [binaries, project] = await Promise.all([fetched, installedProject(fresh, (text) => print(`node-matrix: ${text}`))]);
    print(`node-matrix: ready after ${seconds(started)}; checking ${binaries.length} line${binaries.length === 1 ? "" : "s"}, ${jobs} processes at a time`);
    const failures: string[] = [];
    let passed = 0;
    const all = binaries.flatMap((line) =>
      lineJobs(line, project).map((job) => async () => {
        const began = performance.now();
        for (const [check, outcome] of await job()) {
          const label = `Node ${line.release.padEnd(8)} ${check.padEnd(20)}`;
          if (outcome.failure) failures.push(`Node ${line.release} ${check}: ${outcome.failure}`), print(`FAIL ${label} ${outcome.failure}`);
          else passed++, print(`ok   ${label} ${outcome.detail} (${seconds(began)})`);
        }
      }),
    );
    await pool(all, jobs);
    print(`node-matrix: ${passed} passed, ${failures.length} failed on Node ${binaries.map((l) => l.release).join(", ")} in ${seconds(started)}`);
    for (const failure of failures) print(`node-matrix: failed: ${failure}`);
    return failures.length ? 1 : 0;
  } catch (error) {
    print(`node-matrix: could not run: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
    return 1;
  }
}

/** What is not an input of the packages: tests (this matrix too), outputs, installs, caches. */
const NOT_INPUT = /^(\.git|node_modules|mock\/node_modules|dist|mock\/dist|mock\/THIRD_PARTY_NOTICES|site|test|test-artifacts|coverage|\.tmp|scripts\/node-matrix(\.ts)?)$|\.log$/;

/** The matrix's cached install of this tree: a folder keyed on the packages' inputs (their content, never their times). */
function cachedInstall(): { packed: string; folder: string; project: string } {
  const { key } = contentKey({ root: repoRoot, inputs: fs.readdirSync(repoRoot), cacheFile: path.join(repoRoot, "node_modules", ".cache", "node-matrix-inputs.json"), skip: (file) => NOT_INPUT.test(file) });
  const packed = path.join(matrixCache(), "packed");
  const folder = path.join(packed, key.slice(0, 20));
  return { packed, folder, project: path.join(folder, "app") };
}

/** Fills a new folder with `fill` and moves it into place whole as `folder`, the previous installs removed. */
async function intoCache({ packed, folder }: { packed: string; folder: string }, fill: (partial: string) => Promise<void>): Promise<void> {
  const partial = `${folder}.partial-${process.pid}`;
  fs.rmSync(partial, { recursive: true, force: true });
  fs.mkdirSync(partial, { recursive: true });
  try {
    await fill(partial);
    fs.writeFileSync(path.join(partial, "complete"), "");
    // Another run's partial folder is its own to remove.
    for (const old of fs.readdirSync(packed)) if (!old.includes(".partial-")) fs.rmSync(path.join(packed, old), { recursive: true, force: true });
    fs.renameSync(partial, folder);
  } finally {
    fs.rmSync(partial, { recursive: true, force: true });
  }
}

/**
 * The project where both packed packages and msw are installed: the cached one while no input of
 * the packages changed, else built, packed and installed anew into the cache.
 */
async function installedProject(fresh: boolean, log: (line: string) => void): Promise<string> {
  const cached = cachedInstall();
  if (!fresh && fs.existsSync(path.join(cached.folder, "complete"))) {
    log(`packages unchanged since the cached install (${cached.folder}): reusing it (--fresh builds them again)`);
  } else {
    await intoCache(cached, async (partial) => {
      const { projects } = await packAndInstall(partial, { app: ["contract", "mock"] }, log);
      const msw = (JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")).devDependencies as Record<string, string>).msw;
      log(`installing msw@${msw} (the mock's optional peer) into the project…`);
      await addTo(projects.app, [`msw@${msw}`]);
    });
  }
  fs.copyFileSync(path.join(repoRoot, "scripts", "node-matrix", "checks.mjs"), path.join(cached.project, "node-matrix-checks.mjs"));
  return cached.project;
}

/**
 * Keeps `project` (both packed packages and msw installed from this tree, as installedProject makes
 * it) as the matrix's cached install, unless there is one: the package test makes such a project, so
 * the matrix run after the suite (.ci/run) need not build, pack and install the same packages again.
 * A cache only: a failure leaves the matrix to make its own.
 */
export async function keepForMatrix(project: string): Promise<void> {
  try {
    const cached = cachedInstall();
    if (fs.existsSync(path.join(cached.folder, "complete"))) return;
    await intoCache(cached, async (partial) => fs.cpSync(project, path.join(partial, "app"), { recursive: true, verbatimSymlinks: true }));
  } catch {
    // The matrix builds its own.
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  nodeMatrix(process.argv.slice(2), (line) => console.log(line)).then((code) => (process.exitCode = code));
}
