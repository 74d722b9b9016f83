// The report files of a run (--junit, --json): made sure of before anything is sent, so a path that
// cannot be written is bad usage told at once, and written in full at the end. The first write is a
// report of its own saying the run did not finish, so a run that is killed (a CI timeout) still
// leaves a file naming what happened instead of none.
import fs from "node:fs";
import path from "node:path";

/** The error's code (ENOENT, EACCES, ENOTDIR) or message, for one line. */
export const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code ?? (error as Error).message;

/**
 * Creates the missing folders of a path one level at a time. fs.mkdirSync(dir, { recursive: true })
 * never returns on Node 20 for a folder under one that exists but cannot hold it (/proc/nope:
 * mkdir answers ENOENT, its parent EEXIST, and Node's walk retries the pair for ever, at full CPU);
 * here an ENOENT under an existing parent is final.
 */
export function makeFolders(dir: string): void {
  const missing: string[] = [];
  for (let at = path.resolve(dir); !fs.existsSync(at); at = path.dirname(at)) {
    missing.push(at);
    if (path.dirname(at) === at) break;
  }
  for (const folder of missing.reverse()) fs.mkdirSync(folder);
}

/**
 * Makes the file's folders and writes `placeholder` there. Returns one line for the user (after the
 * flag) when that fails, else undefined.
 */
export function prepareReportFile(flag: string, file: string, placeholder: string): string | undefined {
  try {
    makeFolders(path.dirname(path.resolve(file)));
    fs.writeFileSync(file, placeholder);
    return undefined;
  } catch (error) {
    return `${flag} ${file}: cannot write there (${errorCode(error)})`;
  }
}

/** Writes a report over its placeholder; one line for the user when that fails, else undefined. */
export function writeReportFile(flag: string, file: string, text: string): string | undefined {
  try {
    fs.writeFileSync(file, text);
    return undefined;
  } catch (error) {
    return `cannot write ${flag} ${file} (${errorCode(error)})`;
  }
}
