// The releases recorded in the repository: contract-releases/<version>/ holding that version's
// bundled openapi.json and asyncapi.json, and release.json with its date. Recorded as files (not
// only git tags) so that a fresh clone without tags still knows them.
import fs from "node:fs/promises";
import path from "node:path";

export const RELEASES_DIR = "contract-releases";
export const ACKNOWLEDGEMENTS_FILE = "acknowledged.json";

interface RecordedRelease {
  version: string;
  dir: string;
  /** The day it was recorded, YYYY-MM-DD. */
  date: string;
}

const SEMVER = /^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?$/;

/** Orders versions as semver does (a pre-release before its release). */
export function compareVersions(a: string, b: string): number {
  const [x, y] = [SEMVER.exec(a), SEMVER.exec(b)];
  if (!x || !y) return a.localeCompare(b);
  for (let i = 1; i <= 3; i++) if (Number(x[i]) !== Number(y[i])) return Number(x[i]) - Number(y[i]);
  if (x[4] === y[4]) return 0;
  if (!x[4]) return 1;
  if (!y[4]) return -1;
  return x[4].localeCompare(y[4], undefined, { numeric: true });
}

/** Every recorded release under `root`, oldest first; none when the folder is missing. */
export async function listReleases(root: string): Promise<RecordedRelease[]> {
  const entries = await fs.readdir(root, { withFileTypes: true }).catch(() => []);
  const releases: RecordedRelease[] = [];
  for (const entry of entries) {
    if (!entry.isDirectory() || !SEMVER.test(entry.name)) continue;
    const dir = path.join(root, entry.name);
    const meta = JSON.parse(await fs.readFile(path.join(dir, "release.json"), "utf8").catch(() => "{}")) as { date?: string };
    releases.push({ version: entry.name, dir, date: meta.date ?? "" });
  }
  return releases.sort((a, b) => compareVersions(a.version, b.version));
}
