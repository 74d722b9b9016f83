// A TypeScript entry of the repository that a test runs as a child process (test/state/kill-child.ts),
// bundled once per run with the package's own Node settings (scripts/dev-bundle.ts): each child then
// starts from one file, where running the sources through tsx cost seconds of CPU per child.
import path from "node:path";
import { bundleFromSources } from "../../scripts/dev-bundle.js";
import { sharedThisRun } from "./run-once.js";

/** The bundled JavaScript file of `entry` (a path from the repository root); run it with process.execPath. */
export async function bundledEntry(entry: string): Promise<string> {
  const { folder } = await sharedThisRun(`entry-${entry.replace(/[^A-Za-z0-9]+/g, "-")}`, async (into) => {
    await bundleFromSources(into, [entry]);
    return null;
  });
  return path.join(folder, "dist", entry.replace(/\.ts$/, ".js"));
}
