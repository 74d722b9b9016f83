/**
 * A ready-made Node request handler for webhook deliveries: raw body in, signature and event
 * checked, 2xx answered at once (service-api.md §6.5: within 10 seconds), the event handed to
 * user code afterwards, repeats of an event id skipped.
 */
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from "node:http";
import { isWebhookError } from "../errors.js";
import { DELIVERY_ID_HEADER, readHeader, type WebhookEvent } from "../construct-event.js";
import { assertTolerance, DEFAULT_TOLERANCE_SECONDS, toSecretList, type SigningSecrets } from "../signature.js";
import { constructEvent } from "./construct-event.js";
import { splitTarget } from "../../query.js";

/** Largest body read by default; larger deliveries get 413 before they fill memory. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** Event ids remembered by default for skipping redeliveries. */
export const DEFAULT_SEEN_IDS_LIMIT = 10_000;

/** What the receiver knows about one delivery besides the event itself. */
export interface DeliveryInfo {
  /** `Service-Delivery-Id`: differs on every redelivery of the same event. */
  deliveryId: string | undefined;
}

/** A delivery the receiver answered with a non-2xx status. */
export interface Rejection {
  status: number;
  /** A WebhookSignatureError / WebhookEventError reason, or the HTTP-level cause. */
  reason: string;
  message: string;
  deliveryId: string | undefined;
}

export interface ReceiverOptions {
  /** The endpoint's signing secret, or several while rotating. */
  secret: SigningSecrets;
  /** Called once per new event id, after the 200 has been sent; may be async. */
  onEvent: (event: WebhookEvent, delivery: DeliveryInfo) => unknown;
  /**
   * Called when onEvent throws or rejects (event given), or when the receiver itself failed and
   * answered 500 (event undefined); defaults to one line on stderr. The 200 is already sent by
   * then, so the sender will not redeliver: retry inside onEvent if the work must not be lost.
   */
  onError?: (error: unknown, event: WebhookEvent | undefined) => void;
  /** Called for every delivery answered 4xx (for logging; the answer is already decided). */
  onRejected?: (rejection: Rejection) => void;
  /** Called for a repeat of an already seen event id (answered 200, onEvent not called). */
  onDuplicate?: (event: WebhookEvent, delivery: DeliveryInfo) => void;
  /** Signature tolerance in seconds; defaults to 300. */
  toleranceSeconds?: number;
  /** Only this request path is served (others get 404); by default any path. */
  path?: string;
  /** How many recent event ids are remembered for dedupe; defaults to 10,000. */
  seenIdsLimit?: number;
  /** Body size cap in bytes; defaults to 1 MiB. */
  maxBodyBytes?: number;
}

/** Returns a `(req, res)` handler for `http.createServer` or an existing server's route. */
export function createReceiver(options: ReceiverOptions): RequestListener {
  const settings = resolveOptions(options);
  const seen = new RecentIds(settings.seenIdsLimit);
  return (req, res) => {
    handleDelivery(req, res, settings, seen).catch((error: unknown) => {
      // Only a bug in this module gets here; answer if still possible, never take the process down.
      respond(res, 500, { error: "internal_error" });
      safeCall(() => settings.onError(error, undefined));
    });
  };
}

export interface ListeningReceiver {
  server: Server;
  /** Base URL, e.g. http://127.0.0.1:40123 */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Starts an HTTP server for a handler on 127.0.0.1 (port 0 picks a free port). */
export function listen(
  handler: RequestListener,
  { port, host = "127.0.0.1" }: { port: number; host?: string },
): Promise<ListeningReceiver> {
  // The sender gives up after 10 s, so a request that is still arriving after that is abandoned.
  const server = createServer({ requestTimeout: 10_000, headersTimeout: 10_000 }, handler);
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      const address = server.address();
      const boundPort = typeof address === "object" && address !== null ? address.port : port;
      const urlHost = host.includes(":") ? `[${host}]` : host;
      resolve({ server, url: `http://${urlHost}:${boundPort}`, port: boundPort, close: () => closeServer(server) });
    });
  });
}

type Settings = Required<Omit<ReceiverOptions, "path" | "onRejected" | "onDuplicate">> &
  Pick<ReceiverOptions, "path" | "onRejected" | "onDuplicate">;

function resolveOptions(options: ReceiverOptions): Settings {
  if (typeof options.onEvent !== "function") throw new TypeError("createReceiver needs an onEvent function.");
  if (options.path !== undefined && !options.path.startsWith("/")) {
    throw new TypeError(`createReceiver path must start with "/", got ${JSON.stringify(options.path)}.`);
  }
  // Checked now, not per delivery: an unset secret (e.g. a missing environment variable) would
  // otherwise answer every delivery 500 and surface only as retries at the sender.
  toSecretList(options.secret);
  const toleranceSeconds = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  assertTolerance(toleranceSeconds);
  const seenIdsLimit = wholeNumber("seenIdsLimit", options.seenIdsLimit ?? DEFAULT_SEEN_IDS_LIMIT, 0);
  const maxBodyBytes = wholeNumber("maxBodyBytes", options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES, 1);
  return { ...options, seenIdsLimit, toleranceSeconds, maxBodyBytes, onError: options.onError ?? logHandlerError };
}

