// Types of build-once.mjs (plain JavaScript, run by the launcher before TypeScript can be compiled).
export interface BuildOnceOptions {
  /** The folder holding the built folders, their locks and temporary folders. */
  parent: string;
  /** The built folder's name: letters, digits, - or _. */
  key: string;
  /** Fills the temporary folder it is given; renamed to parent/key once it resolves. */
  build: (folder: string) => Promise<void>;
  /** Called when this process is about to build. */
  onBuild?: () => void;
  /** Called once when another process is building the same key and this one waits. */
  onWait?: () => void;
  /** After a build, complete folders beyond the newest `keep` are removed (default: none). */
  keep?: number;
  /** How often a waiting process looks again, in ms (default 50). */
  pollMs?: number;
}

/** The path of parent/key, built first unless it is there. */
export function buildOnce(options: BuildOnceOptions): Promise<string>;

/** Whether the process `pid` runs (one of another user counts). */
export function isAlive(pid: number): boolean;
