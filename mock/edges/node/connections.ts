// Bounds on the connections of the mock's node:http server, so idle or unread connections cannot
// lock clients out: timeouts in seconds instead of Node's minute, a cap on open connections below
// the process's file limit (at the cap, the connection idle the longest makes room, one that never
// sent a request first, so a working client always gets in), and a cap on answers a client has
// pipelined but not read.
import { readFileSync } from "node:fs";
import type { Server } from "node:http";
import type { Socket } from "node:net";
import { JSON_CONTENT_TYPE, failureBody } from "../../kernel/envelope.js";

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

/** The open connections of a server (for close() and the drain). */
export interface OpenConnections {
  sockets(): Iterable<Socket>;
  /** Requests received and not yet answered in full, on every connection. */
  inFlight(): number;
}

/** Applies `limits` to `server`; returns a view of the open connections. */
export function boundConnections(server: Server, limits: ConnectionLimits, now: () => number = performance.now.bind(performance)): OpenConnections {
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  server.setTimeout(limits.stalledMs, (socket) => socket.destroy());
  const tracked = new Map<Socket, Tracked>();

  server.on("connection", (socket: Socket) => {
    if (tracked.size >= limits.maxConnections && !makeRoom()) {
      // Every connection is answering something: refuse this one in words rather than run out of files.
      const body = failureBody(503, `Service unavailable: the mock has ${tracked.size} connections open, its limit; retry shortly.`);
      socket.end(`HTTP/1.1 503 Service Unavailable\r\nContent-Type: ${JSON_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nRetry-After: 1\r\nConnection: close\r\n\r\n${body}`);
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
    inFlight: () => [...tracked.values()].reduce((sum, state) => sum + state.open, 0),
  };
}

/** Listens on `host:port` and answers the port bound (0 picks one); `bound` keeps the host, for absolute-form targets naming it. */
export function listenOn(server: Server, port: number, host: string, bound: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once("error", onError);
    server.listen(port, host, () => {
      server.off("error", onError);
      bound.push(host);
      const address = server.address();
      resolve(typeof address === "object" && address ? address.port : port);
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

/**
 * The end of a drain: `server` accepts no more connections, kept-alive connections with nothing to
 * do are closed now, those answering close after their answer (the caller has every answer carry
 * Connection: close, so a client never sends on a connection that is going), and any still open
 * after `patienceMs` are destroyed. Resolves when the last connection has gone.
 */
export function drainServer(server: Server, open: OpenConnections, patienceMs: number): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    server.closeIdleConnections();
    setTimeout(() => {
      for (const socket of open.sockets()) socket.destroy();
    }, patienceMs).unref();
  });
}
