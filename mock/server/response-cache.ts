// Answers already computed, keyed by (world, the key's organisation, method, URL as sent). Entries
// hold only what depends on those and the data: validation (400) and handler answers.
// Authentication, permissions, the rate limit and scripted faults run before the cache on every
// request. Each world has its own space, tied to its dataset's version: when a world's data changes
// (its version moves), or it is reset or deleted (drop), that world's entries go and no other's.
// One byte bound covers every space, so sandboxes cannot grow the cache.
import { Fifo } from "./fifo.js";

export interface CachedReply {
  operationId: string;
  /** The operation's permission: checked again on every hit. */
  permission: string;
  status: number;
  /**
   * The JSON text. Kept as a string, not a Buffer: a short Buffer is a slice of a shared 8 KB pool
   * and would hold the whole slab, and buffers outside V8's heap are freed later than strings.
   */
  body: string | Buffer;
}

interface Space {
  version: number;
  entries: Map<string, CachedReply>;
}

export class ResponseCache {
  private readonly spaces = new Map<string, Space>();
  private bytes = 0;
  /** [space, key, reply] in the order they were set (Fifo: O(1) take). */
  private order = new Fifo<[Space, string, CachedReply]>();

  constructor(private readonly maxBytes: number) {}

  get(space: string, key: string, version: number): CachedReply | undefined {
    const found = this.spaces.get(space);
    if (!found) return undefined;
    if (found.version !== version) {
      this.drop(space);
      return undefined;
    }
    return found.entries.get(key);
  }

  set(space: string, key: string, version: number, reply: CachedReply): void {
    let found = this.spaces.get(space);
    if (found && found.version !== version) this.drop(space);
    const size = sizeOf(reply.body) + key.length;
    if (size > this.maxBytes) return;
    found = this.spaces.get(space);
    if (!found) this.spaces.set(space, (found = { version, entries: new Map() }));
    const previous = found.entries.get(key);
    if (previous) this.bytes -= sizeOf(previous.body) + key.length;
    found.entries.set(key, reply);
    this.order.push([found, key, reply]);
    this.bytes += size;
    // Oldest first, from a queue of insertions: walking the Map from its start would pass over every
    // slot deleted before (V8 keeps them until it rehashes), which made a full cache of small entries
    // slow on every insert. A triple whose key was set again since, or whose space was dropped, is stale and skipped.
    while (this.bytes > this.maxBytes) {
      const oldest = this.order.shift();
      if (!oldest) break;
      const [oldSpace, oldKey, old] = oldest;
      if (oldSpace.entries.get(oldKey) !== old) continue;
      oldSpace.entries.delete(oldKey);
      this.bytes -= sizeOf(old.body) + oldKey.length;
    }
  }

  /** Forgets a world's entries (its data changed under it, it was reset or deleted). */
  drop(space: string): void {
    const found = this.spaces.get(space);
    if (!found) return;
    for (const [key, reply] of found.entries) this.bytes -= sizeOf(reply.body) + key.length;
    found.entries.clear();
    this.spaces.delete(space);
    // The queue still holds the dropped replies; rebuilt once it is mostly stale, so a world whose
    // data keeps changing under a small cache never keeps dead answers alive.
    const live = this.size;
    if (this.order.length > 2 * live + 64) {
      const kept = new Fifo<[Space, string, CachedReply]>();
      for (const triple of this.order.drain()) if (triple[0].entries.get(triple[1]) === triple[2]) kept.push(triple);
      this.order = kept;
    }
  }

  get size(): number {
    let size = 0;
    for (const space of this.spaces.values()) size += space.entries.size;
    return size;
  }
}

/** Bytes of a body as it will be sent (UTF-8). */
function sizeOf(body: string | Buffer): number {
  return typeof body === "string" ? Buffer.byteLength(body) : body.length;
}
