// The packages as users get them: built, packed with npm pack, and installed from the tarballs into
// empty projects, as a frontend team, an integration team or a CI pipeline would. Their
// dependencies come from npm's cache (filled by the repository's own install) or the registry.
// Used by the package tests (with the run's docs site, test/support/docs-site.ts) and by npm run bench.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { buildPackages, PACKAGES, type BuildOptions, type PackageName } from "../build-package.js";
import { repoRoot } from "./spec-document.js";

export interface PackedPackage {
  /** The tarball's path. */
  file: string;
  /** The files it holds, as npm pack lists them. */
  files: string[];
}

export interface PackedInstall {
  /** The folder holding the tarballs and the projects. */
  work: string;
  tarballs: Record<PackageName, PackedPackage>;
  /** Each project (its folder) that was asked for, by name. */
  projects: Record<string, string>;
}

function run(command: string, args: string[], cwd: string, timeout = 180_000): string {
  const result = spawnSync(command, args, { cwd, encoding: "utf8", timeout, env: { ...process.env, NO_COLOR: "1" } });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed (${result.status ?? result.signal}): ${(result.stderr || result.stdout).trim().split("\n").slice(-5).join(" | ")}`);
  return result.stdout;
}

/** Both packages packed into `work` by one npm pack (each npm process costs about a second to start). */
function packBoth(work: string): Record<PackageName, PackedPackage> {
  // Built just before; --ignore-scripts keeps npm from building again in prepack.
  const out = run("npm", ["pack", "--workspace", "mock", "--include-workspace-root", "--ignore-scripts", "--json", "--pack-destination", work], repoRoot);
  const packed = JSON.parse(out.slice(out.indexOf("["))) as { name: string; filename: string; files: { path: string }[] }[];
  const one = (which: PackageName): PackedPackage => {
    const name = JSON.parse(fs.readFileSync(path.join(PACKAGES[which].dir, "package.json"), "utf8")).name as string;
    const info = packed.find((p) => p.name === name);
    if (!info) throw new Error(`npm pack packed no ${name} (it packed ${packed.map((p) => p.name).join(", ")})`);
    return { file: path.join(work, info.filename), files: info.files.map((f) => f.path) };
  };
  return { contract: one("contract"), mock: one("mock") };
}

// Throwaway projects: no lock file written, and no install scripts run (the packages have none;
// msw's postinstall copies its worker script only into a folder the project configures).
const INSTALL = ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", "--no-package-lock", "--loglevel=error"];

/** `npm install` of `specs` in the project `dir`, without blocking this process. */
function npmInstall(dir: string, specs: string[]): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const child = spawn("npm", [...INSTALL, ...specs], { cwd: dir, stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, NO_COLOR: "1" } });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`npm install ${specs.map((spec) => path.basename(spec)).join(" ")} into ${path.basename(dir)} failed (${code}): ${stderr.trim().split("\n").slice(-5).join(" | ")}`))));
  });
}

/** An empty project (`name`) under `work` with `specs` (tarballs or name@version) installed. */
export async function installInto(work: string, name: string, specs: string[]): Promise<string> {
  const dir = path.join(work, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: `try-${name}`, version: "1.0.0", private: true, type: "module" }));
  await npmInstall(dir, specs);
  return dir;
}

/** `npm install` of more packages into a project made by installInto. */
export function addTo(dir: string, specs: string[]): Promise<void> {
  return npmInstall(dir, specs);
}

/**
 * Builds both packages, packs them into `work` and installs them into the projects asked for:
 * each names the packages it installs ("contract", "mock").
 */
export async function packAndInstall(work: string, projects: Record<string, PackageName[]>, log: (line: string) => void = () => {}, build: BuildOptions = {}): Promise<PackedInstall> {
  log("building both packages (npm run build)…");
  await buildPackages(["contract", "mock"], log, build);
  log("packing them (npm pack)…");
  const tarballs = packBoth(work);
  // The projects install side by side: npm spends most of its time waiting on files and the cache.
  const installed = await Promise.all(
    Object.entries(projects).map(async ([name, packages]) => {
      log(`installing ${packages.map((p) => path.basename(tarballs[p].file)).join(" and ")} into an empty project (${name})…`);
      return [name, await installInto(work, name, packages.map((p) => tarballs[p].file))] as const;
    }),
  );
  return { work, tarballs, projects: Object.fromEntries(installed) };
}

/** Bytes of every file under a folder (what an install costs on disk, block rounding aside). */
export function sizeOf(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) total += sizeOf(full);
    else if (entry.isFile()) total += fs.statSync(full).size;
  }
  return total;
}
