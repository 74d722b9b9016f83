// The only file I/O of a state directory: whole files replaced atomically (write a temporary file,
// fsync it, rename it over the old one, fsync the directory), and an append-only journal whose
// torn last line, left by a kill in the middle of a write, is recognised and cut off. Every file is
// created readable only by the owner (0600): endpoint secrets live in them.
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, truncateSync, writeSync } from "node:fs";
import { dirname } from "node:path";

export const FILE_MODE = 0o600;
export const DIR_MODE = 0o700;

/** Replaces `path` with `text`: a reader sees the old content or the new, never a part of it. */
export function writeAtomic(path: string, text: string): void {
  const temporary = `${path}.tmp`;
  const fd = openSync(temporary, "w", FILE_MODE);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, path);
  syncDirectory(dirname(path));
}

/** Appends one line and waits until it is on disk. */
export function appendLine(path: string, line: string): void {
  const fd = openSync(path, "a", FILE_MODE);
  try {
    writeSync(fd, `${line}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * A journal's complete lines. A last line without its newline is a write the process did not
 * finish: it is cut off the file, so the next append starts on a line of its own.
 */
export function readJournal(path: string): { lines: string[]; tornBytes: number } {
  const text = readTextOrUndefined(path);
  if (text === undefined) return { lines: [], tornBytes: 0 };
  const end = text.lastIndexOf("\n") + 1;
  const tornBytes = Buffer.byteLength(text.slice(end));
  if (tornBytes > 0) truncateSync(path, Buffer.byteLength(text.slice(0, end)));
  return { lines: text.slice(0, end).split("\n").slice(0, -1), tornBytes };
}

/** A file's text, or undefined when there is no such file. */
export function readTextOrUndefined(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

function syncDirectory(path: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    fsyncSync(fd);
  } catch {
    // Some file systems cannot fsync a directory; the rename is still atomic there.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
