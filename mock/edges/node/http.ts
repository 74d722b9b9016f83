// The mock on node:http: CORS (see cors()), /docs, route
// handlers a user mounts under a prefix, and every other request (the read API and the control API)
// through the dispatcher (dispatch.ts), with the body of a POST, PUT or PATCH read up to the spec's
// limit. Writes the envelope with its headers, applies --latency and --failure-status, logs one
// line per request when asked, counts every answer for GET /_mock/metrics (metric-counts.ts) and
// answers that path itself, before the request pipeline: no key, no rate limit, no journal.
import { rateLimit } from "../../../generated/facts.js";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { boundConnections, defaultConnectionLimits, type ConnectionLimits, closeServer, drainServer, listenOn } from "./connections.js";
import type { Socket } from "node:net";
import { DOCS_PREFIX, createDocsHandler } from "./docs.js";
import { JSON_CONTENT_TYPE, failure, failureBody, internalError, wireHead } from "../../kernel/envelope.js";
import { answerUnreadable, endWithEnvelope, framingProblem, readBody } from "./framing.js";
import { BODY_METHODS } from "../../kernel/methods.js";
import type { ApiRequest, Dispatcher, ReplyWithCaller } from "../../pipeline/dispatch.js";
import { errorText, oneLine, printable, quote } from "../../kernel/text.js";
import { allowedMethods, answerToTarget, namesThisServer, readTarget } from "../request-target.js";
import type { OperatorLog } from "../../kernel/operator-log.js";
import { UNMATCHED, type MetricCounts } from "./metric-counts.js";
import { maskedTarget } from "../logged-query.js";
import type { SpecOperation } from "../../kernel/spec.js";
import { splitTarget } from "../../../src/query.js";

/** What OPTIONS * is told: the methods of both documents' operations. */
const ALLOW = allowedMethods(["read", "control"]);

/** Headers a browser script may read on a cross-origin answer. */
const EXPOSED_HEADERS = [...Object.values(rateLimit.headers), "Allow", "WWW-Authenticate"].join(", ");

export type RouteHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface MockHttpOptions {
  dispatch: Dispatcher;
  /** "http": failures carry their status; 200: every failure is sent with HTTP 200, same envelope. */
  failureStatus: "http" | 200;
  latencyMs: number;
  /** Where request lines go; undefined: no request log. */
  log?: OperatorLog;
  /** The operations of both documents by id: a request line shows the values of an operation's own query parameters only. */
  operations: ReadonlyMap<string, SpecOperation>;
  /** The counts every answer adds to, and the path where they are served (in Prometheus' text format, made by `render`). */
  metrics?: MetricsEndpoint;
  /** Where internal errors go (always on). */
  onError: (line: string) => void;
  docsDir: string;
  /** The largest body an operation reads (bodyLimit of the spec); reading stops after it. */
  maxBodyBytes: number;
  /** Paths under this prefix (the control API) answer only the origins in `controlOrigins`. */
  controlPrefix: string;
  controlOrigins: readonly string[];
  /** Timeouts and caps on connections; default defaultConnectionLimits(latencyMs). */
  connectionLimits?: ConnectionLimits;
}

export interface MetricsEndpoint {
  counts: MetricCounts;
  /** The path of GET /_mock/metrics (the control document's getMetrics). */
  path: string;
  /** The exposition: loads the Prometheus client the first time it is called. */
  render(): Promise<{ contentType: string; body: string }>;
}

