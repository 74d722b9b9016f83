// The proxy on node:http: every request (a path, or an absolute-form URL of the proxy or of the
// upstream) is sent on to the upstream as it came (forward.ts) and its answer sent back as it came,
// status line, headers and body bytes, hop-by-hop headers aside; what the proxy must answer itself
// (bad framing, a body over the limit, another host, OPTIONS *, no answer from the upstream) is the
// service's envelope. Each exchange, with the answer's body kept up to a bound and decoded, goes to
// `onExchange` after the client has it, so checking never slows or changes an answer; an answer whose
// body never ended (it stalled, the upstream or the client went away, the proxy stopped) goes with the
// reason instead of its body.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import zlib from "node:zlib";
import { failure, wireHead, type Reply } from "../../kernel/envelope.js";
import { errorText, oneLine } from "../../kernel/text.js";
import { boundConnections, closeServer, listenOn, type ConnectionLimits } from "../node/connections.js";
import { answerUnreadable, endWithEnvelope, framingProblem, readBody } from "../node/framing.js";
import { allowedMethods, answerToTarget, namesThisServer, readTarget } from "../request-target.js";
import { AnswerStalled, endToEnd, forward, type Upstream } from "./forward.js";
import type { SeenExchange } from "./observer.js";
import { splitTarget } from "../../../src/query.js";

/** What OPTIONS * is told: the read API's methods, the contract the proxy checks. */
const ALLOW = allowedMethods(["read"]);

export interface ProxyServerOptions {
  upstream: Upstream;
  /** The upstream's answer must start within this (a 504 otherwise), and its body never stall longer. */
  timeoutMs: number;
  /** A request body larger than this is refused with a 413, not sent on. */
  maxRequestBodyBytes: number;
  /** Answer bytes kept for the checks; a larger answer is passed on whole but not checked. */
  maxCheckedBytes: number;
  connectionLimits: ConnectionLimits;
  /** Paths under this prefix are the proxy's own (its report), answered by `control`. */
  controlPrefix: string;
  control(req: IncomingMessage, res: ServerResponse, url: string): void;
  /** Each exchange once the client has its answer. */
  onExchange(seen: SeenExchange): void;
  onError(line: string): void;
}

