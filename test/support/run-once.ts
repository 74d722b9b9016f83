// What the test files of one run share: made by the first file that asks, while the others that ask
// wait for it (scripts/lib/build-once.mjs, the launcher's own lock), then used by all. Each thing
// lives in a folder of the run's own (test/global-setup.ts makes it and removes it at the end,
// and stops every process registered with stopAtEnd). A thing that failed to be made is made again
// by the next file that asks, so each file reports the failure in its own terms.
import fs from "node:fs";
import path from "node:path";
import { inject } from "vitest";
import { folderIn, sharedIn } from "./run-shared.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** The run's own folder (test/global-setup.ts). */
    runDir: string;
  }
}

/** Where processes to stop at the end of the run are listed, one file per process group. */
export const STOP_DIR = "stop";

/**
 * The thing `name` of this run: `make(folder)` fills a new folder and answers a JSON value (paths in
 * it relative to the folder, which is renamed into place once made). Answers that value and the
 * folder where it lies.
 */
export function sharedThisRun<T>(name: string, make: (folder: string) => Promise<T>): Promise<{ folder: string; value: T }> {
  return sharedIn(inject("runDir"), name, make);
}

/** A folder of the run that no shared thing is built into (a browser's profile, which must not move). */
export function runFolder(name: string): string {
  return folderIn(inject("runDir"), name);
}

/** The process group of `pid` (spawned detached) is killed when the run ends. */
export function stopAtEnd(pid: number): void {
  fs.mkdirSync(path.join(inject("runDir"), STOP_DIR), { recursive: true });
  fs.writeFileSync(path.join(inject("runDir"), STOP_DIR, String(pid)), "");
}
