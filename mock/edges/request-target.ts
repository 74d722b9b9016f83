// The request target of an HTTP/1.1 request line (RFC 9112 3.2), read once by the node:http edges
// (the mock's and the proxy's) before anything routes on it: origin form (/v1/… ?…), absolute form
// (http://127.0.0.1:4010/v1/…, what a client configured with an HTTP proxy sends, which every
// server must accept: RFC 9112 3.2.2), and the asterisk form of OPTIONS * (RFC 9110 9.3.7). An
// absolute target for this server is answered as its path; one for another host is refused, since
// neither edge is an open proxy.
import { routes } from "../../generated/routes.js";
import { failure, successBody, type Reply } from "../kernel/envelope.js";
import { printable } from "../kernel/text.js";
import type { Socket } from "node:net";

export type RequestTarget =
  /** Path and query as sent, ready to route. */
  | { kind: "path"; url: string }
  | { kind: "asterisk" }
  /** An absolute target naming another server: its origin, printable. */
  | { kind: "foreign"; origin: string }
  | { kind: "invalid" };

const ABSOLUTE = /^(https?):\/\/([^/?#]*)/i;
const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "::1"]);

/**
 * Reads a request target. `own(url)` says whether an absolute target names this server (its path
 * is then answered); the path and query are kept as sent, never re-encoded by a URL parser.
 */
export function readTarget(target: string, own: (url: URL) => boolean): RequestTarget {
  if (target.startsWith("/")) return { kind: "path", url: target };
  if (target === "*") return { kind: "asterisk" };
  const absolute = ABSOLUTE.exec(target);
  if (!absolute) return { kind: "invalid" };
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return { kind: "invalid" };
  }
  if (!own(url)) return { kind: "foreign", origin: printable(url.origin, 100) };
  const rest = target.slice(absolute[0].length);
  return { kind: "path", url: rest.startsWith("/") ? rest : `/${rest}` };
}

const bare = (host: string) => host.replace(/^\[|\]$/g, "").replace(/^::ffff:(?=\d+\.)/, "").toLowerCase();

/**
 * Whether `url` names the server a connection came in on: the same port, and a host that is the
 * connection's local address, a loopback name when that address is a loopback one, or one of `names`
 * (the host the server was told to bind).
 */
export function namesThisServer(url: URL, local: Pick<Socket, "localAddress" | "localPort">, names: readonly string[] = []): boolean {
  const port = url.port === "" ? (url.protocol === "https:" ? 443 : 80) : Number(url.port);
  if (local.localPort === undefined || port !== local.localPort) return false;
  const host = bare(url.hostname);
  const address = bare(local.localAddress ?? "");
  if (host === address || names.some((name) => bare(name) === host)) return true;
  return LOOPBACK_NAMES.has(host) && (address === "::1" || address.startsWith("127."));
}

/** The methods a server answers, for OPTIONS *: those of the operations it serves, HEAD beside GET. */
export function allowedMethods(apis: readonly ("read" | "control")[]): string {
  const methods = new Set<string>(routes.filter((r) => apis.includes(r.api)).map((r) => r.method));
  if (methods.has("GET")) methods.add("HEAD");
  return [...methods].join(", ");
}

/**
 * The answer to a target that is not a path: OPTIONS * is told the methods `allow` lists; another
 * server's URL, another method with *, and a target that is neither form are refused, each naming
 * why. `who` says what this server is ("the HR service mock").
 */
export function answerToTarget(target: Exclude<RequestTarget, { kind: "path" }>, method: string, allow: string, who: string): Reply {
  switch (target.kind) {
    case "asterisk":
      if (method === "OPTIONS") return { status: 200, body: successBody(null), headers: { Allow: allow } };
      return failure(400, `Bad request: the request target * is for OPTIONS only (OPTIONS * asks about the server); ${printable(method, 16)} needs a path such as /v1/leavetype/list.`);
    case "foreign":
      return failure(421, `Misdirected request: the request is for ${target.origin}, but this is ${who}, which answers requests for its own address only; it is not an open proxy.`);
    case "invalid":
      return failure(400, "Bad request: the request target is neither a path (/v1/…) nor an absolute http:// URL of this server.");
  }
}