export function createProxyServer(options: ProxyServerOptions) {
  const { upstream } = options;
  const who = `the hr-mock proxy to ${upstream.url.origin}`;
  const answered = new WeakSet<Socket>();
  const boundHosts: string[] = [];
  /** Answers whose body is still coming: each told, with the reason, if the proxy stops first. */
  const unfinished = new Set<(note: string) => void>();
  let closing = false;
  const STOPPED = "answers whose body had not ended when the proxy stopped";

  const server = createServer({ requireHostHeader: false, connectionsCheckingInterval: 1000 }, (req, res) => {
    // The upstream's Date goes back as it came; Node would add its own to an answer without one.
    res.sendDate = false;
    const method = req.method ?? "GET";
    try {
      const framing = framingProblem(req, "the proxy");
      if (framing) {
        answered.add(req.socket);
        send(res, { ...failure(400, framing), headers: { Connection: "close" } });
        return;
      }
      const target = readTarget(req.url ?? "/", (url) => namesThisServer(url, req.socket, boundHosts) || url.origin === upstream.url.origin);
      if (target.kind !== "path") {
        send(res, answerToTarget(target, method, ALLOW, who));
        return;
      }
      const url = target.url;
      if (url.startsWith(options.controlPrefix) || url === options.controlPrefix.slice(0, -1)) {
        options.control(req, res, url);
        return;
      }
      void readBody(req, options.maxRequestBodyBytes).then(({ body, tooLarge }) => {
        const seen = { method, url, headers: req.headers, authorizations: req.headersDistinct.authorization ?? [] };
        if (tooLarge) {
          send(res, { ...failure(413, `Payload too large: the proxy sends on bodies of at most ${options.maxRequestBodyBytes} bytes (--max-body).`), headers: { Connection: "close" } });
          hand({ ...seen, answeredByProxy: 413 });
          return;
        }
        return relay(req, res, seen, body);
      }).catch((error: unknown) => internal(res, method, url, error));
    } catch (error) {
      internal(res, method, req.url ?? "", error);
    }
  });

  async function relay(req: IncomingMessage, res: ServerResponse, seen: Omit<SeenExchange, "answer">, body: Buffer): Promise<void> {
    const abort = new AbortController();
    res.once("close", () => {
      if (!res.writableFinished) abort.abort();
    });
    const forwarded = await forward(upstream, { method: seen.method, url: seen.url, rawHeaders: req.rawHeaders, body, timeoutMs: options.timeoutMs, signal: abort.signal });
    if (abort.signal.aborted) {
      if (forwarded.ok) forwarded.answer.destroy();
      hand({ ...seen, unanswered: "requests the client gave up on before the upstream answered" });
      return;
    }
    if (!forwarded.ok) {
      send(res, failure(forwarded.status, forwarded.message));
      hand({ ...seen, answeredByProxy: forwarded.status });
      return;
    }
    const { answer } = forwarded;
    res.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEnd(answer.rawHeaders));
    const chunks: Buffer[] = [];
    let kept = 0;
    let over = false;
    let handed = false;
    // The exchange, once: with the body read, or with the reason it never ended.
    const finish = (unended?: string) => {
      if (handed) return;
      handed = true;
      unfinished.delete(finish);
      const headers = Object.fromEntries(Object.entries(answer.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : (v ?? "")]));
      const read = unended ? { note: unended } : over ? { note: `answers over ${options.maxCheckedBytes} bytes, passed on unchecked` } : decoded(Buffer.concat(chunks), headers["content-encoding"], options.maxCheckedBytes);
      hand({ ...seen, answer: { status: answer.statusCode ?? 0, headers, ...read } });
    };
    unfinished.add(finish);
    // The client went away mid-answer: the rest of it is not read from the upstream.
    res.once("close", () => {
      if (res.writableFinished) return;
      finish(closing ? STOPPED : "answers the client stopped reading before their end");
      forwarded.abort();
    });
    answer.on("data", (chunk: Buffer) => {
      if (over) return;
      kept += chunk.length;
      if (kept > options.maxCheckedBytes) {
        over = true;
        chunks.length = 0;
      } else chunks.push(chunk);
    });
    // A body cut off by the upstream (or by a stall) cannot be finished for the client either.
    const cutOff = () => {
      const why = closing ? STOPPED : answer.errored instanceof AnswerStalled ? `answers whose body stalled for ${options.timeoutMs / 1000} seconds (--timeout) and was cut off` : "answers whose body the upstream cut off before its end";
      finish(why);
      res.destroy();
    };
    answer.on("error", cutOff);
    answer.on("aborted", cutOff);
    answer.on("end", () => finish());
    answer.pipe(res);
  }

  function hand(seen: SeenExchange): void {
    try {
      options.onExchange(seen);
    } catch (error) {
      options.onError(`hr-mock proxy: internal error while checking ${seen.method} ${splitTarget(seen.url).path.slice(0, 200)}: ${oneLine(errorText(error))}`);
    }
  }

  function internal(res: ServerResponse, method: string, url: string, error: unknown): void {
    options.onError(`hr-mock proxy: internal error on ${method} ${splitTarget(url).path.slice(0, 200)}: ${oneLine(errorText(error))}`);
    if (!res.headersSent) send(res, failure(500, "Internal error: the proxy failed while passing this request on; its log has the cause."));
    else res.destroy();
  }

  answerUnreadable(server, answered);
  // Expect other than 100-continue (RFC 9110 10.1.1): Node's own answer is an empty 417.
  server.on("checkExpectation", (_req: IncomingMessage, res: ServerResponse) => {
    res.sendDate = false;
    send(res, { ...failure(417, "Expectation failed: the proxy takes only Expect: 100-continue."), headers: { Connection: "close" } });
  });
  server.on("connect", (_req: IncomingMessage, socket: Socket) =>
    endWithEnvelope(socket, 405, `Method not allowed: CONNECT asks for a tunnel; ${who} takes plain HTTP requests (give the client the proxy's http:// address as its base URL).`),
  );
  const openSockets = boundConnections(server, options.connectionLimits);

  return {
    listen: (port: number, host: string) => listenOn(server, port, host, boundHosts),
    close: async () => {
      closing = true;
      upstream.agent.destroy();
      await closeServer(server, openSockets);
      for (const finish of [...unfinished]) finish(STOPPED);
    },
  };
}

/** An envelope the proxy answers itself (its status as HTTP's: the proxy has no --failure-status). */
export function send(res: ServerResponse, reply: Reply): void {
  if (res.headersSent || res.destroyed) return;
  const { status, headers } = wireHead(reply, Buffer.byteLength(reply.body), "http");
  res.writeHead(status, headers).end(reply.body);
}

/** The answer's body as the checks read it: decoded from its content coding, within the bound. */
function decoded(bytes: Buffer, coding: string | undefined, max: number): { body?: Buffer; note?: string } {
  const name = (coding ?? "identity").trim().toLowerCase();
  try {
    const options = { maxOutputLength: max };
    if (name === "identity" || name === "") return { body: bytes };
    if (name === "gzip" || name === "x-gzip") return { body: zlib.gunzipSync(bytes, options) };
    if (name === "deflate") return { body: zlib.inflateSync(bytes, options) };
    if (name === "br") return { body: zlib.brotliDecompressSync(bytes, options) };
    return { note: `answers in the content coding ${JSON.stringify(name.slice(0, 20))}, which the proxy cannot read` };
  } catch {
    return { note: `answers whose ${name} body could not be decoded within ${max} bytes` };
  }
}
