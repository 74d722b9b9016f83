// A folder built once per key, however many processes ask for it at the same time. The first to
// link the key's lock file into place (an atomic step only one can win) builds into a temporary
// folder and renames it into place when it is complete; the others wait until the folder is there,
// then use it. So a half-built folder is never used: only a complete one has the key's name. A
// builder stopped by a signal removes what it had half-built and its lock; one that died anyhow
// else leaves a lock naming a process that is gone, which the next caller removes with its leftovers
// (callers that take it over together may, rarely, both build: the first complete folder is kept).
// Plain JavaScript: the launcher (mock/bin/hr-mock.js) runs it before anything can compile
// TypeScript. Types: build-once.d.mts.
import { linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { threadId } from "node:worker_threads";

/** A lock older than this is taken over even when its process seems alive (its pid reused). */
const LOCK_TTL_MS = 30 * 60_000;
const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"];

const lockOf = (parent, key) => join(parent, `${key}.lock`);
let calls = 0;
/**
 * A temporary file's name beside `lock`, owned by this process and unique to this call: threads of
 * one process (vitest's workers, and its main thread) may lock at the same moment.
 */
const ownTemp = (lock) => `${lock}.${process.pid}.${threadId}-${++calls}.tmp`;
const isComplete = (parent, key) => statSync(join(parent, key), { throwIfNoEntry: false })?.isDirectory() === true;

/** Whether the process `pid` runs (one of another user counts). */
export function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM";
  }
}

/** Links a file naming this process as the lock: true when this process holds it now. */
function tryLock(lock) {
  const mine = ownTemp(lock);
  writeFileSync(mine, `${process.pid}\n`);
  try {
    linkSync(mine, lock);
    return true;
  } catch (error) {
    if (error.code !== "EEXIST") throw error;
    return false;
  } finally {
    rmSync(mine, { force: true });
  }
}

/** The lock's process is gone (or the lock is older than any build): nobody will finish its build. */
function isStale(lock) {
  let stat;
  let text;
  try {
    stat = statSync(lock);
    text = readFileSync(lock, "utf8");
  } catch (error) {
    // Gone between a look and a read: its builder finished (or gave up) meanwhile, so nothing is stale.
    if (error.code === "ENOENT") return false;
    throw error;
  }
  const pid = Number.parseInt(text, 10);
  return !Number.isInteger(pid) || !isAlive(pid) || Date.now() - stat.mtimeMs > LOCK_TTL_MS;
}

/**
 * Removes a stale lock, and only that one: it is moved aside first (one process wins the move), and
 * put back when what was moved is not stale after all (another process locked anew meanwhile).
 */
function takeOverStale(lock) {
  const aside = ownTemp(lock);
  try {
    renameSync(lock, aside);
  } catch (error) {
    if (error.code === "ENOENT") return; // another process moved it first
    throw error;
  }
  if (isStale(aside)) {
    rmSync(aside, { force: true });
    return;
  }
  try {
    linkSync(aside, lock);
  } catch (error) {
    // A third process locked in the meantime: two builds may run, and build-once keeps the first to finish.
    if (error.code !== "EEXIST") throw error;
  } finally {
    rmSync(aside, { force: true });
  }
}

/** Temporary folders and locks whose process is gone; with `keep`, complete folders beyond the newest `keep`. */
function removeLeftovers(parent, keep) {
  const complete = [];
  for (const name of readdirSync(parent)) {
    const full = join(parent, name);
    const owner = /\.building-(\d+)-/.exec(name)?.[1] ?? (/\.lock\.(\d+)\.[\d-]+\.tmp$/.exec(name) || undefined)?.[1];
    if (owner !== undefined) {
      if (!isAlive(Number(owner))) rmSync(full, { recursive: true, force: true });
    } else if (name.endsWith(".lock")) {
      if (isStale(full)) rmSync(full, { force: true });
    } else if (!name.includes(".") && statSync(full).isDirectory()) complete.push({ full, time: statSync(full).mtimeMs });
  }
  complete.sort((a, b) => b.time - a.time);
  for (const { full } of complete.slice(keep)) rmSync(full, { recursive: true, force: true });
}

/**
 * The folder `parent/key`, built by `build(temporaryFolder)` unless it exists. `onBuild` is called
 * when this process builds it, `onWait` once when it waits for another's build. With `keep`, the
 * newest `keep` complete folders stay and older ones go after a build.
 * @param {{ parent: string, key: string, build: (folder: string) => Promise<void>, onBuild?: () => void, onWait?: () => void, keep?: number, pollMs?: number }} options
 * @returns {Promise<string>}
 */
export async function buildOnce({ parent, key, build, onBuild = () => {}, onWait = () => {}, keep = Number.POSITIVE_INFINITY, pollMs = 50 }) {
  if (!/^[A-Za-z0-9_-]+$/.test(key)) throw new Error(`buildOnce: the key "${key}" must be letters, digits, - or _`);
  const target = join(parent, key);
  if (isComplete(parent, key)) return target;
  mkdirSync(parent, { recursive: true });
  const lock = lockOf(parent, key);
  let waiting = false;
  for (;;) {
    if (isComplete(parent, key)) return target;
    if (tryLock(lock)) break;
    if (isStale(lock)) {
      takeOverStale(lock);
      continue;
    }
    if (!waiting) onWait();
    waiting = true;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  let temp;
  const onSignal = (signal) => {
    if (temp) rmSync(temp, { recursive: true, force: true });
    rmSync(lock, { force: true });
    for (const s of SIGNALS) process.removeListener(s, onSignal);
    process.kill(process.pid, signal);
  };
  for (const signal of SIGNALS) process.on(signal, onSignal);
  try {
    // Another process may have finished between our last look and our lock.
    if (isComplete(parent, key)) return target;
    removeLeftovers(parent, Number.POSITIVE_INFINITY);
    onBuild();
    temp = mkdtempSync(join(parent, `${key}.building-${process.pid}-`));
    try {
      await build(temp);
      renameSync(temp, target);
    } catch (error) {
      rmSync(temp, { recursive: true, force: true });
      // Two processes that took over the same stale lock both build; the second to finish finds the
      // first's complete folder under the key's name, as good as its own.
      if (!isComplete(parent, key)) throw error;
    }
    removeLeftovers(parent, keep);
    return target;
  } finally {
    for (const signal of SIGNALS) process.removeListener(signal, onSignal);
    releaseLock(lock);
  }
}

/** Removes the lock if it still names this process (after a very long build another may have taken it over). */
function releaseLock(lock) {
  try {
    if (Number.parseInt(readFileSync(lock, "utf8"), 10) === process.pid) unlinkSync(lock);
  } catch {
    // Already gone: nothing to release.
  }
}
