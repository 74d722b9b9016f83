// Where vitest keeps each file's transform between runs (experimental.fsModuleCache, set in
// vitest.config.ts): a warm run then compiles only the files that changed. Vitest keys an entry on
// the file's own content and the config, not on what its imports resolve to (vitest-dev/vitest#11246:
// a module renamed or moved is still imported at its old path), so the folder is named after what
// resolution reads: the path of every module of the clone (JavaScript, TypeScript, JSON), and the
// content of every package.json, the lock file and the tsconfig files. A module added, removed or
// renamed, or another install, starts a new folder; a change of content alone keeps it. The newest
// folders stay, older ones go.
// Loaded with the config, in vitest's main process, before any test.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/** Outputs and installs: never imported by a test as a source that vitest transforms. */
const SKIP = new Set([".git", "node_modules", "dist", "site", "test-artifacts", "coverage", ".tmp", "prof"]);
/** What an import can name. */
const MODULE = /\.([mc]?[jt]sx?|json)$/;
/** Files whose content decides how an import resolves (exports, paths, the installed versions). */
const RESOLUTION = /^(package\.json|package-lock\.json|tsconfig[\w.-]*\.json)$/;
/** Folders kept: the current one, and those of the trees a clone switched between recently. */
const KEEP = 3;

/** The key of the clone at `root`: every module's path, and the content of the files resolution reads. */
function resolutionKey(root: string): string {
  const hash = createHash("sha256");
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (SKIP.has(entry.name)) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (MODULE.test(entry.name)) {
        hash.update(`${path.relative(root, full)}\0`);
        if (RESOLUTION.test(entry.name)) hash.update(fs.readFileSync(full));
      }
    }
  };
  walk(root);
  return hash.digest("hex").slice(0, 24);
}

/** The module cache's folder for the clone at `root` (under node_modules/.cache/vitest-modules/), older folders removed. */
export function moduleCacheFolder(root: string): string {
  const parent = path.join(root, "node_modules", ".cache", "vitest-modules");
  const folder = path.join(parent, resolutionKey(root));
  fs.mkdirSync(folder, { recursive: true });
  // Used now: the newest folders are the ones recent runs used.
  const now = new Date();
  fs.utimesSync(folder, now, now);
  const byAge = fs
    .readdirSync(parent, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => ({ dir: path.join(parent, entry.name), time: fs.statSync(path.join(parent, entry.name)).mtimeMs }))
    .sort((a, b) => b.time - a.time);
  for (const { dir } of byAge.slice(KEEP)) fs.rmSync(dir, { recursive: true, force: true });
  return folder;
}
