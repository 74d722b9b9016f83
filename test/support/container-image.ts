// The repository's Containerfile built and run for real with Debian's Podman, as the image tests
// and the compose test need it. No image can be pulled here, so the base is made from Debian's
// packages with mmdebstrap (minbase bookworm, libstdc++6, the machine's own Node 20 and npm copied
// in, a user node with uid 1000 as the official node images have; Redis and nginx too, so the
// compose test needs no second base). It is named by a hash of its recipe and kept across runs; the
// mock image is built once per run (run-once.ts) on Podman's layer cache and npm cache mount, so a
// machine that built it before rebuilds only what changed. Podman needs two settings on these
// machines (../shared/toolchain.md, and the guide): runc as its runtime and a containers.conf without
// default ulimits; they are passed to the tests' own podman invocations only.
import { execFile, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { freePort } from "../../scripts/lib/free-port.js";
import { repoRoot } from "../../scripts/lib/spec-document.js";
import { runFolder, sharedThisRun } from "./run-once.js";

const exec = promisify(execFile);

/** What a build or an mmdebstrap run gets at most on a loaded machine. */
const BUILD_TIMEOUT_MS = 600_000;

/** The tests' containers.conf (the guide gives the same). */
export const CONTAINERS_CONF_TEXT = '[containers]\ndefault_ulimits = []\n\n[engine]\nruntime = "runc"\n';

/**
 * The tests' containers.conf: no default ulimits (Podman cannot set RLIMIT_NOFILE here) and runc as
 * the runtime (crun fails on these hosts' cgroups), for podman and the podman that podman-compose runs.
 */
function containersConf(): string {
  const file = path.join(runFolder("podman"), "containers.conf");
  if (!fs.existsSync(file)) fs.writeFileSync(file, CONTAINERS_CONF_TEXT);
  return file;
}

/** The environment of the tests' podman and podman-compose invocations. */
export function podmanEnv(): NodeJS.ProcessEnv {
  return { ...process.env, CONTAINERS_CONF: containersConf() };
}

/** `podman ARGS` with the tests' settings; its stdout, or an Error naming the command and its last lines. */
export async function podman(args: string[], options: { timeoutMs?: number } = {}): Promise<string> {
  try {
    const { stdout } = await exec("podman", args, { env: podmanEnv(), timeout: options.timeoutMs ?? 120_000, maxBuffer: 64 * 1024 * 1024, encoding: "utf8" });
    return stdout;
  } catch (error) {
    const e = error as { stderr?: string; stdout?: string; code?: number | string; signal?: string };
    const tail = `${e.stdout ?? ""}\n${e.stderr ?? ""}`.trim().split("\n").slice(-6).join(" | ");
    throw new Error(`podman ${args.slice(0, 3).join(" ")} failed (${e.code ?? e.signal}): ${tail}`);
  }
}

/** mmdebstrap's arguments for the base (the recipe: its text names the base). */
function baseRecipe(): string[] {
  const nodeVersion = spawnSync("/usr/bin/node", ["--version"], { encoding: "utf8" }).stdout.trim();
  const npmVersion = JSON.parse(fs.readFileSync("/usr/lib/node_modules/npm/package.json", "utf8")).version as string;
  return [
    "--quiet",
    "--variant=minbase",
    "--include=libstdc++6,redis-server,nginx",
    // The machine's Node and npm (Debian's nodejs in bookworm is 18); their versions are part of the recipe.
    `--customize-hook=: node ${nodeVersion} npm ${npmVersion}`,
    "--customize-hook=copy-in /usr/bin/node /usr/bin",
    '--customize-hook=mkdir -p "$1/usr/lib/node_modules"',
    "--customize-hook=copy-in /usr/lib/node_modules/npm /usr/lib/node_modules",
    '--customize-hook=ln -s ../lib/node_modules/npm/bin/npm-cli.js "$1/usr/bin/npm"',
    '--customize-hook=chroot "$1" groupadd --gid 1000 node',
    '--customize-hook=chroot "$1" useradd --uid 1000 --gid node --shell /bin/bash --create-home node',
    '--customize-hook=rm -rf "$1"/var/cache/apt/* "$1"/var/lib/apt/lists/*',
    "bookworm",
  ];
}

export interface ContainerBase {
  /** The image's name, keyed on its recipe. */
  tag: string;
}

/** The base (made unless an earlier run made the same recipe), shared by the run's files. */
export async function containerBase(): Promise<ContainerBase> {
  const { value } = await sharedThisRun("container-base", async (into) => {
    const recipe = baseRecipe();
    const tag = `localhost/hr-mock-test-base:${createHash("sha256").update(recipe.join("\n")).digest("hex").slice(0, 16)}`;
    const exists = spawnSync("podman", ["image", "exists", tag], { env: podmanEnv() }).status === 0;
    if (exists) return { tag };
    const tar = path.join(into, "base.tar");
    try {
      await exec("mmdebstrap", [...recipe, tar], { timeout: BUILD_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 });
    } catch (error) {
      throw new Error(`mmdebstrap could not make the containers' base (${(error as { stderr?: string }).stderr?.trim().split("\n").slice(-3).join(" | ") ?? error})`);
    }
    await podman(["import", "--quiet", tar, tag], { timeoutMs: BUILD_TIMEOUT_MS });
    fs.rmSync(tar);
    return { tag };
  });
  return value;
}

/**
 * The build secrets the tests pass: the machine's npm CA file where its npm configuration names
 * one, and the user's npmrc, or where there is none an npmrc of the test's own (npm's defaults), so
 * that a build always has a secret whose absence from the layers the image test can check.
 */
export function npmSecrets(): { id: "npmrc" | "npm_ca"; src: string }[] {
  const config = (key: string) => spawnSync("npm", ["config", "get", key], { encoding: "utf8" }).stdout.trim();
  const found: { id: "npmrc" | "npm_ca"; src: string }[] = [];
  const ca = config("cafile");
  if (ca && ca !== "null" && fs.existsSync(ca)) found.push({ id: "npm_ca", src: ca });
  let npmrc = config("userconfig");
  if (!npmrc || !fs.existsSync(npmrc)) {
    npmrc = path.join(runFolder("podman"), "npmrc");
    fs.writeFileSync(npmrc, "; the image test's npmrc: npm's defaults, given as the build secret npmrc\nfund=false\naudit=false\n");
  }
  found.push({ id: "npmrc", src: npmrc });
  return found;
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

/** `podman build` of the repository's Containerfile on the tests' base, up to `target`; the image's id. */
async function build(base: string, secrets: { id: string; src: string }[], into: string, target?: string): Promise<string> {
  const iidfile = path.join(into, `${target ?? "final"}.iid`);
  await podman(
    [
      "build",
      "--format", "docker",
      "--layers",
      "--build-arg", `BASE=${base}`,
      // Without default ulimits a RUN step gets 1024 open files, and npm ci ran out of them on a
      // loaded machine (EMFILE in its cache); the step gets what this process may open.
      "--ulimit", `nofile=${openFilesLimit()}:${openFilesLimit()}`,
      ...secrets.flatMap((secret) => ["--secret", `id=${secret.id},src=${secret.src}`]),
      ...(target ? ["--target", target] : []),
      "--iidfile", iidfile,
      "-f", "Containerfile",
      repoRoot,
    ],
    { timeoutMs: BUILD_TIMEOUT_MS },
  );
  return fs.readFileSync(iidfile, "utf8").trim().replace(/^sha256:/, "");
}

/** The mock's image, built once per run from the repository (every stage, so the secrets test can look into each). */
export async function mockImage(): Promise<MockImage> {
  const base = (await containerBase()).tag;
  const { value } = await sharedThisRun("mock-image", async (into) => {
    const secrets = npmSecrets();
    const final = await build(base, secrets, into);
    // From the layer cache: the build above made every stage.
    const pack = await build(base, secrets, into, "pack");
    const install = await build(base, secrets, into, "install");
    return { id: final, stages: { pack, install, final }, base, secrets };
  });
  return value;
}

/** The folders holding the layers of `image` as Podman's overlay storage keeps them (each layer's files as written). */
async function layerFolders(image: string): Promise<string[]> {
  const [upper, lower] = (await podman(["image", "inspect", "--format", "{{.GraphDriver.Data.UpperDir}}\n{{.GraphDriver.Data.LowerDir}}", image])).trim().split("\n");
  return [upper, ...(lower ?? "").split(":")].filter((dir) => dir && dir !== "<no value>");
}

/**
 * Which of `needles` (by name: a file's whole content) lie in a file of a layer of `images` that
 * `base` does not have, each layer read as the storage holds it (a file written by a step and removed
 * by a later one would still be found).
 */
export async function foundInLayers(images: string[], base: string, needles: Record<string, Buffer>): Promise<Record<string, boolean>> {
  const baseLayers = new Set(await layerFolders(base));
  const folders = new Set((await Promise.all(images.map(layerFolders))).flat().filter((dir) => !baseLayers.has(dir)));
  const shortest = Math.min(...Object.values(needles).map((needle) => needle.length));
  const found: Record<string, boolean> = Object.fromEntries(Object.keys(needles).map((name) => [name, false]));
  // Synchronous reads: tens of thousands of small files (node_modules), far quicker than one promise each.
  const visit = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(file);
      else if (entry.isFile()) {
        const bytes = fs.readFileSync(file);
        if (bytes.length < shortest) continue;
        for (const [name, needle] of Object.entries(needles)) if (!found[name] && bytes.includes(needle)) found[name] = true;
      }
    }
  };
  for (const folder of folders) visit(folder);
  return found;
}

