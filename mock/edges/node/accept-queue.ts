// The kernel's accept queue of a listening port: connections whose handshake it has completed and
// that the process has not yet taken. Closing a listening socket resets every one of them, and a
// client that has already sent its request on one sees ECONNRESET (a balancer answers 502 to a POST
// so sent); the drain closes its listener only when the queue is empty (connections.ts). Linux
// lists it in /proc/net/tcp and tcp6 (rx_queue of the LISTEN line); elsewhere it is unknown.
import { closeSync, openSync, readSync } from "node:fs";

const LISTEN = "0A";
/** Listening sockets come first in those files; a read stops at the first line of another state, so the thousands of TIME_WAIT lines a busy machine lists are never read. */
const CHUNK = 4096;

/** Connections waiting in the accept queue of `port` (every listening address), or undefined where the kernel does not say. */
export function acceptQueue(port: number): number | undefined {
  let found: number | undefined;
  for (const file of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    const waiting = queuedIn(file, port);
    if (waiting !== undefined) found = (found ?? 0) + waiting;
  }
  return found;
}

/** The LISTEN lines of one file for `port`, summed; undefined when the file cannot be read. */
function queuedIn(file: string, port: number): number | undefined {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    return undefined;
  }
  try {
    const buffer = Buffer.alloc(CHUNK);
    let waiting = 0;
    let rest = "";
    for (let first = true; ; first = false) {
      const read = readSync(fd, buffer, 0, CHUNK, null);
      if (read === 0) return waiting;
      const lines = (rest + buffer.toString("latin1", 0, read)).split("\n");
      rest = lines.pop() ?? "";
      for (const line of first ? lines.slice(1) : lines) {
        const fields = line.trim().split(/\s+/);
        if (fields[3] !== LISTEN) return waiting;
        if (parseInt(fields[1].slice(fields[1].lastIndexOf(":") + 1), 16) === port) waiting += parseInt(fields[4].split(":")[1], 16);
      }
    }
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
