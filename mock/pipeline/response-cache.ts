// Answers already computed, keyed by (world, the key's organisation, method, URL as sent): only what
// depends on those and the data (validation 400s and handler answers); authentication, permissions,
// the rate limit and faults run before the cache on every request. Each world has its own space, tied
// to its dataset's version: when its data changes, or it is reset or deleted, its entries go and no
// other's. One byte bound covers every space, so sandboxes cannot grow the cache.
// An answer is kept only when its key misses a second time (a "doorkeeper", as in TinyLFU): a stream
// of URLs asked once (a crawler, an uncached load) would otherwise fill the cache with answers nobody
// asks again, and each one, kept long enough to reach V8's old generation, is garbage there later.
import { Fifo } from "../kernel/fifo.js";
import type { Violation } from "../kernel/violations.js";

export interface CachedReply {
  /** Its operation: admission (its permission, faults) runs again on every hit. */
  operationId: string;
  status: number;
  /**
   * The JSON text. Kept as a string, not a Buffer: a short Buffer is a slice of a shared 8 KB pool
   * and would hold the whole slab, and buffers outside V8's heap are freed later than strings.
   */
  body: string | Buffer;
  /** What a refused request broke (a kept 400), for the journal. */
  violations?: readonly Violation[];
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

  private readonly seen = new SeenOnce();

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
    // The doorkeeper first: most first misses go no further, and the body's byte length is not free.
    if (!this.seen.again(space, key)) return;
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

/**
 * Keys seen before, as bits of a fixed table (no key is kept, so the table allocates nothing per
 * request). A collision can admit a key on its first miss; clearing the table after BITS / 8 keys
 * keeps that under one in eight, and a key asked repeatedly is admitted again on its next miss.
 */
class SeenOnce {
  private static readonly BITS = 1 << 20;
  private readonly bits = new Uint32Array(SeenOnce.BITS / 32);
  private added = 0;

  /** Whether (space, key) was seen since the last clearing; marks it seen. */
  again(space: string, key: string): boolean {
    const h = fnv1a(key, fnv1a(space, 0x811c9dc5)) & (SeenOnce.BITS - 1);
    const word = h >>> 5;
    const bit = 1 << (h & 31);
    if ((this.bits[word] & bit) !== 0) return true;
    if (++this.added > SeenOnce.BITS / 8) {
      this.bits.fill(0);
      this.added = 1;
    }
    this.bits[word] |= bit;
    return false;
  }
}

/** 32-bit FNV-1a over UTF-16 code units, continuing from `hash`. */
function fnv1a(text: string, hash: number): number {
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}
