// A key for a set of files made from their content, never their times: a file rewritten or
// touched with the same bytes keeps the key, any changed, added or removed file changes it. So
// that an unchanged tree costs no reads, each file's hash is kept in a cache file beside its stat
// (size, mtime, ctime); only a file whose stat moved is read again.
// Plain JavaScript: the launcher (mock/bin/hr-mock.js) needs the key before anything can compile
// TypeScript. Types: content-key.d.mts.
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

const CACHE_VERSION = 1;

/** The files under `inputs` (folders or files, relative to `root`), as relative paths with "/", sorted. */
function listFiles(root, inputs, skip) {
  const files = [];
  const walk = (rel) => {
    const full = join(root, rel);
    const stat = statSync(full, { throwIfNoEntry: false });
    if (!stat) return;
    if (!stat.isDirectory()) return void files.push(rel);
    for (const entry of readdirSync(full, { withFileTypes: true })) {
      const child = `${rel}/${entry.name}`;
      if (!skip(child)) entry.isDirectory() ? walk(child) : files.push(child);
    }
  };
  for (const input of inputs) if (!skip(input)) walk(input);
  return files.sort();
}

function readCache(file) {
  try {
    const cache = JSON.parse(readFileSync(file, "utf8"));
    return cache.version === CACHE_VERSION && cache.files && typeof cache.files === "object" ? cache.files : {};
  } catch {
    // Missing or torn (a writer killed midway cannot tear it: it is renamed into place): start over.
    return {};
  }
}

/** Written beside, then renamed: a launcher reading at the same time sees the old cache or the new one. */
function writeCache(file, files) {
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify({ version: CACHE_VERSION, files }));
  renameSync(temp, file);
}

/**
 * The content key of `inputs` under `root`. `skip(relativePath)` leaves a file or folder out
 * (outputs, node_modules). Answers the key, how many files it covers and how many were read
 * (0 when nothing changed since the cache was written).
 * @param {{ root: string, inputs: string[], cacheFile: string, skip?: (path: string) => boolean }} options
 */
export function contentKey({ root, inputs, cacheFile, skip = () => false }) {
  const cached = readCache(cacheFile);
  const files = listFiles(root, inputs, skip);
  const next = {};
  const key = createHash("sha256");
  let read = 0;
  for (const file of files) {
    const stat = statSync(join(root, file));
    const stamp = `${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}`;
    let hash = cached[file]?.[0] === stamp ? cached[file][1] : undefined;
    if (hash === undefined) {
      hash = createHash("sha256").update(readFileSync(join(root, file))).digest("hex");
      read++;
    }
    next[file] = [stamp, hash];
    key.update(`${file}\0${hash}\n`);
  }
  const stale = read > 0 || Object.keys(cached).length !== files.length;
  if (stale) writeCache(cacheFile, next);
  return { key: key.digest("hex").slice(0, 24), files: files.length, read };
}
