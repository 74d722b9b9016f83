// A state directory (`--state DIR`): what built the start dataset, and per world ("default", then
// sandboxes) a journal of the triggers that changed its data and a snapshot of its webhook side:
//   DIR/state.json                       format and fingerprint (seed, scale, today, ...)
//   DIR/lock                             the pid of the mock that has it open
//   DIR/worlds/<world>/changes.jsonl     one data change per line, appended
//   DIR/worlds/<world>/webhooks.json     endpoints with secrets, the log, waiting deliveries
// The directory is 0700 and every file 0600. Anything unreadable is a StateError of one line.
import { chmodSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import type { DataChange, WebhookSnapshot } from "../webhooks/core.js";
import { appendLine, cutTornTail, DIR_MODE, readJournal, readTextOrUndefined, writeAtomic } from "./files.js";
import { parseChange, parseDefinition, parseSnapshot, partialChange, serializeSnapshot, type PartialChange } from "./snapshot.js";
import { STATE_FLAG, StateError } from "./state-error.js";
import { jsonOrUndefined } from "../kernel/json-text.js";

import { DEFAULT_WORLD, type SandboxDefinition } from "../worlds/world.js";

export { DEFAULT_WORLD };

/** The state's format, whatever keeps it (a directory's state.json, Redis's state key): a mock reading another refuses the state. */
export const STATE_FORMAT = "hr-mock-state/1";
const WORLD_ID = /^[a-z0-9][a-z0-9-]{0,62}$/;

/** What built a world's start dataset; a state is restored only onto the same. */
export interface Fingerprint {
  seed: number;
  scale: number;
  today: string;
  /** h20's `--data`: the data file's content hash, when one was given. */
  data?: string;
}

export interface WorldState {
  changes: DataChange[];
  webhooks: WebhookSnapshot | undefined;
  /** The journal's last line, left unfinished by a crash: skipped, and what it began. */
  torn?: { file: string; bytes: number; change: PartialChange };
}

/** Opens (or creates) a state directory; refuses one that is not an hr-mock state, with one line. */
export function openStateDirectory(dir: string, named = STATE_FLAG): StateStore {
  const where = `${named} ${dir}`;
  const fingerprint = prepare(dir, where);
  lock(dir, where);
  return new StateStore(dir, where, fingerprint);
}

/** Directories open in this process; the lock file tells other processes. */
const openHere = new Set<string>();

/**
 * One mock per state directory: two would interleave their journals. The lock file holds the
 * owner's pid; a lock whose process is gone (killed) is taken over.
 */
function lock(dir: string, where: string): void {
  const path = join(dir, "lock");
  const key = resolve(dir);
  const holder = Number(readTextOrUndefined(path) ?? NaN);
  if (openHere.has(key) || (Number.isInteger(holder) && holder !== process.pid && alive(holder))) {
    throw new StateError(`${where} is in use by another running mock${openHere.has(key) ? " in this process" : ` (process ${holder})`}; stop it first, or give another --state directory`);
  }
  writeAtomic(path, String(process.pid));
  openHere.add(key);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Load and save per world: the seam sandboxes are stored through too. */
export class StateStore {
  /** Worlds whose journal this process appended to (and so cut any torn tail off). */
  private readonly appended = new Set<string>();

  constructor(
    readonly dir: string,
    /** The directory as a line about it begins: where it was named (--state, HR_MOCK_STATE), then its path. */
    readonly where: string,
    /** The fingerprint the state was made with, or undefined for a new state. */
    public fingerprint: Fingerprint | undefined,
  ) {}

  /** Records the fingerprint of a new state. */
  begin(fingerprint: Fingerprint): void {
    writeAtomic(join(this.dir, "state.json"), `${JSON.stringify({ format: STATE_FORMAT, fingerprint }, null, 2)}\n`);
    this.fingerprint = fingerprint;
  }

  private worlds(): string[] {
    const root = join(this.dir, "worlds");
    try {
      return readdirSync(root).filter((name) => WORLD_ID.test(name));
    } catch {
      return [];
    }
  }

  load(world: string): WorldState {
    const dir = this.worldDir(world, false);
    const journal = join(dir, "changes.jsonl");
    const { lines, torn } = guarded(journal, () => readJournal(journal));
    const changes = lines.map((line, i) => {
      const parsed = parseChange(line);
      if (typeof parsed === "string") throw new StateError(`${journal} line ${i + 1} is not a data change (${parsed}); the state directory was edited or damaged`);
      return parsed;
    });
    const snapshotPath = join(dir, "webhooks.json");
    const text = guarded(snapshotPath, () => readTextOrUndefined(snapshotPath));
    let webhooks: WebhookSnapshot | undefined;
    if (text !== undefined) {
      const parsed = parseSnapshot(text);
      if (typeof parsed === "string") throw new StateError(`${snapshotPath} is not a webhook state (${parsed}); the state directory was edited or damaged`);
      webhooks = parsed;
    }
    return { changes, webhooks, ...(torn !== "" && { torn: { file: journal, bytes: Buffer.byteLength(torn), change: partialChange(torn) } }) };
  }

  appendChange(world: string, change: DataChange): void {
    const journal = join(this.worldDir(world, true), "changes.jsonl");
    // A torn tail is cut off before this process's first append to the journal, never at reading.
    if (!this.appended.has(world)) cutTornTail(journal);
    this.appended.add(world);
    appendLine(journal, JSON.stringify(change));
  }

  saveWebhooks(world: string, snapshot: WebhookSnapshot): void {
    writeAtomic(join(this.worldDir(world, true), "webhooks.json"), serializeSnapshot(snapshot));
  }

  /** A sandbox's definition, written before its creation is answered. */
  saveSandbox(definition: SandboxDefinition): void {
    writeAtomic(join(this.worldDir(definition.id, true), "world.json"), `${JSON.stringify(definition, null, 2)}\n`);
  }

  /** The definitions of the sandboxes kept, oldest first (a world without one was never answered). */
  sandboxes(): SandboxDefinition[] {
    const found: SandboxDefinition[] = [];
    for (const world of this.worlds()) {
      if (world === DEFAULT_WORLD) continue;
      const path = join(this.worldDir(world, false), "world.json");
      const text = guarded(path, () => readTextOrUndefined(path));
      if (text === undefined) continue;
      const definition = parseDefinition(text, world);
      if (typeof definition === "string") throw new StateError(`${path} is not a sandbox definition (it ${definition}); the state directory was edited or damaged`);
      found.push(definition);
    }
    return found.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
  }

  /** A world back at its start: its data changes and webhook state gone, its definition kept. */
  clearWorld(world: string): void {
    const dir = this.worldDir(world, false);
    rmSync(join(dir, "changes.jsonl"), { force: true });
    rmSync(join(dir, "webhooks.json"), { force: true });
  }

  removeWorld(world: string): void {
    rmSync(this.worldDir(world, false), { recursive: true, force: true });
  }

  /** Lets another mock open the directory. */
  release(): void {
    if (!openHere.delete(resolve(this.dir))) return;
    rmSync(join(this.dir, "lock"), { force: true });
  }

  private worldDir(world: string, create: boolean): string {
    if (!WORLD_ID.test(world)) throw new StateError(`${JSON.stringify(world)} is not a world id (lower-case letters, digits and dashes)`);
    const dir = join(this.dir, "worlds", world);
    if (create) mkdirSync(dir, { recursive: true, mode: 0o700 });
    return dir;
  }
}

/** Creates the directory, or checks it is one of ours; its fingerprint when it holds a state. */
function prepare(dir: string, where: string): Fingerprint | undefined {
  let entries: string[];
  try {
    if (!statSync(dir).isDirectory()) throw new StateError(`${where}: not a directory; give a new or empty directory`);
    entries = readdirSync(dir);
  } catch (error) {
    if (error instanceof StateError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT") throw new StateError(`${where}: cannot read it (${code ?? (error as Error).message})`);
    try {
      mkdirSync(dir, { recursive: true, mode: DIR_MODE });
    } catch (made) {
      throw new StateError(`${where}: cannot create it (${(made as NodeJS.ErrnoException).code ?? (made as Error).message})`);
    }
    entries = [];
  }
  // Ours alone: secrets are kept here, so nobody else may list or read it.
  chmodSync(dir, DIR_MODE);
  if (entries.length === 0 || (entries.length === 1 && entries[0] === "lock")) return undefined;
  const statePath = join(dir, "state.json");
  const text = guarded(statePath, () => readTextOrUndefined(statePath));
  if (text === undefined) throw new StateError(`${where}: not an hr-mock state directory (it has files but no state.json); give a new or empty directory`);
  const parsed = jsonOrUndefined(text);
  if (parsed === undefined) throw new StateError(`${statePath} is not JSON; the state directory was edited or damaged (move it away to start afresh)`);
  const state = parsed as { format?: unknown; fingerprint?: Partial<Fingerprint> };
  if (state.format !== STATE_FORMAT) throw new StateError(`${statePath} is not of the format ${STATE_FORMAT} this mock reads (found ${JSON.stringify(state.format)})`);
  if (!isFingerprint(state.fingerprint)) throw new StateError(`${statePath} has no valid fingerprint (seed, scale, today); the state directory was edited or damaged`);
  return state.fingerprint;
}

/** Whether a state's fingerprint, as read back (a directory's state.json, Redis's state key), is whole. */
export function isFingerprint(f: Partial<Fingerprint> | undefined): f is Fingerprint {
  return !!f && typeof f.seed === "number" && typeof f.scale === "number" && typeof f.today === "string" && (f.data === undefined || typeof f.data === "string");
}

function guarded<T>(path: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw new StateError(`cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
}

/** The flags that differ from what built the state, as `--seed 2 (the state's: 1)`; empty when none. */
export function fingerprintDifferences(state: Fingerprint, now: Fingerprint): string[] {
  const differences: string[] = [];
  if (state.seed !== now.seed) differences.push(`--seed ${now.seed} (the state's: ${state.seed})`);
  if (state.scale !== now.scale) differences.push(`--scale ${now.scale} (the state's: ${state.scale})`);
  if (state.today !== now.today) differences.push(`--today ${now.today} (the state's: ${state.today})`);
  if (state.data !== now.data) differences.push(`--data ${now.data === undefined ? "not given" : `with content hash ${now.data.slice(0, 12)}`} (the state's: ${state.data === undefined ? "none" : state.data.slice(0, 12)})`);
  return differences;
}