function wholeNumber(name: string, value: number, min: number): number {
  if (!Number.isSafeInteger(value) || value < min) throw new RangeError(`${name} must be a whole number >= ${min}, got ${value}.`);
  return value;
}

async function handleDelivery(req: IncomingMessage, res: ServerResponse, settings: Settings, seen: RecentIds) {
  const deliveryId = readHeader(req.headers, DELIVERY_ID_HEADER);
  const reject = (status: number, reason: string, message: string, headers: Record<string, string> = {}) => {
    respond(res, status, { error: reason }, headers);
    if (settings.onRejected) safeCall(() => settings.onRejected?.({ status, reason, message, deliveryId }));
  };

  if (settings.path !== undefined && requestPath(req) !== settings.path) {
    return reject(404, "not_found", `No receiver at ${requestPath(req)}; it listens on ${settings.path}.`);
  }
  if (req.method !== "POST") {
    return reject(405, "method_not_allowed", `Method ${req.method} is not allowed; deliveries are POST.`, {
      Allow: "POST",
    });
  }
  const body = await readBody(req, settings.maxBodyBytes);
  if (body === "too_large") {
    // Closing the connection stops a sender that keeps streaming after the answer.
    return reject(413, "body_too_large", `Body exceeds ${settings.maxBodyBytes} bytes.`, { Connection: "close" });
  }
  if (body === "aborted") return; // The client went away; there is no one to answer.

  let event: WebhookEvent;
  try {
    event = constructEvent(body, req.headers, settings.secret, { toleranceSeconds: settings.toleranceSeconds });
  } catch (error) {
    if (!isWebhookError(error)) throw error;
    return reject(400, error.reason, error.message);
  }

  const delivery: DeliveryInfo = { deliveryId };
  if (!seen.add(event.id)) {
    respond(res, 200, { received: true, duplicate: true });
    // Deferred like onEvent, so callbacks run in arrival order: a repeat is never reported before
    // the first delivery of its event has been handed on.
    if (settings.onDuplicate) setImmediate(() => safeCall(() => settings.onDuplicate?.(event, delivery)));
    return;
  }
  respond(res, 200, { received: true });
  // After the answer: slow user code must not make the sender time out and redeliver.
  setImmediate(() => runHandler(settings, event, delivery));
}

/** Runs onEvent, routing a throw or a rejected promise to onError. */
function runHandler(settings: Settings, event: WebhookEvent, delivery: DeliveryInfo): void {
  Promise.resolve()
    .then(() => settings.onEvent(event, delivery))
    .catch((error: unknown) => safeCall(() => settings.onError(error, event)));
}

type BodyResult = Buffer | "too_large" | "aborted";

/** Collects the raw bytes (never decoded: the signature covers them exactly), up to a cap. */
function readBody(req: IncomingMessage, maxBytes: number): Promise<BodyResult> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.resolve("too_large");
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (result: BodyResult) => {
      req.off("data", onData);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) return finish("too_large");
      chunks.push(chunk);
    };
    req.on("data", onData);
    req.once("end", () => finish(Buffer.concat(chunks, size)));
    // "close" without "end" first means the client went away mid-body; after "end" it is a no-op.
    req.once("error", () => finish("aborted"));
    req.once("close", () => finish("aborted"));
  });
}

function requestPath(req: IncomingMessage): string {
  return splitTarget(req.url ?? "/").path;
}

function respond(res: ServerResponse, status: number, body: object, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.writableEnded) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** Observer callbacks must not break the receiver either. */
function safeCall(fn: () => void): void {
  try {
    fn();
  } catch {
    // Deliberately ignored: a failing logger is not a reason to fail a delivery.
  }
}

function logHandlerError(error: unknown, event: WebhookEvent | undefined): void {
  const message = error instanceof Error ? error.message : String(error);
  // Without an event the receiver itself failed (and answered 500); onEvent never ran.
  const what = event ? `onEvent failed for event ${event.id}` : "internal error (answered 500)";
  process.stderr.write(`webhook receiver: ${what}: ${message}\n`);
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    // Idle keep-alive sockets would otherwise hold close() open for seconds.
    server.closeIdleConnections();
  });
}

/**
 * Insertion-ordered set of the most recent ids: memory stays bounded, and an id older than the
 * last `limit` deliveries may be processed again (the rare cost of a bounded window).
 */
class RecentIds {
  private readonly ids = new Set<string>();
  constructor(private readonly limit: number) {}

  /** Records the id; false when it was already there. */
  add(id: string): boolean {
    if (this.ids.has(id)) return false;
    if (this.limit === 0) return true;
    this.ids.add(id);
    if (this.ids.size > this.limit) this.ids.delete(this.ids.values().next().value as string);
    return true;
  }
}