export function createMockHttpServer(options: MockHttpOptions) {
  const { dispatch, failureStatus, latencyMs, log, onError } = options;
  const counts = options.metrics?.counts;
  const mounts: { prefix: string; handler: RouteHandler }[] = [];
  const corsHeaders = cors(options.controlPrefix, new Set(options.controlOrigins));
  const answeredAndClosing = new WeakSet<Socket>();
  /** The host given to listen(), which an absolute request target may name. */
  const boundHosts: string[] = [];

  function sendReply(req: IncomingMessage, res: ServerResponse, reply: ReplyWithCaller, started: number): void {
    if (res.headersSent || res.destroyed) return;
    // A string goes to the socket as it is: node:http encodes it while writing, with no Buffer kept.
    const body = reply.body;
    // A probe's status is HTTP's whatever --failure-status says: a 503 sent as 200 would keep a stopping replica in the balancer.
    const { status, headers } = wireHead(reply, typeof body === "string" ? Buffer.byteLength(body) : body.length, reply.operator ? "http" : failureStatus);
    corsHeaders(req, headers);
    res.writeHead(status, headers);
    res.end(body);
    // A probe (reply.operator) asks about the process: neither counted nor logged, as the scrape itself is not.
    if (reply.operator) return;
    const elapsed = performance.now() - started;
    counts?.request(reply.operationId ?? UNMATCHED, reply.status, elapsed / 1000);
    if (log) {
      const ms = elapsed.toFixed(1);
      const shown = status === reply.status ? `${status}` : `${status} (failure ${reply.status})`;
      // A query value like a key or a secret, or of a parameter the contract does not define, is hidden.
      const url = maskedTarget(printable(req.url ?? "", 200), reply.operationId === undefined ? undefined : options.operations.get(reply.operationId));
      const fields = { method: req.method, url, status, failure: status === reply.status ? undefined : reply.status, ms: Number(ms), operation: reply.operationId, caller: reply.caller };
      log.event("info", "request", `${req.method} ${url} ${shown} ${ms} ms${reply.caller ? ` [${reply.caller}]` : ""}`, fields);
    }
  }

  /** GET /_mock/metrics: the counts and gauges in Prometheus' text format; any other method, the spec's 405. */
  function answerMetrics(req: IncomingMessage, res: ServerResponse, method: string, endpoint: MetricsEndpoint, started: number): void {
    if (method !== "GET" && method !== "HEAD") {
      sendReply(req, res, failure(405, `Method not allowed: ${endpoint.path} answers GET and HEAD.`, { Allow: "GET, HEAD" }), started);
      return;
    }
    endpoint.render().then(({ contentType, body }) => {
      if (res.destroyed) return;
      const headers: Record<string, string | number> = { "Content-Type": contentType, "Content-Length": Buffer.byteLength(body), "Cache-Control": "no-store" };
      corsHeaders(req, headers);
      res.writeHead(200, headers);
      res.end(method === "HEAD" ? undefined : body);
    }, (error: unknown) => internal(req, res, error, started));
  }

  function deliver(req: IncomingMessage, res: ServerResponse, reply: ReplyWithCaller, started: number): void {
    // --latency is the network's, simulated for the API; a probe asks about the process (its timeout is short).
    const wait = reply.operator ? 0 : latencyMs + (reply.holdMs ?? 0);
    if (wait > 0) setTimeout(() => sendReply(req, res, reply, started), wait);
    else sendReply(req, res, reply, started);
  }

  function writeFailure(res: ServerResponse, status: number, message: string): void {
    sendReply(res.req, res, { status, body: failureBody(status, message) }, performance.now());
  }

  const docs = createDocsHandler(options.docsDir, writeFailure);

  function internal(req: IncomingMessage, res: ServerResponse, error: unknown, started: number): void {
    onError(`hr-mock: internal error on ${req.method} ${printable(splitTarget(req.url ?? "").path, 200)}: ${oneLine(errorText(error))}`);
    const reply = internalError();
    if (!res.headersSent) sendReply(req, res, reply, started);
    else res.destroy();
  }

  // Host is checked below, so a request without it gets the envelope instead of Node's empty 400.
  let closingConnections = false;
  /** Set while the drain closes the listener: requests wait for it, so that clients answered now do not queue new connections it would reset (connections.ts). */
  let listenerClosing: Promise<void> | undefined;
  const server = createServer({ requireHostHeader: false, connectionsCheckingInterval: 1000 }, (req, res) => {
    if (listenerClosing) void listenerClosing.then(() => answerRequest(req, res));
    else answerRequest(req, res);
  });

  function answerRequest(req: IncomingMessage, res: ServerResponse): void {
    const started = performance.now();
    const method = req.method ?? "GET";
    if (closingConnections) res.setHeader("Connection", "close");
    try {
      const framing = framingProblem(req);
      if (framing) {
        answeredAndClosing.add(req.socket);
        sendReply(req, res, { ...failure(400, framing), headers: { Connection: "close" } }, started);
        return;
      }
      // An absolute target naming this server is its path from here on (CORS, mounts, the log read req.url).
      const target = readTarget(req.url ?? "/", (absolute) => namesThisServer(absolute, req.socket, boundHosts));
      if (target.kind !== "path") {
        sendReply(req, res, answerToTarget(target, method, ALLOW, "the HR service mock"), started);
        return;
      }
      req.url = target.url;
      const url = target.url;
      if (method === "OPTIONS" && req.headers.origin !== undefined && req.headers["access-control-request-method"] !== undefined) {
        answerPreflight(req, res, corsHeaders);
        return;
      }
      const rawPath = splitTarget(url).path;
      if (options.metrics && rawPath === options.metrics.path) {
        answerMetrics(req, res, method, options.metrics, started);
        return;
      }
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
        readBody(req, options.maxBodyBytes).then(({ body, tooLarge }) => answer({ method, url, headers, body, bodyTooLarge: tooLarge, client: req.socket.remoteAddress }));
      } else {
        answer({ method, url, headers, client: req.socket.remoteAddress });
      }
    } catch (error) {
      internal(req, res, error, started);
    }
  }

  // Requests Node cannot parse (bad request line, oversized headers) still get an envelope.
  answerUnreadable(server, answeredAndClosing, failureStatus);
  // Expect other than 100-continue (RFC 9110 10.1.1): Node's own answer is an empty 417.
  server.on("checkExpectation", (req: IncomingMessage, res: ServerResponse) => {
    sendReply(req, res, { ...failure(417, `Expectation failed: the mock supports only Expect: 100-continue, got ${quote(String(req.headers.expect))}.`), headers: { Connection: "close" } }, performance.now());
  });
  // CONNECT asks for a tunnel; Node's default is to close the socket without a word.
  server.on("connect", (_req: IncomingMessage, socket: Socket) => endWithEnvelope(socket, 405, "Method not allowed: CONNECT asks for a tunnel; the mock is not a proxy.", failureStatus));
  const limits = options.connectionLimits ?? defaultConnectionLimits(latencyMs);
  const connections = boundConnections(server, limits);

  return {
    /** Serve every request whose path starts with `prefix` (e.g. "/_extra/") with `handler`. */
    mount(prefix: string, handler: RouteHandler) {
      if (!prefix.startsWith("/")) throw new Error(`a mount prefix starts with "/", got ${JSON.stringify(prefix)}`);
      const normalized = prefix.endsWith("/") ? prefix : `${prefix}/`;
      if (mounts.some((m) => m.prefix === normalized)) throw new Error(`${normalized} is mounted already`);
      mounts.push({ prefix: normalized, handler });
      // Longest prefix first, so /_mock/webhooks/ can sit beside /_mock/.
      mounts.sort((a, b) => b.prefix.length - a.prefix.length);
    },
    listen: (port: number, host: string) => listenOn(server, port, host, boundHosts),
    /** From now on every answer carries Connection: close, so that clients and balancers open their next connection elsewhere. */
    lingerClose: () => void (closingConnections = true),
    inFlight: () => connections.inFlight(),
    /**
     * Stops accepting connections, lets the requests in flight finish (for `patienceMs`: by default the
     * longest a request may take to arrive), closes kept-alive connections; resolves when none is left.
     */
    drain(patienceMs = limits.requestTimeoutMs) {
      closingConnections = true;
      const { listenerClosed, gone } = drainServer(server, connections, patienceMs);
      listenerClosing = listenerClosed.then(() => void (listenerClosing = undefined));
      return gone;
    },
    close: () => closeServer(server, connections),
  };
}

