// The development bundle that `npm start` and `npx hr-mock` run in a clone: the command line built
// from the sources with the package's own Node bundle settings (scripts/lib/node-bundle.ts: Prism's
// rarely read modules loaded on first read, one file to parse instead of some 3,000). The launcher
// (mock/bin/hr-mock.js) keys it on the content of its inputs (scripts/lib/content-key.mjs) and has
// it built once per key into node_modules/.cache/hr-mock-dev/<key>/ (scripts/lib/build-once.mjs:
// one builder, the others wait). Building takes a few seconds, starting from it well under one.
// The bundle reads generated/ and site/ of the clone, by links.
import { symlink } from "node:fs/promises";
import path from "node:path";
import { MOCK_ENTRIES_BEYOND_EXPORTS, sourceOf } from "./lib/package-layout.js";
import { repoRoot } from "./lib/spec-document.js";
import { bundleForNode } from "./lib/node-bundle.js";

/**
 * Bundles `entries` (source files of the repository) into `folder`/dist with the package's Node
 * bundle settings, at their paths from the repository root (mock/cli.ts -> dist/mock/cli.js), and
 * links the clone's generated/ and site/ there, which the bundle reads at run time.
 */
export async function bundleFromSources(folder: string, entries: string[]): Promise<void> {
  const dist = path.join(folder, "dist");
  await bundleForNode({ repoRoot, entries, dist, external: ["msw"] });
  // The bundle names the files it reads from its dist root: the clone's own, current ones.
  await symlink(path.join(repoRoot, "generated"), path.join(dist, "generated"), "dir");
  await symlink(path.join(repoRoot, "site"), path.join(dist, "site"), "dir");
}

/** Builds the development bundle into `folder` (a temporary one, renamed into place by the caller once complete). */
export function buildDevBundle(folder: string): Promise<void> {
  return bundleFromSources(folder, MOCK_ENTRIES_BEYOND_EXPORTS.map(sourceOf));
}
