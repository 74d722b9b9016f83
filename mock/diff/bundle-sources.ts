// Which files each bundle of generated/ was made from, with their SHA-256, as `npm run generate`
// records them: the diff compares those bundles, so an edit of the documents without a generate is
// refused by name, never compared as if it were not there.
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";

const BUNDLE_SOURCES_FILE = "bundle-sources.json";

/** bundle file name (openapi.json) → source path relative to the repository → SHA-256 of its bytes. */
type BundleSources = Record<string, Record<string, string>>;

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

/** The record generate writes: each bundle's sources (relative to `root`) with their hashes, as they are now. */
export async function renderBundleSources(sources: Record<string, string[]>, root: string): Promise<Record<string, string | Record<string, string>>> {
  const record: BundleSources = {};
  for (const [bundle, files] of Object.entries(sources)) {
    record[bundle] = Object.fromEntries(await Promise.all(files.map(async (file) => [file, sha256(await fs.readFile(path.join(root, file)))] as const)));
  }
  return { $comment: "Written by npm run generate: the files each bundle was made from, with the SHA-256 of each; npm run diff refuses a bundle whose sources changed since.", ...record };
}

interface StaleBundle {
  /** e.g. generated/openapi.json */
  bundle: string;
  /** Sources changed or removed since the bundle was written, relative to the repository. */
  changed: string[];
}

/** The bundles of a repository's generated/ whose sources changed since `npm run generate` recorded them (no record: all). */
export async function staleBundles(generatedDir: string, bundles: readonly string[]): Promise<StaleBundle[]> {
  const root = path.dirname(path.resolve(generatedDir));
  const folder = path.relative(root, path.resolve(generatedDir)) || ".";
  let record: BundleSources;
  try {
    record = JSON.parse(await fs.readFile(path.join(generatedDir, BUNDLE_SOURCES_FILE), "utf8"));
  } catch {
    return bundles.map((bundle) => ({ bundle: `${folder}/${bundle}`, changed: [`${folder}/${BUNDLE_SOURCES_FILE} (missing or unreadable)`] }));
  }
  const stale: StaleBundle[] = [];
  for (const bundle of bundles) {
    const sources = record[bundle];
    if (!sources || typeof sources !== "object") {
      stale.push({ bundle: `${folder}/${bundle}`, changed: [`${folder}/${BUNDLE_SOURCES_FILE} (no entry for ${bundle})`] });
      continue;
    }
    const changed: string[] = [];
    for (const [file, hash] of Object.entries(sources)) {
      const bytes = await fs.readFile(path.join(root, file)).catch(() => undefined);
      if (!bytes) changed.push(`${file} (removed)`);
      else if (sha256(bytes) !== hash) changed.push(file);
    }
    if (changed.length) stale.push({ bundle: `${folder}/${bundle}`, changed });
  }
  return stale;
}
