// The only file I/O of a state directory: whole files replaced atomically, and an append-only journal
// whose torn last line (a kill in the middle of a write) is recognised, reported by the store and cut
// off before the next append. Every file is readable only by the owner: endpoint secrets live in them.
import { closeSync, fstatSync, fsyncSync, ftruncateSync, openSync, readFileSync, renameSync, truncateSync, writeSync } from "node:fs";
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

/** Appends one line and waits until it is on disk; a write that fails part-way (a full disk) is cut back off. */
export function appendLine(path: string, line: string): void {
  const bytes = Buffer.from(`${line}\n`, "utf8");
  const fd = openSync(path, "a", FILE_MODE);
  const size = fstatSync(fd).size;
  try {
    for (let written = 0; written < bytes.length; ) written += writeSync(fd, bytes, written);
    fsyncSync(fd);
  } catch (error) {
    try {
      ftruncateSync(fd, size);
    } catch {
      // The file keeps a torn tail: the next start skips it and says so.
    }
    throw error;
  } finally {
    closeSync(fd);
  }
}

/** A journal's complete lines, and `torn`: the text after its last newline, a write not finished. Reading changes nothing. */
export function readJournal(path: string): { lines: string[]; torn: string } {
  const text = readTextOrUndefined(path);
  if (text === undefined) return { lines: [], torn: "" };
  const end = text.lastIndexOf("\n") + 1;
  return { lines: text.slice(0, end).split("\n").slice(0, -1), torn: text.slice(end) };
}

/** Cuts a torn last line off the journal, so that the next append starts on a line of its own. */
export function cutTornTail(path: string): void {
  const text = readTextOrUndefined(path);
  if (text === undefined) return;
  const end = text.lastIndexOf("\n") + 1;
  if (end < text.length) truncateSync(path, Buffer.byteLength(text.slice(0, end)));
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
