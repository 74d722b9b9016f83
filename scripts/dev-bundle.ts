// The development bundle that `npm start` and `npx hr-mock` run in a clone: the command line built
// from the sources with the package's own Node bundle settings (scripts/lib/node-bundle.ts: Prism's
// rarely read modules loaded on first read, one file to parse instead of some 3,000), into
// node_modules/.cache/hr-mock-dev/<stamp>/, where <stamp> is the newest change of the sources. The
// launcher (mock/bin/hr-mock.js) rebuilds it when a source changed; building takes a few seconds,
// starting from it well under one. The bundle reads generated/ and site/ of the clone, by links.
import { mkdtemp, mkdir, rename, rm, symlink, readdir } from "node:fs/promises";
import path from "node:path";
import { MOCK_ENTRIES_BEYOND_EXPORTS, sourceOf } from "./build-package.js";
import { repoRoot } from "./generate/bundle.js";
import { bundleForNode } from "./lib/node-bundle.js";

export const DEV_BUNDLES = path.join(repoRoot, "node_modules", ".cache", "hr-mock-dev");

/** Builds the bundle for `stamp` (atomically: a launcher started beside this one sees all or nothing). */
export async function buildDevBundle(stamp: string): Promise<string> {
  await mkdir(DEV_BUNDLES, { recursive: true });
  const target = path.join(DEV_BUNDLES, stamp);
  const building = await mkdtemp(path.join(DEV_BUNDLES, `${stamp}.building-`));
  try {
    const dist = path.join(building, "dist");
    await bundleForNode({ repoRoot, entries: MOCK_ENTRIES_BEYOND_EXPORTS.map(sourceOf), dist, external: ["msw"] });
    // The bundle names the files it reads from its dist root: the clone's own, current ones.
    await symlink(path.join(repoRoot, "generated"), path.join(dist, "generated"), "dir");
    await symlink(path.join(repoRoot, "site"), path.join(dist, "site"), "dir");
    await rename(building, target).catch(async (error: NodeJS.ErrnoException) => {
      // Another launcher finished the same bundle first: keep its.
      if (error.code !== "ENOTEMPTY" && error.code !== "EEXIST") throw error;
      await rm(building, { recursive: true, force: true });
    });
  } catch (error) {
    await rm(building, { recursive: true, force: true });
    throw error;
  }
  // Bundles of older sources go.
  for (const name of await readdir(DEV_BUNDLES)) if (name !== stamp && !name.includes(".building-")) await rm(path.join(DEV_BUNDLES, name), { recursive: true, force: true });
  return path.join(target, "dist", "mock", "cli", "main.js");
}
