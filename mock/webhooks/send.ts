// One delivery attempt on the wire: a POST with node:http/https (never fetch: redirects must not
// be followed and the timeout must cover the whole answer), through the endpoint's keep-alive
// agent. The outcome is data; deciding success and retries is the caller's business.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";

/** Bytes of the receiver's answer kept for the delivery log. */
const ANSWER_EXCERPT_BYTES = 500;

export interface SendOutcome {
  /** The HTTP status, when an answer arrived in time. */
  status?: number;
  /** Why there was no (complete) answer in time: a timeout, a connection error. */
  error?: string;
  /** The start of the answer's body, as text. */
  answer?: string;
  durationMs: number;
}

export type EndpointAgent = HttpAgent | HttpsAgent;

export function createAgent(url: URL, maxSockets: number): EndpointAgent {
  const options = { keepAlive: true, maxSockets, maxFreeSockets: maxSockets, scheduling: "lifo" as const };
  return url.protocol === "https:" ? new HttpsAgent(options) : new HttpAgent(options);
}

/**
 * The outcome once the answer is complete, or at the timeout; never rejects. A request on a reused
 * socket the receiver closed meanwhile is sent once more on a fresh one: it never reached the receiver.
 */
export function send(url: URL, agent: EndpointAgent, headers: OutgoingHttpHeaders, body: Buffer, timeoutMs: number): Promise<SendOutcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<SendOutcome, "durationMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...outcome, durationMs: Math.round((performance.now() - started) * 10) / 10 });
    };
    let current: ReturnType<typeof httpRequest> | undefined;
    const timer = setTimeout(() => {
      finish({ error: `timeout: no complete answer within ${timeoutMs} ms` });
      current?.destroy();
    }, timeoutMs);

    const attempt = (mayRetryStaleSocket: boolean) => {
      const make = url.protocol === "https:" ? httpsRequest : httpRequest;
      let req: ReturnType<typeof httpRequest>;
      try {
        req = make(url, { method: "POST", agent, headers });
      } catch (error) {
        // A request node refuses to start (a bad header value, a destroyed agent) is an outcome too.
        return finish({ error: describe(error as NodeJS.ErrnoException) });
      }
      current = req;
      req.on("response", (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        res.on("data", (chunk: Buffer) => {
          if (kept < ANSWER_EXCERPT_BYTES) {
            chunks.push(chunk);
            kept += chunk.length;
          }
        });
        res.on("end", () => finish({ status: res.statusCode, answer: excerpt(Buffer.concat(chunks)) }));
        res.on("error", (error) => finish({ status: res.statusCode, error: describe(error) }));
      });
      req.on("error", (error: NodeJS.ErrnoException) => {
        if (settled) return;
        const stale = mayRetryStaleSocket && req.reusedSocket && (error.code === "ECONNRESET" || error.code === "EPIPE");
        if (stale) attempt(false);
        else finish({ error: describe(error) });
      });
      req.end(body);
    };
    attempt(true);
  });
}

function excerpt(bytes: Buffer): string | undefined {
  if (bytes.length === 0) return undefined;
  const text = bytes.subarray(0, ANSWER_EXCERPT_BYTES).toString("utf8").replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "?");
  return bytes.length > ANSWER_EXCERPT_BYTES ? `${text}…` : text;
}

function describe(error: NodeJS.ErrnoException): string {
  const code = error.code ? `${error.code}: ` : "";
  return `${code}${error.message}`.replace(/\s+/g, " ").slice(0, 200);
}
