// The TypeScript entries of the repository that tests run as child processes, bundled once per run
// with the package's own Node settings (scripts/dev-bundle.ts): each child then starts from one
// file, where running the sources through tsx cost seconds of CPU per child. All of them are
// bundled together, by the first file that asks: one build costs about what each alone did.
import path from "node:path";
import { sharedThisRun } from "./run-once.js";

/** Every entry a test runs as a child (paths from the repository root). */
const CHILD_ENTRIES = ["test/state/kill-child.ts", "test/state-redis/replica-child.ts"] as const;

/** The bundled JavaScript file of `entry` (one of CHILD_ENTRIES); run it with process.execPath. */
export async function bundledEntry(entry: (typeof CHILD_ENTRIES)[number]): Promise<string> {
  if (!CHILD_ENTRIES.includes(entry)) throw new Error(`${entry} is not among the child entries of test/support/bundled-entry.ts: ${CHILD_ENTRIES.join(", ")}`);
  const { folder } = await sharedThisRun("child-entries", async (into) => {
    // Loaded by the file that builds only: the others wait for the folder and never need it.
    const { bundleFromSources } = await import("../../scripts/dev-bundle.js");
    await bundleFromSources(into, [...CHILD_ENTRIES]);
    return null;
  });
  return path.join(folder, "dist", entry.replace(/\.ts$/, ".js"));
}