export interface RunningContainer {
  id: string;
  /** GET on the host's published port. */
  get(pathAndQuery: string, headers?: Record<string, string>): Promise<Response>;
  /** Waits until GET `pathAndQuery` answers `status`; the milliseconds it took from the start of the run. */
  waitFor(pathAndQuery: string, status: number, headers?: Record<string, string>): Promise<number>;
  remove(): Promise<void>;
}

/** What a container gets at most to answer, on a loaded machine. */
const START_TIMEOUT_MS = 60_000;

/**
 * `podman run -d` of `image` with `runArgs` (options), its container port published on a free
 * loopback port, `command` after the image; removed when the run ends at the latest.
 */
export async function runContainer(image: string, containerPort: number, runArgs: string[], command: string[] = []): Promise<RunningContainer> {
  const hostPort = await freePort();
  const started = performance.now();
  const id = (await podman(["run", "-d", "-p", `127.0.0.1:${hostPort}:${containerPort}`, ...runArgs, image, ...command])).trim();
  const base = `http://127.0.0.1:${hostPort}`;
  const get = (pathAndQuery: string, headers: Record<string, string> = {}) => fetch(`${base}${pathAndQuery}`, { headers, signal: AbortSignal.timeout(10_000) });
  return {
    id,
    get,
    async waitFor(pathAndQuery, status, headers) {
      let last = "no answer";
      while (performance.now() - started < START_TIMEOUT_MS) {
        try {
          const response = await get(pathAndQuery, headers);
          await response.arrayBuffer();
          if (response.status === status) return performance.now() - started;
          last = `HTTP ${response.status}`;
        } catch (error) {
          last = String((error as Error).cause ?? error);
        }
        const state = (await podman(["inspect", "--format", "{{.State.Status}}", id])).trim();
        if (state !== "running") throw new Error(`the container stopped (${state}) before ${pathAndQuery} answered ${status}: ${(await podman(["logs", "--tail", "5", id]).catch(() => "")).trim()}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`${pathAndQuery} did not answer ${status} within ${START_TIMEOUT_MS} ms (last: ${last})`);
    },
    remove: async () => void (await podman(["rm", "--force", "--time", "0", id]).catch(() => undefined)),
  };
}
