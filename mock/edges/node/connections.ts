// Bounds on the connections of the mock's node:http server, so idle or unread connections cannot
// lock clients out: timeouts in seconds instead of Node's minute, a cap on open connections below
// the process's file limit (at the cap, the connection idle the longest makes room, one that never
// sent a request first, so a working client always gets in), and a cap on answers a client has
// pipelined but not read.
import { readFileSync } from "node:fs";
import type { Server } from "node:http";
import { Server as NetServer, type Socket } from "node:net";
import { MockOptionError } from "../../kernel/option-error.js";
import { acceptQueue } from "./accept-queue.js";
import { endWithEnvelope } from "./framing.js";

export interface ConnectionLimits {
  /** Open connections at most; at the cap the longest idle one is closed for a new one. */
  maxConnections: number;
  /** A request's headers must arrive within this (ms). */
  headersTimeoutMs: number;
  /** A whole request must arrive within this (ms); Node answers 408 after it. */
  requestTimeoutMs: number;
  /** A keep-alive connection with nothing to do closes after this (ms). */
  keepAliveTimeoutMs: number;
  /** A connection where nothing moves either way (an answer the client does not read) closes after this (ms). */
  stalledMs: number;
  /** Answers waiting to be read on one connection at most; a client pipelining more is cut off. */
  maxUnreadAnswers: number;
}

/** File descriptors kept free for everything but client connections (webhook deliveries, files, logs). */
const RESERVED_FILES = 128;

export function defaultConnectionLimits(latencyMs: number): ConnectionLimits {
  return {
    maxConnections: Math.max(64, openFilesLimit() - RESERVED_FILES),
    headersTimeoutMs: 10_000,
    requestTimeoutMs: 30_000,
    keepAliveTimeoutMs: 5_000,
    // --latency holds a connection silent on purpose.
    stalledMs: 30_000 + latencyMs,
    maxUnreadAnswers: 32,
  };
}

/** The soft limit on open files (Linux reports it in /proc); 1024, the usual default, elsewhere. */
export function openFilesLimit(): number {
  try {
    const line = readFileSync("/proc/self/limits", "utf8")
      .split("\n")
      .find((l) => l.startsWith("Max open files"));
    const soft = Number(line?.split(/\s{2,}/)[1]);
    return Number.isInteger(soft) && soft > 0 ? soft : 1024;
  } catch {
    return 1024;
  }
}

interface Tracked {
  /** Requests received and not yet answered in full. */
  open: number;
  /** When it last finished an answer, or connected. */
  idleSince: number;
  /** It has sent a request. */
  used: boolean;
}

/** Applies `limits` to `server`; returns a view of the open connections (for close() and the drain). */
export function boundConnections(server: Server, limits: ConnectionLimits, now: () => number = performance.now.bind(performance)) {
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  server.setTimeout(limits.stalledMs, (socket) => socket.destroy());
  const tracked = new Map<Socket, Tracked>();

  server.on("connection", (socket: Socket) => {
    if (tracked.size >= limits.maxConnections && !makeRoom()) {
      // Every connection is answering something: refuse this one in words rather than run out of files.
      endWithEnvelope(socket, 503, `Service unavailable: the mock has ${tracked.size} connections open, its limit; retry shortly.`, "http", "Retry-After: 1\r\n");
      return;
    }
    tracked.set(socket, { open: 0, idleSince: now(), used: false });
    socket.on("close", () => tracked.delete(socket));
  });
  server.on("request", (req, res) => {
    const state = tracked.get(req.socket);
    if (!state) return;
    state.used = true;
    state.open += 1;
    if (state.open > limits.maxUnreadAnswers) {
      // A client that pipelines and never reads would have every answer held in memory.
      req.socket.destroy();
      return;
    }
    res.on("close", () => {
      state.open -= 1;
      if (state.open === 0) state.idleSince = now();
    });
  });

  /** Closes the connection idle the longest, preferring one that never sent a request; false when all are busy. */
  function makeRoom(): boolean {
    let victim: Socket | undefined;
    let best: Tracked | undefined;
    for (const [socket, state] of tracked) {
      if (state.open > 0) continue;
      if (!best || (!state.used && best.used) || (state.used === best.used && state.idleSince < best.idleSince)) {
        victim = socket;
        best = state;
      }
    }
    if (!victim) return false;
    tracked.delete(victim);
    victim.destroy();
    return true;
  }
  return {
    sockets: () => tracked.keys(),
    /** Requests received and not yet answered in full, on every connection. */
    inFlight: () => [...tracked.values()].reduce((sum, state) => sum + state.open, 0),
    /** Kept-alive connections between requests: each has been answered, and nothing is being answered on it. */
    keptAliveIdle: () => [...tracked].filter(([, state]) => state.used && state.open === 0).map(([socket]) => socket),
  };
}

