// The development bundle that `npm start` and `npx hr-mock` run in a clone: the command line built
// from the sources with the package's own Node bundle settings (scripts/lib/node-bundle.ts: Prism's
// rarely read modules loaded on first read, one file to parse instead of some 3,000). The launcher
// (mock/bin/hr-mock.js) keys it on the content of its inputs (scripts/lib/content-key.mjs) and has
// it built once per key into node_modules/.cache/hr-mock-dev/<key>/ (scripts/lib/build-once.mjs:
// one builder, the others wait). Building takes a few seconds, starting from it well under one.
// The bundle reads generated/ and site/ of the clone, by links.
// It bundles the package's own entries (all of them, for about the CPU of the command line's
// alone), so its Node bundle is the package's, file for file: the tests' package build copies it
// (copyNodeBundle) rather than bundle the same sources again.
import fs from "node:fs";
import { symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Metafile } from "esbuild";
import { MOCK_EXTERNAL, mockEntries } from "./lib/package-layout.js";
import { repoRoot } from "./lib/spec-document.js";
import { bundleForNode, type NodeBundle } from "./lib/node-bundle.js";

/** What esbuild put into the development bundle (its metafiles), beside its dist/. */
const METAFILES = "metafiles.json";

/**
 * Bundles `entries` (source files of the repository) into `folder`/dist with the package's Node
 * bundle settings, at their paths from the repository root (mock/cli.ts -> dist/mock/cli.js), and
 * links the clone's generated/ and site/ there, which the bundle reads at run time.
 */
export async function bundleFromSources(folder: string, entries: string[]): Promise<NodeBundle> {
  const dist = path.join(folder, "dist");
  const bundle = await bundleForNode({ repoRoot, entries, dist, external: MOCK_EXTERNAL });
  // The bundle names the files it reads from its dist root: the clone's own, current ones.
  await symlink(path.join(repoRoot, "generated"), path.join(dist, "generated"), "dir");
  await symlink(path.join(repoRoot, "site"), path.join(dist, "site"), "dir");
  return bundle;
}

/** Builds the development bundle into `folder` (a temporary one, renamed into place by the caller once complete). */
export async function buildDevBundle(folder: string): Promise<void> {
  const { metafiles } = await bundleFromSources(folder, mockEntries());
  await writeFile(path.join(folder, METAFILES), JSON.stringify(metafiles));
}

/** The Node bundle of the development bundle in `folder` (built from the current sources) copied into a package's `dist`: its own files, not the links to the clone's folders. */
export function copyNodeBundle(folder: string, dist: string): NodeBundle {
  fs.cpSync(path.join(folder, "dist"), dist, { recursive: true, filter: (file) => !fs.lstatSync(file).isSymbolicLink() });
  return { metafiles: JSON.parse(fs.readFileSync(path.join(folder, METAFILES), "utf8")) as Metafile[] };
}
