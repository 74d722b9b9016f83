// Folders a test file makes under the system's temporary folder, removed when the file ends
// (test/support/remove-temp-dirs.ts, a setup file, registers that), so a run leaves none behind.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const made = new Set<string>();

/** A new folder under the system's temporary folder, removed after the current test file. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.add(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
  made.clear();
}
