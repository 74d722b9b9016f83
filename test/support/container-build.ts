// The repository's Containerfile built with Debian's Podman, as the image tests and the compose test
// need it, on the base of container-base.mjs. The image is built once per run, with no vitest
// runtime needed: the sequencer starts it in the main process as the run begins, so that it builds
// beside the other files instead of holding a worker (test/support/sequencer.ts), and the files
// that use it wait for that build (run-shared.ts). A build runs on Podman's layer cache, so a machine
// that built it before rebuilds only what changed; on a machine that never did, its npm ci reads
// the host's npm cache (which the host's own npm ci has just filled) through an overlay, so it
// downloads nothing again and writes nothing to the host. Podman needs two settings on these
// machines (../shared/toolchain.md, and the guide): runc as its runtime and a containers.conf
// without default ulimits; they are passed to the tests' own podman invocations only.
import { execFile, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { repoRoot } from "../../scripts/lib/spec-document.js";
import { BUILD_TIMEOUT_MS, containerBase } from "./container-base.mjs";
import { folderIn, sharedIn } from "./run-shared.js";

const exec = promisify(execFile);

/** The tests' containers.conf (the guide gives the same). */
export const CONTAINERS_CONF_TEXT = '[containers]\ndefault_ulimits = []\n\n[engine]\nruntime = "runc"\n';

/**
 * The environment of the tests' podman and podman-compose invocations in the run whose folder is
 * `runDir`: a containers.conf with no default ulimits (Podman cannot set RLIMIT_NOFILE here) and
 * runc as the runtime (crun fails on these hosts' cgroups).
 */
export function podmanEnvIn(runDir: string): NodeJS.ProcessEnv {
  const file = path.join(folderIn(runDir, "podman"), "containers.conf");
  if (!fs.existsSync(file)) fs.writeFileSync(file, CONTAINERS_CONF_TEXT);
  return { ...process.env, CONTAINERS_CONF: file };
}

/** `podman ARGS` with the tests' settings; its stdout, or an Error naming the command and its last lines. */
export async function podmanIn(runDir: string, args: string[], options: { timeoutMs?: number } = {}): Promise<string> {
  try {
    const { stdout } = await exec("podman", args, { env: podmanEnvIn(runDir), timeout: options.timeoutMs ?? 120_000, maxBuffer: 64 * 1024 * 1024, encoding: "utf8" });
    return stdout;
  } catch (error) {
    const e = error as { stderr?: string; stdout?: string; code?: number | string; signal?: string };
    const tail = `${e.stdout ?? ""}\n${e.stderr ?? ""}`.trim().split("\n").slice(-6).join(" | ");
    throw new Error(`podman ${args.slice(0, 3).join(" ")} failed (${e.code ?? e.signal}): ${tail}`);
  }
}

/** The machine's npm configuration (one npm process for every key the build reads). */
function npmConfig(): Record<string, unknown> {
  return JSON.parse(spawnSync("npm", ["config", "list", "--json"], { encoding: "utf8" }).stdout || "{}") as Record<string, unknown>;
}

/**
 * The build secrets the tests pass: the machine's npm CA file where its npm configuration names
 * one, and the user's npmrc, or where there is none an npmrc of the test's own (npm's defaults), so
 * that a build always has a secret whose absence from the layers the image test can check.
 */
function npmSecrets(runDir: string, config: Record<string, unknown>): { id: "npmrc" | "npm_ca"; src: string }[] {
  const found: { id: "npmrc" | "npm_ca"; src: string }[] = [];
  const ca = config.cafile;
  if (typeof ca === "string" && ca && fs.existsSync(ca)) found.push({ id: "npm_ca", src: ca });
  let npmrc = config.userconfig;
  if (typeof npmrc !== "string" || !npmrc || !fs.existsSync(npmrc)) {
    npmrc = path.join(folderIn(runDir, "podman"), "npmrc");
    fs.writeFileSync(npmrc as string, "; the image test's npmrc: npm's defaults, given as the build secret npmrc\nfund=false\naudit=false\n");
  }
  found.push({ id: "npmrc", src: npmrc as string });
  return found;
}

/**
 * `--volume` arguments giving the build's RUN steps the host's npm cache where the Containerfile
 * mounts its npm cache: read-only, as an overlay whose writes Podman discards (`:O`). A volume at
 * that path stands over the cache mount, so npm ci --prefer-offline finds every package the host's
 * npm ci fetched. None where the host has no npm cache yet.
 */
function hostNpmCache(config: Record<string, unknown>): string[] {
  const targets = new Set([...fs.readFileSync(path.join(repoRoot, "Containerfile"), "utf8").matchAll(/--mount=type=cache,target=([^,\s]+)/g)].map((m) => m[1]));
  if (targets.size !== 1) throw new Error(`the Containerfile's npm cache mounts name one target, found ${[...targets].join(", ") || "none"}`);
  const cache = config.cache;
  return typeof cache === "string" && fs.existsSync(cache) ? ["--volume", `${cache}:${[...targets][0]}:O`] : [];
}

/** The stages of the Containerfile, in order (the last is the image). */
export const STAGES = ["pack", "install", "final"] as const;

export interface MockImage {
  /** The built image's id. */
  id: string;
  /** Each stage's image id (what the build cache keeps of it). */
  stages: Record<(typeof STAGES)[number], string>;
  base: string;
  /** The secret files the build was given. */
  secrets: { id: string; src: string }[];
}

/** This process's hard limit on open files (what a child may be given), from /proc/self/limits; 4096 if it cannot be read. */
function openFilesLimit(): number {
  const line = fs.readFileSync("/proc/self/limits", "utf8").split("\n").find((l) => l.startsWith("Max open files"));
  const hard = Number(line?.trim().split(/\s+/)[4]);
  return Number.isFinite(hard) && hard > 0 ? Math.min(hard, 1_048_576) : 4096;
}

/**
 * Each stage's image id as a `podman build --layers` log names it: the last `--> ID` line before
 * the next stage's first step (`[2/3] STEP 1/4: FROM …`), so one build gives them all.
 */
export function stageImages(log: string): string[] {
  const ids: string[] = [];
  for (const line of log.split("\n")) {
    const stage = /^\[(\d+)\/\d+\] STEP \d+\/\d+:/.exec(line);
    if (stage) ids.length = Math.max(ids.length, Number(stage[1]));
    const id = /^--> ([0-9a-f]{6,64})$/.exec(line.trim());
    if (id && ids.length > 0) ids[ids.length - 1] = id[1];
  }
  return ids;
}

/** The name the tests' builds give their image: what tells a later run that this machine built it before. */
const IMAGE_NAME = "localhost/hr-mock-test-image:latest";

/** Whether this machine holds an image that a test run built (its layers then make the next build quick). */
export function imageBuiltBefore(): boolean {
  return spawnSync("podman", ["image", "exists", IMAGE_NAME]).status === 0;
}

/** `podman build` of the repository's Containerfile on `base`: the image's id and each stage's. */
async function build(runDir: string, base: string, secrets: { id: string; src: string }[], config: Record<string, unknown>, into: string): Promise<Pick<MockImage, "id" | "stages">> {
  const iidfile = path.join(into, "final.iid");
  const log = await podmanIn(
    runDir,
    [
      "build",
      "--format", "docker",
      "--layers",
      "--build-arg", `BASE=${base}`,
      // Without default ulimits a RUN step gets 1024 open files, and npm ci ran out of them on a
      // loaded machine (EMFILE in its cache); the step gets what this process may open.
      "--ulimit", `nofile=${openFilesLimit()}:${openFilesLimit()}`,
      ...hostNpmCache(config),
      ...secrets.flatMap((secret) => ["--secret", `id=${secret.id},src=${secret.src}`]),
      "--tag", IMAGE_NAME,
      "--iidfile", iidfile,
      "-f", "Containerfile",
      repoRoot,
    ],
    { timeoutMs: BUILD_TIMEOUT_MS },
  );
  const id = fs.readFileSync(iidfile, "utf8").trim().replace(/^sha256:/, "");
  const ids = stageImages(log);
  if (ids.length !== STAGES.length || !id.startsWith(ids.at(-1) ?? "-")) throw new Error(`podman build's log names ${ids.length} stage images (${ids.join(", ")}), not the Containerfile's ${STAGES.length} ending in ${id}`);
  return { id, stages: { pack: ids[0], install: ids[1], final: id } };
}

/** The mock's image of the run whose folder is `runDir`, built once per run from the repository (every stage, so the secrets test can look into each). */
export async function mockImageIn(runDir: string): Promise<MockImage> {
  const base = await containerBase();
  const { value } = await sharedIn(runDir, "mock-image", async (into) => {
    const config = npmConfig();
    const secrets = npmSecrets(runDir, config);
    return { ...(await build(runDir, base, secrets, config, into)), base, secrets };
  });
  return value;
}
