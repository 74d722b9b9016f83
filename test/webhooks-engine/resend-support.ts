// For the resend suites: a receiver written here on node:http (no library of the package) that
// keeps every request's raw bytes and headers and answers a status chosen per path, and a world of
// the mock (a sandbox of its own, so one suite's log is not another's) driven through the control
// API as a user drives it, every answer checked against the control document.
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { RunningMock } from "../../mock/index.js";
import { isFinal, type DeliveryLogEntry } from "../../mock/webhooks/delivery-log.js";
import { control, WAIT_BOUND_MS, type AnswerCheck, type ControlAnswer } from "./support.js";

export interface RawRequest {
  path: string;
  headers: IncomingHttpHeaders;
  /** The body's bytes exactly as they came. */
  body: Buffer;
  /** Date.now() when the body was complete. */
  receivedAt: number;
  eventId: string;
  deliveryId: string;
  signature: string;
}

/** Answers each path with its status in `status` (200 when none is set); "hold" never answers. */
export class RawReceiver {
  readonly requests: RawRequest[] = [];
  readonly status = new Map<string, number | "hold">();
  private server!: Server;
  private readonly held: ServerResponse[] = [];

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const header = (name: string) => String(req.headers[name] ?? "");
        const path = req.url ?? "/";
        this.requests.push({ path, headers: req.headers, body: Buffer.concat(chunks), receivedAt: Date.now(), eventId: header("service-event-id"), deliveryId: header("service-delivery-id"), signature: header("service-signature") });
        const status = this.status.get(path) ?? 200;
        if (status === "hold") this.held.push(res);
        else res.writeHead(status, { "content-type": "application/json" }).end("{}");
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    return this;
  }

  url(path: string): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  /** The requests of an event, to one path or any, first first. */
  of(eventId: string, path?: string): RawRequest[] {
    return this.requests.filter((r) => r.eventId === eventId && (path === undefined || r.path === path));
  }

  async close(): Promise<void> {
    for (const res of this.held.splice(0)) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A sandbox of the mock, reached through the control API with its webhooks admin key (organisation 1). */
export interface ControlWorld {
  key: string;
  /** A control API call, its answer checked against the control document. */
  call(method: string, path: string, body?: unknown): Promise<ControlAnswer>;
}

export async function sandboxWorld(mock: RunningMock, check: AnswerCheck): Promise<ControlWorld> {
  const key = (await mock.createSandbox({ label: "resend" })).key.org1WebhooksAdmin;
  return {
    key,
    async call(method, path, body) {
      const answer = await control(mock, method, path, body, key);
      check(path, method, answer);
      return answer;
    },
  };
}

/** Adds an endpoint; its id and secret. */
export async function addEndpoint(world: ControlWorld, url: string, events: "all" | string[] = "all"): Promise<{ id: string; secret: string }> {
  const answer = await world.call("POST", "/_mock/webhooks/endpoints", { url, events });
  if (answer.status !== 201) throw new Error(`adding ${url} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return { id: answer.body.data.id, secret: answer.body.data.secret };
}

/** Fires an event; the event as the mock answers it. */
export async function fire(world: ControlWorld, type: string): Promise<{ id: string; type: string }> {
  const answer = await world.call("POST", "/_mock/webhooks/events", { type });
  if (answer.status !== 202) throw new Error(`triggering ${type} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body.data.event;
}

/** The log entries of an event (newest first) once every one is final; fails naming them after WAIT_BOUND_MS. */
export async function finished(world: ControlWorld, eventId: string): Promise<DeliveryLogEntry[]> {
  const deadline = Date.now() + WAIT_BOUND_MS;
  for (;;) {
    const answer = await world.call("GET", `/_mock/webhooks/deliveries?eventId=${eventId}&limit=1000`);
    const entries = answer.body.data as DeliveryLogEntry[];
    if (entries.length > 0 && entries.every((e) => isFinal(e.state))) return entries;
    if (Date.now() > deadline) throw new Error(`the deliveries of ${eventId} did not finish in ${WAIT_BOUND_MS} ms: ${JSON.stringify(entries.map((e) => e.state))}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Waits until the next whole second, so that a signature made after it carries another `t`. */
export async function nextSecond(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 1010 - (Date.now() % 1000)));
}
