// The TypeScript entries of the repository that tests run as child processes, built once per run:
// each child then starts from one file, where running the sources through tsx cost seconds of CPU
// per child. What they import from the mock's public entry (mock/index.ts) is the development
// bundle's (hr-mock.ts: the mock's sources with the package's own Node settings, built once per
// change of the sources), so only the entries themselves are bundled here, all of them together by
// the first file that asks, in a moment.
import path from "node:path";
import type { Plugin } from "esbuild";
import { repoRoot } from "../../scripts/lib/spec-document.js";
import { devBundle } from "./hr-mock.js";
import { sharedThisRun } from "./run-once.js";

/** Every entry a test runs as a child (paths from the repository root). */
const CHILD_ENTRIES = ["test/state/kill-child.ts", "test/state-redis/replica-child.ts"] as const;

/** The mock's public entry, as the entries import it. */
const MOCK_INDEX = path.join(repoRoot, "mock", "index.js");

/** Resolves the entries' import of the mock's public entry to `file`, left an import. */
const mockFrom = (file: string): Plugin => ({
  name: "mock-from-dev-bundle",
  setup(build) {
    build.onResolve({ filter: /\/mock\/index\.js$/ }, (args) => (path.resolve(args.resolveDir, args.path) === MOCK_INDEX ? { path: file, external: true } : undefined));
  },
});

/** The bundled JavaScript file of `entry` (one of CHILD_ENTRIES); run it with process.execPath. */
export async function bundledEntry(entry: (typeof CHILD_ENTRIES)[number]): Promise<string> {
  if (!CHILD_ENTRIES.includes(entry)) throw new Error(`${entry} is not among the child entries of test/support/bundled-entry.ts: ${CHILD_ENTRIES.join(", ")}`);
  const { folder } = await sharedThisRun("child-entries", async (into) => {
    // Loaded by the file that builds only: the others wait for the folder and never need it.
    const [{ build }, bundle] = await Promise.all([import("esbuild"), devBundle()]);
    const mockIndex = path.join(bundle, "dist", "mock", "index.js");
    await build({ entryPoints: CHILD_ENTRIES.map((file) => path.join(repoRoot, file)), outbase: repoRoot, outdir: path.join(into, "dist"), bundle: true, format: "esm", platform: "node", target: "node20", plugins: [mockFrom(mockIndex)], logLevel: "silent" });
    return null;
  });
  return path.join(folder, "dist", entry.replace(/\.ts$/, ".js"));
}
