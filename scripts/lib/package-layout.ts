// Where the built mock's files come from, apart from the build itself (scripts/build-package.ts),
// so that what only needs the layout (the development bundle, the manual's tests) does not load the
// build's tools (the docs builder, the declaration bundler and TypeScript) with it.
import fs from "node:fs";
import path from "node:path";
import { repoRoot } from "./spec-document.js";

/**
 * The mock's built entries beyond its package.json exports (whose "import" targets are entries
 * too), as paths in its dist/: the command line that bin/hr-mock.js runs (its commands are import()s
 * of literal paths, which esbuild follows by itself), and mock/cli.ts, which runs it when started
 * directly (node mock/dist/mock/cli.js, as the profiling guide does).
 */
export const MOCK_ENTRIES_BEYOND_EXPORTS = ["dist/mock/cli/main.js", "dist/mock/cli.js"];

/** Packages the mock's bundle leaves to the project (peer dependencies). */
export const MOCK_EXTERNAL = ["msw", "@playwright/test"];

/** The mock's exports that name their files by condition ("import", "types", "browser"). */
export function mockExportTargets(): Record<string, string>[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, "mock", "package.json"), "utf8")) as { exports: Record<string, string | Record<string, string>> };
  return Object.values(manifest.exports).flatMap((target) => (typeof target === "object" ? [target] : []));
}

/** The mock's entries (source files): every "import" target of its exports, then MOCK_ENTRIES_BEYOND_EXPORTS. */
export function mockEntries(): string[] {
  const exported = mockExportTargets().flatMap((target) => (target.import ? [target.import] : []));
  return [...exported, ...MOCK_ENTRIES_BEYOND_EXPORTS].map(sourceOf);
}

/** The source of a built file: dist/ keeps the repository's layout (dist/mock/cli/main.js <- mock/cli/main.ts). */
export function sourceOf(distPath: string): string {
  const source = distPath.replace(/^\.\//, "").replace(/^dist\//, "").replace(/\.js$/, ".ts");
  if (!fs.existsSync(path.join(repoRoot, source))) throw new Error(`build: ${distPath} has no source ${source}`);
  return source;
}
