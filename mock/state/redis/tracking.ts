// What a replica may take as current without asking Redis: a world's generation, data changes,
// deletion and scripted faults as it last read them, for as long as Redis has not said they
// changed. Redis says so through client-side caching (CLIENT TRACKING): one connection reads the
// world's meta and faults keys, tracked, and Redis sends their names on another connection's
// __redis__:invalidate channel as soon as any client changes them (every name, for a FLUSHALL).
// A fact read while a change was on its way is dropped (an epoch per world), and losing either
// connection forgets every fact until a new pair is made. The listening connection also carries
// the replicas' journal flushes (late-records.ts). A single server only: on a Cluster each node
// tracks its own clients, and every request asks Redis as before.
import type { Redis } from "ioredis";
import type { RedisLink } from "./connection.js";
import type { WorldKeys } from "./keys.js";

const INVALIDATE = "__redis__:invalidate";
/** How soon a lost pair of connections is made again, while the store answers. */
const REOPEN_MS = 250;

/** A world as Redis held it at the last tracked read. */
export interface WorldFacts {
  gen: number;
  n: number;
  gone: boolean;
  faults: number;
}

interface Known {
  /** Counts what Redis (or this replica) said changed: a read that began before a change is dropped. */
  epoch: number;
  facts?: WorldFacts;
  reading: boolean;
}

interface Session {
  /** Subscribed: hears the invalidations and the channels listened to. */
  listener: Redis;
  /** Tracked: reads the facts. */
  reader: Redis;
}

export class Tracking {
  private session: Session | undefined;
  private opening = false;
  private closed = false;
  private reopen: NodeJS.Timeout | undefined;
  /** By the world's meta key. */
  private readonly known = new Map<string, Known>();
  /** A tracked key -> its world's meta key. */
  private readonly worldOf = new Map<string, string>();
  private readonly handlers = new Map<string, (message: string) => void>();

  constructor(private readonly link: RedisLink) {
    link.onChange((up) => {
      if (up) void this.open();
    });
  }

  /** Whether changes are heard now: facts can be known. */
  get ready(): boolean {
    return this.session !== undefined;
  }

  /** Hears the messages of a channel, on every pair of connections made from now on. */
  listen(channel: string, handler: (message: string) => void): void {
    this.handlers.set(channel, handler);
    this.session?.listener.subscribe(channel).catch(() => undefined);
  }

  /** The world's facts, when known; otherwise undefined, and a tracked read is on its way. */
  facts(keys: WorldKeys): WorldFacts | undefined {
    let known = this.known.get(keys.meta);
    if (!known) {
      this.known.set(keys.meta, (known = { epoch: 0, reading: false }));
      this.worldOf.set(keys.meta, keys.meta);
      this.worldOf.set(keys.faults, keys.meta);
    }
    if (known.facts) return known.facts;
    if (!known.reading && this.session) void this.read(keys, known, this.session);
    return undefined;
  }

  /** A change made through this replica: its facts are read again, before Redis's word of it comes. */
  changed(keys: WorldKeys): void {
    this.forget(keys.meta);
  }

  /** The world is gone here: nothing of it is kept. */
  drop(keys: WorldKeys): void {
    this.known.delete(keys.meta);
    this.worldOf.delete(keys.meta);
    this.worldOf.delete(keys.faults);
  }

  /** Makes the pair of connections (again); without them, no fact is known. */
  async open(): Promise<void> {
    if (this.session || this.opening || this.closed) return;
    this.opening = true;
    const made: Redis[] = [];
    try {
      for (let i = 0; i < 2; i++) {
        const connection = await this.link.connection();
        if (!connection) return;
        made.push(connection);
      }
      const [listener, reader] = made;
      const id = await listener.client("ID");
      listener.on("messageBuffer", (channel: Buffer, message: Buffer | Buffer[] | null) => this.heard(channel.toString(), message));
      await listener.subscribe(INVALIDATE, ...this.handlers.keys());
      await reader.call("CLIENT", "TRACKING", "ON", "REDIRECT", String(id));
      if (this.closed) throw new Error("closed");
      const session = { listener, reader };
      for (const connection of made) connection.once("close", () => this.lost(session));
      this.session = session;
    } catch (error) {
      for (const connection of made) connection.disconnect();
      // A server that refuses (no CLIENT TRACKING before Redis 6, a command an ACL denies) is not
      // asked again: its replicas ask Redis before every answer, as on a Cluster.
      if ((error as Error)?.name === "ReplyError") this.closed = true;
      else this.later();
    } finally {
      this.opening = false;
    }
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.reopen);
    const session = this.session;
    this.session = undefined;
    for (const connection of session ? [session.listener, session.reader] : []) connection.disconnect();
  }

  private heard(channel: string, message: Buffer | Buffer[] | null): void {
    if (channel !== INVALIDATE) return void this.handlers.get(channel)?.(String(message));
    if (!Array.isArray(message)) return this.forgetAll();
    for (const key of message) {
      const meta = this.worldOf.get(key.toString());
      if (meta) this.forget(meta);
    }
  }

  private async read(keys: WorldKeys, known: Known, session: Session): Promise<void> {
    known.reading = true;
    const epoch = known.epoch;
    try {
      const results = await session.reader.pipeline().hmget(keys.meta, "gen", "n", "deleted").llen(keys.faults).exec();
      const [meta, faults] = (results ?? []).map(([error, value]) => {
        if (error) throw error;
        return value;
      }) as [(string | null)[], number];
      if (known.epoch !== epoch || this.session !== session || this.known.get(keys.meta) !== known) return;
      // No metadata (not opened yet, or wiped): a generation no replica has, so never current.
      known.facts = { gen: Number(meta[0] ?? -1), n: Number(meta[1] ?? -1), gone: meta[2] === "1", faults };
    } catch {
      // Not known: the next request asks Redis, and reads again.
    } finally {
      known.reading = false;
    }
  }

  private forget(meta: string): void {
    const known = this.known.get(meta);
    if (!known) return;
    known.epoch++;
    known.facts = undefined;
  }

  private forgetAll(): void {
    for (const meta of this.known.keys()) this.forget(meta);
  }

  private lost(session: Session): void {
    if (this.session !== session) return;
    this.session = undefined;
    session.listener.disconnect();
    session.reader.disconnect();
    this.forgetAll();
    this.later();
  }

  private later(): void {
    if (this.closed || this.reopen) return;
    this.reopen = setTimeout(() => {
      this.reopen = undefined;
      if (this.link.up) void this.open();
      else this.later();
    }, REOPEN_MS);
    this.reopen.unref();
  }
}
