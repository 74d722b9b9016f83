// Answers already computed, keyed by (the key's organisation, method, URL as sent). Entries hold
// only what depends on those and the data: validation (400) and handler answers. Authentication,
// permissions and the rate limit run before the cache on every request. Every entry belongs to one
// dataset version; when the dataset changes (dataset.version moves) the whole cache is dropped.
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

export class ResponseCache {
  private readonly entries = new Map<string, CachedReply>();
  private version: number | undefined;
  private bytes = 0;
  /** [key, reply] in the order they were set (Fifo: O(1) take). */
  private order = new Fifo<[string, CachedReply]>();

  constructor(private readonly maxBytes: number) {}

  get(key: string, version: number): CachedReply | undefined {
    if (version !== this.version) {
      this.clear(version);
      return undefined;
    }
    return this.entries.get(key);
  }

  set(key: string, version: number, reply: CachedReply): void {
    if (version !== this.version) this.clear(version);
    const size = sizeOf(reply.body) + key.length;
    if (size > this.maxBytes) return;
    const previous = this.entries.get(key);
    if (previous) this.bytes -= sizeOf(previous.body) + key.length;
    this.entries.set(key, reply);
    this.order.push([key, reply]);
    this.bytes += size;
    // Oldest first, from a queue of insertions: walking the Map from its start would pass over every
    // slot deleted before (V8 keeps them until it rehashes), which made a full cache of small entries
    // slow on every insert. A pair whose key was set again since is stale and skipped.
    while (this.bytes > this.maxBytes) {
      const oldest = this.order.shift();
      if (!oldest) break;
      const [oldKey, old] = oldest;
      if (this.entries.get(oldKey) !== old) continue;
      this.entries.delete(oldKey);
      this.bytes -= sizeOf(old.body) + oldKey.length;
    }
  }

  get size(): number {
    return this.entries.size;
  }

  private clear(version: number): void {
    this.entries.clear();
    this.order = new Fifo();
    this.bytes = 0;
    this.version = version;
  }
}

/** Bytes of a body as it will be sent (UTF-8). */
function sizeOf(body: string | Buffer): number {
  return typeof body === "string" ? Buffer.byteLength(body) : body.length;
}
