// Types of content-key.mjs (plain JavaScript, run by the launcher before TypeScript can be compiled).
export interface ContentKeyOptions {
  /** The folder the inputs are named from. */
  root: string;
  /** Folders or files, relative to root ("mock", "package-lock.json"). */
  inputs: string[];
  /** Where the hashes are kept by file and stat (a JSON file; made when missing). */
  cacheFile: string;
  /** Leaves out a file or folder, given by its path from root with "/". */
  skip?: (path: string) => boolean;
}

export interface ContentKey {
  /** Hex digits from the paths and contents of the files. */
  key: string;
  /** How many files it covers. */
  files: number;
  /** How many files were read (the others' hashes came from the cache). */
  read: number;
}

export function contentKey(options: ContentKeyOptions): ContentKey;