type OpenConnections = ReturnType<typeof boundConnections>;

/**
 * Listens on `host:port` and answers the port bound (0 picks one) and the server's URL, or rejects
 * with the one line a start throws; `bound` keeps the host, for absolute-form targets naming it.
 */
export function listenOn(server: Server, port: number, host: string, bound: string[]): Promise<{ port: number; url: string }> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => reject(new MockOptionError(`cannot listen on ${host}:${port}: ${error.code === "EADDRINUSE" ? "the port is in use" : error.message}`));
    server.once("error", onError);
    server.listen(port, host, () => {
      server.off("error", onError);
      bound.push(host);
      const address = server.address();
      const taken = typeof address === "object" && address ? address.port : port;
      resolve({ port: taken, url: `http://${host.includes(":") ? `[${host}]` : host}:${taken}` });
    });
  });
}

/**
 * Stops `server`: keep-alive connections would hold close() open, so idle ones go now, busy ones
 * after their answer, and any still open a second later are destroyed.
 */
export function closeServer(server: Server, open: OpenConnections): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
    for (const socket of open.sockets()) if (!socket.destroyed) socket.end();
    setTimeout(() => {
      for (const socket of open.sockets()) socket.destroy();
    }, 1000).unref();
  });
}

/** Event-loop turns the drain waits for the kernel's accept queue to be empty before it closes the listener anyway. */
const QUEUE_TURNS = 200;

/**
 * The end of a drain: `server` accepts no more connections, and every connection it has accepted
 * is answered before it closes (the caller has every answer carry Connection: close, so a client
 * never sends on a connection that is going): one answering closes after its answer, one whose first
 * request is still on its way waits for it (Node's headers timeout bounds it), and only kept-alive
 * connections with nothing to do are closed now. Any still open after `patienceMs` are destroyed.
 * Answers when the listener has closed, and when the last connection has gone.
 */
export function drainServer(server: Server, open: OpenConnections, patienceMs: number): { listenerClosed: Promise<void>; gone: Promise<void> } {
  if (!server.listening) return { listenerClosed: Promise.resolve(), gone: Promise.resolve() };
  let listenerClosed!: () => void;
  const gone = new Promise<void>((resolve) => stopListening(server, () => listenerClosed(), resolve));
  for (const socket of open.keptAliveIdle()) socket.end();
  setTimeout(() => {
    for (const socket of open.sockets()) socket.destroy();
  }, patienceMs).unref();
  return { listenerClosed: new Promise<void>((resolve) => (listenerClosed = resolve)), gone };
}

/**
 * Closes the listener at a moment the kernel holds no connection for it: closing resets every
 * connection in its accept queue (accept-queue.ts), and a client that sent its request on one
 * sees ECONNRESET. Node takes one connection per event-loop turn; the queue is read after each
 * (an empty queue closes before libuv asks for another) and once per turn; after QUEUE_TURNS
 * turns, or where the kernel does not say, it closes anyway. `onClosed` runs when the last
 * connection has gone.
 */
function stopListening(server: Server, onStopped: () => void, onClosed: () => void): void {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  let turns = 0;
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    server.off("connection", afterAccept);
    // net's close, not http's: http's also closes every connection without a request in progress,
    // one whose first request has not been read yet too, and its client sees a reset.
    NetServer.prototype.close.call(server, () => onClosed());
    onStopped();
  };
  const queueEmpty = () => (acceptQueue(port) ?? 0) === 0;
  function afterAccept() {
    if (queueEmpty()) stop();
  }
  const turn = () => {
    if (stopped) return;
    if (queueEmpty() || ++turns >= QUEUE_TURNS) stop();
    else setImmediate(turn);
  };
  server.on("connection", afterAccept);
  // The caller's promise exists once this returns.
  setImmediate(turn);
}