type CorsHeaders = (req: IncomingMessage, headers: Record<string, string | number>) => boolean;

/**
 * CORS. The read API answers pages of any origin (a frontend on another local port), without
 * credentials: keys travel in a header, never in cookies. The control API (`controlPrefix`) answers
 * only the origins the user named (--cors-origin): a page the developer happens to visit must not
 * register endpoints or read secrets. Returns whether the origin is allowed.
 */
function cors(controlPrefix: string, controlOrigins: ReadonlySet<string>): CorsHeaders {
  return (req, headers) => {
    const origin = req.headers.origin;
    const control = (req.url ?? "").startsWith(controlPrefix);
    if (control) {
      headers.Vary = "Origin";
      if (origin === undefined || !controlOrigins.has(origin)) return false;
    } else if (origin === undefined) {
      headers["Access-Control-Allow-Origin"] = "*";
      return true;
    }
    headers["Access-Control-Allow-Origin"] = origin!;
    headers["Access-Control-Expose-Headers"] = EXPOSED_HEADERS;
    headers.Vary = "Origin";
    return true;
  };
}

function answerPreflight(req: IncomingMessage, res: ServerResponse, corsHeaders: CorsHeaders): void {
  const headers: Record<string, string | number> = {};
  if (!corsHeaders(req, headers)) {
    // A browser hides this answer from the page; curl and logs show why.
    const body = failureBody(403, `Forbidden: the control API answers pages only from the origins given with --cors-origin; ${printable(String(req.headers.origin), 100)} is not one.`);
    res.writeHead(403, { ...headers, "Content-Type": JSON_CONTENT_TYPE, "Content-Length": Buffer.byteLength(body) });
    res.end(body);
    return;
  }
  const requestedHeaders = req.headers["access-control-request-headers"];
  res.writeHead(204, {
    ...headers,
    "Access-Control-Allow-Methods": String(req.headers["access-control-request-method"] || "GET"),
    "Access-Control-Allow-Headers": requestedHeaders ? String(requestedHeaders) : "*",
    "Access-Control-Max-Age": 600,
    Vary: "Origin, Access-Control-Request-Method, Access-Control-Request-Headers",
    "Content-Length": 0,
  });
  res.end();
}
