// What the test files of one run share, given the run's folder: the part of run-once.ts that needs
// no vitest runtime, so that the main process (the sequencer) can start a shared thing too.
import fs from "node:fs";
import path from "node:path";
import { buildOnce } from "../../scripts/lib/build-once.mjs";

/**
 * The thing `name` of the run whose folder is `runDir`: made by the first caller (a file, or the
 * sequencer) while the others wait for it (scripts/lib/build-once.mjs); see sharedThisRun.
 */
export async function sharedIn<T>(runDir: string, name: string, make: (folder: string) => Promise<T>): Promise<{ folder: string; value: T }> {
  const folder = await buildOnce({
    parent: runDir,
    key: name,
    pollMs: 100,
    build: async (into) => {
      fs.writeFileSync(path.join(into, "value.json"), JSON.stringify((await make(into)) ?? null));
    },
  });
  return { folder, value: JSON.parse(fs.readFileSync(path.join(folder, "value.json"), "utf8")) as T };
}

/** The folder `name` of the run whose folder is `runDir`, which no shared thing is built into; see runFolder. */
export function folderIn(runDir: string, name: string): string {
  const dir = path.join(runDir, "folders", name);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}
