// The mock on node:http: CORS (any origin, preflight included, as Prism answers it), /docs, route
// handlers a user mounts under a prefix, and every other request (the read API and the control API)
// through the dispatcher (dispatch.ts), with the body of a POST, PUT or PATCH read up to the spec's
// limit. Writes the envelope with its headers, applies --latency and --failure-status, and logs one
// line per request when asked.
import { createServer, maxHeaderSize, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { DOCS_PREFIX, createDocsHandler } from "./docs.js";
import { JSON_CONTENT_TYPE, failureBody, wireHead, type Reply } from "./envelope.js";
import type { ApiRequest, Dispatcher, ReplyWithCaller } from "./dispatch.js";
import { errorText, oneLine, printable } from "./text.js";

/** Headers a browser script may read on a cross-origin answer. */
const EXPOSED_HEADERS = "Retry-After, RateLimit-Limit, RateLimit-Remaining, Allow, WWW-Authenticate";

export type RouteHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface MockHttpOptions {
  dispatch: Dispatcher;
  /** "http": failures carry their status; 200: every failure is sent with HTTP 200, same envelope. */
  failureStatus: "http" | 200;
  latencyMs: number;
  /** Where request lines go; undefined: no request log. */
  log?: (line: string) => void;
  /** Where internal errors go (always on). */
  onError: (line: string) => void;
  docsDir: string;
  /** The largest body an operation reads (bodyLimit of the spec); reading stops after it. */
  maxBodyBytes: number;
}

export interface MockHttpServer {
  server: Server;
  /** Serve every request whose path starts with `prefix` (e.g. "/_extra/") with `handler`. */
  mount(prefix: string, handler: RouteHandler): void;
  listen(port: number, host: string): Promise<number>;
  close(): Promise<void>;
}

export function createMockHttpServer(options: MockHttpOptions): MockHttpServer {
  const { dispatch, failureStatus, latencyMs, log, onError } = options;
  const mounts: { prefix: string; handler: RouteHandler }[] = [];
  const sockets = new Set<Socket>();

  function sendReply(req: IncomingMessage, res: ServerResponse, reply: ReplyWithCaller, started: number): void {
    if (res.headersSent || res.destroyed) return;
    const body = typeof reply.body === "string" ? Buffer.from(reply.body) : reply.body;
    const { status, headers } = wireHead(reply, body.length, failureStatus);
    corsHeaders(req, headers);
    res.writeHead(status, headers);
    res.end(body);
    if (log) {
      const ms = (performance.now() - started).toFixed(1);
      const shown = status === reply.status ? `${status}` : `${status} (failure ${reply.status})`;
      log(`${req.method} ${printable(req.url ?? "", 200)} ${shown} ${ms} ms${reply.caller ? ` [${reply.caller}]` : ""}`);
    }
  }

  function deliver(req: IncomingMessage, res: ServerResponse, reply: ReplyWithCaller, started: number): void {
    if (latencyMs > 0) setTimeout(() => sendReply(req, res, reply, started), latencyMs);
    else sendReply(req, res, reply, started);
  }

  function writeFailure(res: ServerResponse, status: number, message: string): void {
    const req = res.req;
    sendReply(req, res, { status, body: failureBody(status, message) }, performance.now());
  }

  const docs = createDocsHandler(options.docsDir, writeFailure);

  function internal(req: IncomingMessage, res: ServerResponse, error: unknown, started: number): void {
    onError(`hr-mock: internal error on ${req.method} ${printable((req.url ?? "").split("?")[0], 200)}: ${oneLine(errorText(error))}`);
    const reply: Reply = { status: 500, body: failureBody(500, "Internal error: the mock failed while answering; its log has the cause.") };
    if (!res.headersSent) sendReply(req, res, reply, started);
    else res.destroy();
  }

  const server = createServer((req, res) => {
    const started = performance.now();
    const url = req.url ?? "/";
    const method = req.method ?? "GET";
    try {
      if (method === "OPTIONS" && req.headers.origin !== undefined && req.headers["access-control-request-method"] !== undefined) {
        answerPreflight(req, res);
        return;
      }
      const queryStart = url.indexOf("?");
      const rawPath = queryStart < 0 ? url : url.slice(0, queryStart);
      if (mounts.length > 0) {
        const mount = mounts.find((m) => rawPath.startsWith(m.prefix) || rawPath === m.prefix.slice(0, -1));
        if (mount) {
          const cors: Record<string, string | number> = {};
          corsHeaders(req, cors);
          for (const [name, value] of Object.entries(cors)) res.setHeader(name, value);
          Promise.resolve(mount.handler(req, res)).catch((error: unknown) => internal(req, res, error, started));
          return;
        }
      }
      if (rawPath === DOCS_PREFIX || rawPath.startsWith(`${DOCS_PREFIX}/`)) {
        docs(req, res, rawPath).catch((error: unknown) => internal(req, res, error, started));
        return;
      }
      // Node keeps the first of repeated Authorization headers; the dispatcher must see them all.
      const authorization = req.headersDistinct.authorization;
      const headers = authorization && authorization.length > 1 ? { ...req.headers, authorization } : req.headers;
      const answer = (request: ApiRequest) => {
        const reply = dispatch(request);
        if (reply instanceof Promise) {
          reply.then(
            (done) => deliver(req, res, done, started),
            (error: unknown) => internal(req, res, error, started),
          );
        } else {
          deliver(req, res, reply, started);
        }
      };
      if (BODY_METHODS.has(method)) {
        readBody(req, options.maxBodyBytes).then(({ body, tooLarge }) => answer({ method, url, headers, body, bodyTooLarge: tooLarge }));
      } else {
        answer({ method, url, headers });
      }
    } catch (error) {
      internal(req, res, error, started);
    }
  });

  // Requests Node cannot parse (bad request line, oversized headers) still get an envelope.
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || error.code === "ECONNRESET") {
      socket.destroy();
      return;
    }
    const body = failureBody(400, `Bad request: the HTTP request could not be read: ${unreadableRequest(error.code)}.`);
    socket.end(
      `HTTP/1.1 ${failureStatus === 200 ? "200 OK" : "400 Bad Request"}\r\nContent-Type: ${JSON_CONTENT_TYPE}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  return {
    server,
    mount(prefix, handler) {
      if (!prefix.startsWith("/")) throw new Error(`a mount prefix starts with "/", got ${JSON.stringify(prefix)}`);
      const normalized = prefix.endsWith("/") ? prefix : `${prefix}/`;
      if (mounts.some((m) => m.prefix === normalized)) throw new Error(`${normalized} is mounted already`);
      mounts.push({ prefix: normalized, handler });
      // Longest prefix first, so /_mock/webhooks/ can sit beside /_mock/.
      mounts.sort((a, b) => b.prefix.length - a.prefix.length);
    },
    listen(port, host) {
      return new Promise((resolve, reject) => {
        const onError = (error: Error) => reject(error);
        server.once("error", onError);
        server.listen(port, host, () => {
          server.off("error", onError);
          const address = server.address();
          resolve(typeof address === "object" && address ? address.port : port);
        });
      });
    },
    close() {
      return new Promise((resolve) => {
        server.close(() => resolve());
        // Keep-alive connections would hold close() open; idle ones go now, busy ones after their answer.
        server.closeIdleConnections();
        for (const socket of sockets) if (!socket.destroyed) socket.end();
        setTimeout(() => {
          for (const socket of sockets) socket.destroy();
        }, 1000).unref();
      });
    },
  };
}

/** Methods whose body the API's operations may read. */
const BODY_METHODS = new Set(["POST", "PUT", "PATCH"]);

/**
 * The body, up to `limit` bytes: past it, the rest is read and dropped (the answer, a 413, closes
 * the connection). A body that breaks off is answered as what arrived; the socket is gone anyway.
 */
function readBody(req: IncomingMessage, limit: number): Promise<{ body: Buffer; tooLarge: boolean }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      resolve({ body: Buffer.concat(chunks), tooLarge });
    };
    req.on("data", (chunk: Buffer) => {
      if (tooLarge) return;
      size += chunk.length;
      if (size > limit) {
        tooLarge = true;
        chunks.length = 0;
        finish();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", finish);
    req.on("error", finish);
    req.on("close", finish);
  });
}

/** CORS for any origin, as Prism's server sends it. */
function corsHeaders(req: IncomingMessage, headers: Record<string, string | number>): void {
  const origin = req.headers.origin;
  if (origin === undefined) {
    headers["Access-Control-Allow-Origin"] = "*";
    return;
  }
  headers["Access-Control-Allow-Origin"] = origin;
  headers["Access-Control-Allow-Credentials"] = "true";
  headers["Access-Control-Expose-Headers"] = EXPOSED_HEADERS;
  headers.Vary = "Origin";
}

function answerPreflight(req: IncomingMessage, res: ServerResponse): void {
  const requestedHeaders = req.headers["access-control-request-headers"];
  res.writeHead(204, {
    "Access-Control-Allow-Origin": req.headers.origin ?? "*",
    "Access-Control-Allow-Methods": String(req.headers["access-control-request-method"] || "GET"),
    "Access-Control-Allow-Headers": requestedHeaders ? String(requestedHeaders) : "*",
    "Access-Control-Allow-Credentials": "true",
    "Access-Control-Max-Age": 600,
    Vary: "Origin, Access-Control-Request-Method, Access-Control-Request-Headers",
    "Content-Length": 0,
  });
  res.end();
}

/** Why Node's parser refused a request, in words (its codes, HPE_*, mean little to a caller). */
function unreadableRequest(code: string | undefined): string {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return `the request line and headers exceed ${Math.round(maxHeaderSize / 1024)} KB; shorten the URL (a long SearchTerm?) or the headers`;
    case "HPE_INVALID_METHOD":
      return "the method is not an HTTP method; the API answers GET";
    case "HPE_INVALID_URL":
      return "the request target is not a valid URL path";
    case "HPE_INVALID_HEADER_TOKEN":
      return "a header line is malformed";
    default:
      return `malformed HTTP (${code ?? "parse error"})`;
  }
}

