// The parts of a node:http edge that keep HTTP/1.1 framing safe, shared by the mock's server
// (http.ts) and the proxy's: a request whose framing could smuggle another is refused and closes,
// a body is read up to a limit, and a request Node cannot parse is still answered in the envelope,
// written straight to the socket.
import { STATUS_CODES, maxHeaderSize, type IncomingMessage, type Server } from "node:http";
import type { Socket } from "node:net";
import { JSON_CONTENT_TYPE, failureBody, type FailureStatus } from "../../kernel/envelope.js";
import { quote } from "../../kernel/text.js";

/**
 * What makes a request's framing unsafe to answer, if anything: HTTP/1.1 without Host (RFC 9112
 * 3.2), or a Transfer-Encoding other than chunked (RFC 9112 6.1: its length is unknown, and reading
 * on would take the next request for its body, the start of request smuggling). Both close.
 */
export function framingProblem(req: IncomingMessage, who = "the mock"): string | undefined {
  if (req.httpVersion === "1.1" && req.headers.host === undefined) return "Bad request: an HTTP/1.1 request must carry a Host header (RFC 9112, section 3.2).";
  const coding = req.headers["transfer-encoding"];
  if (coding !== undefined && coding.trim().toLowerCase() !== "chunked") {
    return `Bad request: Transfer-Encoding ${quote(coding)} is not supported; ${who} reads chunked bodies only (RFC 9112, section 6.1).`;
  }
  return undefined;
}

/**
 * The body, up to `limit` bytes: past it, the rest is read and dropped (the answer, a 413, closes
 * the connection). A body that breaks off is answered as what arrived; the socket is gone anyway.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<{ body: Buffer; tooLarge: boolean }> {
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

/** An envelope written straight to the socket (Node has no response object here), then closed; `more` is header lines to add. */
export function endWithEnvelope(socket: Socket, status: number, message: string, failureStatus: FailureStatus = "http", more = ""): void {
  const body = failureBody(status, message);
  const line = failureStatus === 200 ? "200 OK" : `${status} ${STATUS_CODES[status]}`;
  socket.end(`HTTP/1.1 ${line}\r\nContent-Type: ${JSON_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${more}Connection: close\r\n\r\n${body}`);
}

/** Why Node's parser refused a request, in words (its codes, HPE_*, mean little to a caller). */
const UNREADABLE: Record<string, string> = {
  HPE_HEADER_OVERFLOW: `the request line and headers exceed ${Math.round(maxHeaderSize / 1024)} KB; shorten the URL (a long SearchTerm?) or the headers`,
  HPE_INVALID_METHOD: "the method is not an HTTP method; the API answers GET",
  HPE_INVALID_URL: "the request target is not a valid URL path",
  HPE_INVALID_HEADER_TOKEN: "a header line is malformed",
};

/**
 * Requests Node cannot parse (a bad request line, oversized headers, one that never arrives in
 * full) answered with the envelope naming why; `answered` holds sockets whose request was refused
 * already (the parser then fails on what follows).
 */
export function answerUnreadable(server: Server, answered: WeakSet<Socket>, failureStatus: FailureStatus = "http"): void {
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || error.code === "ECONNRESET" || answered.has(socket)) {
      socket.destroy();
      return;
    }
    const timedOut = error.code === "ERR_HTTP_REQUEST_TIMEOUT";
    const status = timedOut ? 408 : 400;
    const message = timedOut
      ? `Request timeout: the request did not arrive in full within ${Math.round(server.requestTimeout / 1000)} seconds.`
      : `Bad request: the HTTP request could not be read: ${UNREADABLE[error.code ?? ""] ?? `malformed HTTP (${error.code ?? "parse error"})`}.`;
    endWithEnvelope(socket, status, message, failureStatus);
  });
}
