// One request sent on to the upstream as it came (method, path and query as sent, every end-to-end
// header, the key included, the body's bytes), through a bounded pool of connections. The answer's
// head must come within the timeout; a failure before it is told as the envelope's 502 or 504, so
// the client reads the service's envelope whatever happened. Hop-by-hop headers (RFC 9110 7.6.1)
// belong to each connection and are not passed on, either way.
import http, { type IncomingMessage } from "node:http";
import https from "node:https";

/** Header names that describe one connection, never passed on (Host is the upstream's own). */
const HOP_BY_HOP = new Set(["connection", "proxy-connection", "keep-alive", "te", "trailer", "transfer-encoding", "upgrade", "proxy-authorization", "proxy-authenticate"]);

/**
 * Node's raw header list ([name, value, name, value, …], names as sent, repeats kept) without the
 * hop-by-hop headers, those the Connection header names, and `drop` (lower-case names).
 */
export function endToEnd(raw: readonly string[], drop: readonly string[] = []): string[] {
  const named = new Set<string>(drop);
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i].toLowerCase() === "connection") for (const token of raw[i + 1].split(",")) named.add(token.trim().toLowerCase());
  }
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i].toLowerCase();
    if (!HOP_BY_HOP.has(name) && !named.has(name)) out.push(raw[i], raw[i + 1]);
  }
  return out;
}

/** What an answer whose body stalled past the timeout is destroyed with. */
export class AnswerStalled extends Error {
  constructor() {
    super("the upstream's answer stalled");
  }
}

/**
 * The upstream of a URL the user gave: http or https only, with a pool of at most `maxSockets`
 * connections, and the path its API sits under ("" at its root, "/hr" for https://host/hr).
 */
export function upstreamOf(url: URL, maxSockets: number) {
  const agentOptions = { keepAlive: true, maxSockets, maxFreeSockets: Math.min(maxSockets, 16) };
  const agent = url.protocol === "https:" ? new https.Agent(agentOptions) : new http.Agent(agentOptions);
  return { url, basePath: url.pathname.replace(/\/+$/, ""), agent };
}

export type Upstream = ReturnType<typeof upstreamOf>;

export type Forwarded =
  | { ok: true; answer: IncomingMessage; abort(): void }
  /** The upstream gave no answer: the envelope's status (502, 504) and a sentence. */
  | { ok: false; status: 502 | 504; message: string };

export interface ForwardRequest {
  method: string;
  /** Path and query as the client sent them. */
  url: string;
  /** The client's raw header list. */
  rawHeaders: readonly string[];
  body?: Buffer;
  /** The answer's head must come within this; the body must not stall longer than this. */
  timeoutMs: number;
  /** The client went away: stop waiting. */
  signal: AbortSignal;
}

export function forward(upstream: Upstream, request: ForwardRequest): Promise<Forwarded> {
  const headers = endToEnd(request.rawHeaders, ["host", "content-length"]);
  headers.push("Host", upstream.url.host);
  if (request.body && request.body.length > 0) headers.push("Content-Length", String(request.body.length));
  const client = upstream.url.protocol === "https:" ? https : http;
  const origin = upstream.url.origin;
  return new Promise((resolve) => {
    let settled = false;
    const settle = (value: Forwarded) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(value);
    };
    const outgoing = client.request({
      protocol: upstream.url.protocol,
      hostname: upstream.url.hostname.replace(/^\[|\]$/g, ""),
      port: upstream.url.port || undefined,
      method: request.method,
      path: upstream.basePath + request.url,
      headers,
      agent: upstream.agent,
    });
    const timer = setTimeout(() => {
      settle({ ok: false, status: 504, message: `Gateway timeout: the upstream ${origin} sent no answer within ${request.timeoutMs / 1000} seconds.` });
      outgoing.destroy();
    }, request.timeoutMs);
    request.signal.addEventListener(
      "abort",
      () => {
        settle({ ok: false, status: 502, message: "Bad gateway: the client went away before the upstream answered." });
        outgoing.destroy();
      },
      { once: true },
    );
    outgoing.on("response", (answer) => {
      // After the head, a body that stalls for the timeout is cut off; the client's connection closes with it.
      const socket = answer.socket;
      const stalled = () => answer.destroy(new AnswerStalled());
      socket.setTimeout(request.timeoutMs, stalled);
      // The pooled connection outlives this answer: its timer goes with the answer.
      answer.once("close", () => {
        socket.off("timeout", stalled);
        socket.setTimeout(0);
      });
      settle({ ok: true, answer, abort: () => outgoing.destroy() });
    });
    outgoing.on("error", (error: NodeJS.ErrnoException) => {
      settle({ ok: false, status: 502, message: `Bad gateway: the upstream ${origin} could not be reached (${error.code ?? error.message.split("\n")[0]}).` });
    });
    outgoing.end(request.body && request.body.length > 0 ? request.body : undefined);
  });
}
