// The proxy's options, checked once where they enter (startProxy, hr-mock proxy): the upstream is an
// http:// or https:// URL without credentials, query or fragment; each mistake is one sentence. No
// heavy import here: `hr-mock proxy --help` and its flag mistakes load nothing else.
import type { ConnectionLimits } from "../edges/node/connections.js";

export interface StartProxyOptions {
  /** The deployment to pass requests on to: http:// or https://, with the path its API sits under. */
  upstream: string;
  /** Default 4020; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** The upstream's answer must start within this many milliseconds (a 504 otherwise); default 30,000. */
  timeoutMs?: number;
  /** A request body larger than this is refused (413); default 1 MiB. */
  maxBodyBytes?: number;
  /** Answers larger than this are passed on but not checked; default 8 MiB. */
  maxCheckBytes?: number;
  /** Connections to the upstream at most (requests wait for one); default 64. */
  maxUpstreamConnections?: number;
  /** Client connection bounds, as startMock's. */
  connectionLimits?: Partial<ConnectionLimits>;
  /** Keep the records answers carry, for recording() to make a data file of. */
  record?: boolean;
  /** One line per violation as it is found; default stderr. */
  log?: (line: string) => void;
  /** Internal errors, one line each; default stderr. */
  onError?: (line: string) => void;
  /** Run by POST /_proxy/report before it answers (the CLI writes its report files there). */
  onReportRequest?: () => void | Promise<void>;
  /** List items kept to compare details with, per kind; default 10,000. */
  rememberItems?: number;
  now?: () => Date;
}

export const PROXY_DEFAULTS = { port: 4020, host: "127.0.0.1", timeoutMs: 30_000, maxBodyBytes: 1024 * 1024, maxCheckBytes: 8 * 1024 * 1024, maxUpstreamConnections: 64 } as const;

/** The proxy's own paths (its report): never passed on. */
export const PROXY_PREFIX = "/_proxy/";

/** Why `text` cannot be the upstream, or undefined when it can. */
export function upstreamProblem(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `must be an http:// or https:// URL, got ${JSON.stringify(text.slice(0, 60))}`;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return `must be an http:// or https:// URL: the proxy passes on HTTP only, got a ${url.protocol} URL`;
  if (url.username || url.password) return "must not carry a user name or password: the client's own headers (its key) are passed on";
  if (url.search || url.hash) return "must be the API's base URL, without a query or fragment";
  return undefined;
}
