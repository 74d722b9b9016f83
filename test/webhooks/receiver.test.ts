import { request } from "node:http";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { receiveCommand, summarizeData } from "../../mock/commands/receive.js";
import {
  createReceiver,
  listen,
  sign,
  type DeliveryInfo,
  type ListeningReceiver,
  type ReceiverOptions,
  type Rejection,
  type WebhookEvent,
} from "../../src/webhooks/node/index.js";
import asyncapi from "../../generated/asyncapi.json" with { type: "json" };
import vectorFile from "./signature-vectors.json" with { type: "json" };

const SECRET = "whsec_receiver_tests";
const leaveTemplate = JSON.parse(vectorFile.vectors.find((v) => v.name === "leave.approved event")!.body) as WebhookEvent;

/** A leave.approved body with its own id, serialized once: these exact bytes get signed. */
function eventBody(id: string, overrides: Partial<WebhookEvent> = {}): string {
  return JSON.stringify({ ...leaveTemplate, id, ...overrides });
}

const fixedHeaders = asyncapi.components.schemas.WebhookHeaders.properties;

/** Headers the service sends with a body (the AsyncAPI WebhookHeaders), signed now. */
function deliveryHeaders(body: string, deliveryId: string, secret = SECRET): Record<string, string> {
  const { id, type } = JSON.parse(body) as WebhookEvent;
  return {
    "Content-Type": fixedHeaders["Content-Type"].const,
    "User-Agent": fixedHeaders["User-Agent"].const,
    "Service-Event-Id": id,
    "Service-Event-Type": type,
    "Service-Delivery-Id": deliveryId,
    "Service-Signature": sign(body, secret),
  };
}

async function post(url: string, body: string, headers: Record<string, string>) {
  const res = await fetch(url, { method: "POST", body, headers });
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, headers: res.headers };
}

/** A receiver on an ephemeral port that records what its callbacks saw. */
class Recorder {
  events: Array<{ event: WebhookEvent; delivery: DeliveryInfo }> = [];
  errors: Array<{ error: unknown; eventId: string | undefined }> = [];
  rejections: Rejection[] = [];
  duplicates: string[] = [];
  server!: ListeningReceiver;
  private waiters: Array<{ id: string; resolve: () => void }> = [];

  constructor(private readonly extra: Partial<ReceiverOptions> & { throwFor?: Set<string> } = {}) {}

  async start(): Promise<this> {
    const { throwFor, ...options } = this.extra;
    this.server = await listen(
      createReceiver({
        secret: SECRET,
        onEvent: (event, delivery) => {
          this.events.push({ event, delivery });
          this.settle(event.id);
          if (throwFor?.has(event.id)) throw new Error(`handler failed on ${event.id}`);
        },
        onError: (error, event) => {
          this.errors.push({ error, eventId: event?.id });
          this.settle(`error:${event?.id}`);
        },
        onRejected: (rejection) => this.rejections.push(rejection),
        onDuplicate: (event) => this.duplicates.push(event.id),
        ...options,
      }),
      { port: 0 },
    );
    return this;
  }

  /** Resolves once onEvent (or, with the "error:" prefix, onError) has seen the id; fails naming it after 20 s. */
  seen(key: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for the receiver to hand on ${key}; it handed on ${this.eventIds().join(", ")}`)), 20_000);
      this.waiters.push({ id: key, resolve: () => (clearTimeout(timer), resolve()) });
    });
  }

  eventIds(): string[] {
    return this.events.map((e) => e.event.id);
  }

  private settle(key: string): void {
    for (const w of this.waiters.filter((w) => w.id === key)) w.resolve();
    this.waiters = this.waiters.filter((w) => w.id !== key);
  }
}

/**
 * "onEvent was not called for X" cannot be observed by waiting; instead a later good delivery is
 * awaited: handlers run in arrival order, so if X had been handed on it would show up before it.
 */
async function deliverBarrier(r: Recorder, id: string): Promise<void> {
  const body = eventBody(id);
  const handled = r.seen(id);
  expect((await post(r.server.url, body, deliveryHeaders(body, `dlv_${id}`))).status, "barrier delivery").toBe(200);
  await handled;
}

describe("createReceiver over HTTP", () => {
  const r = new Recorder();
  beforeAll(() => r.start());
  afterAll(() => r.server.close());

  it("answers 200 to a valid delivery and calls onEvent once with the event and delivery id", async () => {
    const body = eventBody("evt-valid");
    const handled = r.seen("evt-valid");
    const res = await post(r.server.url, body, deliveryHeaders(body, "dlv_1"));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: true });
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    await handled;
    const calls = r.events.filter((e) => e.event.id === "evt-valid");
    expect(calls, "onEvent calls for evt-valid").toHaveLength(1);
    expect(calls[0].event).toEqual(JSON.parse(body));
    expect(calls[0].delivery).toEqual({ deliveryId: "dlv_1" });
  });

  it("answers 400 {error: reason} to a tampered body and does not call onEvent", async () => {
    const body = eventBody("evt-tampered");
    const headers = deliveryHeaders(body, "dlv_t");
    const res = await post(r.server.url, body.replace("Approved", "Rejected"), headers);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "no_matching_signature" });
    expect(r.rejections.at(-1)).toMatchObject({ status: 400, reason: "no_matching_signature", deliveryId: "dlv_t" });
    await deliverBarrier(r, "evt-after-tampered");
    expect(r.eventIds(), "onEvent never saw the tampered event").not.toContain("evt-tampered");
  });

  const badDeliveries: Array<[string, { given: () => { body: string; headers: Record<string, string> }; want: string }]> = [
    [
      "no signature header",
      {
        given: () => {
          const body = eventBody("evt-nosig");
          const { "Service-Signature": _dropped, ...headers } = deliveryHeaders(body, "d");
          return { body, headers };
        },
        want: "missing_header",
      },
    ],
    [
      "signed with another secret",
      { given: () => ({ body: eventBody("evt-x"), headers: deliveryHeaders(eventBody("evt-x"), "d", "whsec_other") }), want: "no_matching_signature" },
    ],
    [
      "a stale signature",
      {
        given: () => {
          const body = eventBody("evt-old");
          const stale = sign(body, SECRET, { timestamp: Math.floor(Date.now() / 1000) - 3600 });
          return { body, headers: { ...deliveryHeaders(body, "d"), "Service-Signature": stale } };
        },
        want: "timestamp_too_old",
      },
    ],
    [
      "Service-Event-Id that differs from the body",
      {
        given: () => {
          const body = eventBody("evt-body-id");
          return { body, headers: { ...deliveryHeaders(body, "d"), "Service-Event-Id": "evt-header-id" } };
        },
        want: "event_id_mismatch",
      },
    ],
    [
      "a signed body that is not JSON",
      { given: () => ({ body: "hello", headers: { "Service-Signature": sign("hello", SECRET) } }), want: "invalid_json" },
    ],
  ];
  it.each(badDeliveries)("answers 400 to %s with {error: %s}", async (_name, { given, want }) => {
    const { body, headers } = given();
    const res = await post(r.server.url, body, headers);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: want });
  });

  it("answers 200 duplicate to a repeated event id and calls onEvent only once", async () => {
    const body = eventBody("evt-dup");
    const handled = r.seen("evt-dup");
    expect((await post(r.server.url, body, deliveryHeaders(body, "dlv_first"))).body).toEqual({ received: true });
    await handled;
    const again = await post(r.server.url, body, deliveryHeaders(body, "dlv_redelivery"));
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ received: true, duplicate: true });
    expect(r.duplicates, "onDuplicate saw the repeat").toContain("evt-dup");
    await deliverBarrier(r, "evt-after-dup");
    expect(r.eventIds().filter((id) => id === "evt-dup"), "onEvent calls for evt-dup").toHaveLength(1);
  });

  it.each(["GET", "PUT", "DELETE"])("answers 405 with Allow: POST to %s", async (method) => {
    const res = await fetch(r.server.url, { method });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
    expect(await res.json()).toEqual({ error: "method_not_allowed" });
  });

  it("answers 413 to a declared Content-Length over 1 MiB without reading the body", async () => {
    const status = await oversizeStatus(r.server.url, { declaredLength: 2 * 1024 * 1024 });
    expect(status).toBe(413);
  });

  it("answers 413 to a chunked body that grows over 1 MiB", async () => {
    const status = await oversizeStatus(r.server.url, { chunkedBytes: 1024 * 1024 + 64 * 1024 });
    expect(status).toBe(413);
  });

  it("still serves after the oversized requests", async () => {
    await deliverBarrier(r, "evt-after-413");
  });
});

describe("createReceiver: onEvent runs after the answer and cannot crash the server", () => {
  const r = new Recorder({ throwFor: new Set(["evt-throws"]) });
  beforeAll(() => r.start());
  afterAll(() => r.server.close());

  it("routes a throwing onEvent to onError and keeps serving", async () => {
    const body = eventBody("evt-throws");
    const failed = r.seen("error:evt-throws");
    expect((await post(r.server.url, body, deliveryHeaders(body, "d1"))).status, "answered before the throw").toBe(200);
    await failed;
    expect(r.errors.map((e) => [e.eventId, (e.error as Error).message])).toEqual([
      ["evt-throws", "handler failed on evt-throws"],
    ]);
    await deliverBarrier(r, "evt-after-throw");
  });

  it("answers 200 while an async onEvent is still pending, and reports its rejection", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const errors: unknown[] = [];
    let rejected!: () => void;
    const reported = new Promise<void>((resolve) => (rejected = resolve));
    const slow = await listen(
      createReceiver({
        secret: SECRET,
        onEvent: async () => {
          await gate;
          throw new Error("async failure");
        },
        onError: (error) => {
          errors.push(error);
          rejected();
        },
      }),
      { port: 0 },
    );
    try {
      const body = eventBody("evt-slow");
      const res = await post(slow.url, body, deliveryHeaders(body, "d"));
      expect(res.status, "the answer does not wait for onEvent").toBe(200);
      release();
      await reported;
      expect((errors[0] as Error).message).toBe("async failure");
    } finally {
      await slow.close();
    }
  });
});

describe("createReceiver options", () => {
  const r = new Recorder({ path: "/hooks", seenIdsLimit: 2 });
  beforeAll(() => r.start());
  afterAll(() => r.server.close());

  it("answers 404 outside its path and serves its path (query string ignored)", async () => {
    const body = eventBody("evt-path");
    expect((await post(`${r.server.url}/elsewhere`, body, deliveryHeaders(body, "d"))).status).toBe(404);
    const handled = r.seen("evt-path");
    expect((await post(`${r.server.url}/hooks?source=test`, body, deliveryHeaders(body, "d"))).status).toBe(200);
    await handled;
  });

  it("remembers only the last seenIdsLimit ids (bounded memory)", async () => {
    const url = `${r.server.url}/hooks`;
    for (const id of ["evt-a", "evt-b", "evt-c"]) {
      const handled = r.seen(id);
      await post(url, eventBody(id), deliveryHeaders(eventBody(id), id));
      await handled;
    }
    // evt-a has been pushed out by evt-b and evt-c, so it is handled again; evt-c is still known.
    const redeliverA = r.seen("evt-a");
    expect((await post(url, eventBody("evt-a"), deliveryHeaders(eventBody("evt-a"), "a2"))).body).toEqual({ received: true });
    await redeliverA;
    expect((await post(url, eventBody("evt-c"), deliveryHeaders(eventBody("evt-c"), "c2"))).body).toEqual({
      received: true,
      duplicate: true,
    });
  });

  // A mistake in the options fails at start-up, not as a 500 to every delivery (which the sender
  // would only report as retries).
  const badOptions: Array<[string, { given: Partial<Record<keyof ReceiverOptions, unknown>>; want: { error: typeof Error; message: RegExp } }]> = [
    ["a path without a leading slash", { given: { path: "hooks" }, want: { error: TypeError, message: /path must start with "\/"/ } }],
    ["a negative seenIdsLimit", { given: { seenIdsLimit: -1 }, want: { error: RangeError, message: /seenIdsLimit/ } }],
    ["a missing onEvent", { given: { onEvent: undefined }, want: { error: TypeError, message: /onEvent/ } }],
    ["an unset secret (a missing environment variable)", { given: { secret: undefined }, want: { error: TypeError, message: /signing secret/ } }],
    ["an empty secret", { given: { secret: "" }, want: { error: TypeError, message: /signing secret/ } }],
    ["an empty list of secrets", { given: { secret: [] }, want: { error: TypeError, message: /signing secret/ } }],
    ["a negative tolerance", { given: { toleranceSeconds: -5 }, want: { error: RangeError, message: /toleranceSeconds/ } }],
    ["a tolerance that is not a number", { given: { toleranceSeconds: Number.NaN }, want: { error: RangeError, message: /toleranceSeconds/ } }],
    ["a body cap of 0", { given: { maxBodyBytes: 0 }, want: { error: RangeError, message: /maxBodyBytes/ } }],
    ["a body cap that is not a number", { given: { maxBodyBytes: Number.NaN }, want: { error: RangeError, message: /maxBodyBytes/ } }],
  ];
  it.each(badOptions)("refuses %s at creation", (_name, { given, want }) => {
    const create = () => createReceiver({ secret: SECRET, onEvent: () => {}, ...given } as ReceiverOptions);
    expect(create).toThrow(want.error);
    expect(create).toThrow(want.message);
  });

  it("reports its own failure (answered 500) as an internal error, not as a failing onEvent", async () => {
    const secrets = [SECRET];
    const lines: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    const broken = await listen(createReceiver({ secret: secrets, onEvent: () => {} }), { port: 0 });
    secrets.push(""); // changed after creation: verify now throws a TypeError, a bug on the caller's side
    process.stderr.write = ((text: string) => (lines.push(String(text)), true)) as typeof process.stderr.write;
    try {
      const body = eventBody("evt-internal");
      expect((await post(broken.url, body, deliveryHeaders(body, "d"))).status).toBe(500);
    } finally {
      process.stderr.write = write;
      await broken.close();
    }
    expect(lines.join(""), "the default onError line").toMatch(/^webhook receiver: internal error \(answered 500\): Webhook signing secret/);
  });
});

describe("hr-mock receive", () => {
  it.each([
    ["an unknown flag", ["--port", "0", "--secret", "whsec_a", "--bogus"], /^Unknown option '--bogus'/],
    ["a missing --port", ["--secret", "whsec_a"], /^--port is required/],
    ["a missing --secret", ["--port", "0"], /^--secret is required/],
    ["a non-numeric port", ["--port", "eighty", "--secret", "whsec_a"], /^--port must be a whole number/],
    ["a secret without whsec_", ["--port", "0", "--secret", "sk_live_123"], /^--secret must be a signing secret/],
    ["a stray second secret", ["--port", "0", "--secret", "whsec_a", "whsec_b"], /^Unexpected argument 'whsec_…'/],
  ])("throws one line for %s, without echoing secrets", async (_name, argv, want) => {
    const error = await receiveCommand(argv).then(
      () => new Error("receiveCommand resolved"),
      (e: Error) => e,
    );
    expect(error.message).toMatch(want);
    expect(error.message, "one line").not.toContain("\n");
    expect(error.message).not.toMatch(/sk_live_123|whsec_b/);
  });

  it("prints help", async () => {
    let out = "";
    await receiveCommand(["--help"], { stdout: { write: (t: string) => (out += t) } });
    expect(out).toMatch(/^Usage: hr-mock receive --port <port> --secret <whsec_\.\.\.>/);
  });

  it("prints one line per verified event and per rejection, never the secret, and stops on abort", async () => {
    const secret = "whsec_cli_secret_value";
    let out = "";
    let listening!: (url: string) => void;
    const started = new Promise<string>((resolve) => (listening = resolve));
    const lines: Array<() => void> = [];
    const stdout = {
      write: (text: string) => {
        out += text;
        const url = /at (http:\/\/\S+)/.exec(text);
        if (url) listening(url[1]);
        lines.forEach((wake) => wake());
      },
    };
    const nextLine = (pattern: RegExp) =>
      new Promise<void>((resolve) => {
        const check = () => pattern.test(out) && resolve();
        lines.push(check);
        check();
      });
    const abort = new AbortController();
    const running = receiveCommand(["--port", "0", "--secret", secret, "--path", "/hooks"], {
      stdout,
      stderr: stdout,
      signal: abort.signal,
    });
    const url = await started;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/hooks$/);

    const body = eventBody("evt-cli");
    const printed = nextLine(/leave\.approved {2}evt-cli {2}delivery=dlv_cli {2}leaveRequestId=/);
    expect((await post(url, body, deliveryHeaders(body, "dlv_cli", secret))).status).toBe(200);
    await printed;
    const rejectedLine = nextLine(/rejected {2}400 no_matching_signature {2}delivery=dlv_bad/);
    expect((await post(url, body, deliveryHeaders(body, "dlv_bad", "whsec_wrong"))).status).toBe(400);
    await rejectedLine;

    abort.abort();
    await running;
    expect(out).toMatch(/Receiver stopped\.\n$/);
    expect(out, "the secret is never printed").not.toContain(secret);
    await expect(fetch(url, { method: "POST" }), "the server is closed").rejects.toThrow();
  });

  it("with --json prints the full event as one JSON line on stdout, status lines on stderr", async () => {
    let out = "";
    let err = "";
    let listening!: (url: string) => void;
    const started = new Promise<string>((resolve) => (listening = resolve));
    let gotLine!: () => void;
    const line = new Promise<void>((resolve) => (gotLine = resolve));
    const abort = new AbortController();
    const running = receiveCommand(["--port", "0", "--secret", SECRET, "--json"], {
      stdout: { write: (t: string) => ((out += t), gotLine()) },
      stderr: {
        write: (t: string) => {
          err += t;
          const url = /at (http:\/\/\S+)\/ /.exec(t);
          if (url) listening(url[1]);
        },
      },
      signal: abort.signal,
    });
    const url = await started;
    const body = eventBody("evt-json");
    await post(url, body, deliveryHeaders(body, "d"));
    await line;
    abort.abort();
    await running;
    expect(out.split("\n").filter(Boolean).map((l) => JSON.parse(l))).toEqual([JSON.parse(body)]);
    expect(err).toMatch(/^Receiving webhooks at /);
  });
});

/**
 * Status of a request whose body is over the cap, read with node:http so the early answer is
 * observed: either only a large Content-Length is declared (the body is never sent), or the body
 * is streamed chunked until the server answers.
 */
function oversizeStatus(url: string, how: { declaredLength?: number; chunkedBytes?: number }): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { "Content-Type": "application/json" };
    if (how.declaredLength !== undefined) headers["Content-Length"] = how.declaredLength;
    const req = request(url, { method: "POST", headers });
    req.on("response", (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
      req.destroy(); // stop sending; the server has already answered
    });
    req.on("error", (error) => reject(error));
    if (how.declaredLength !== undefined) {
      req.flushHeaders();
      return;
    }
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    for (let sent = 0; sent < (how.chunkedBytes ?? 0); sent += chunk.length) req.write(chunk);
  });
}

describe("hr-mock receive's one-line summary of data", () => {
  const leave = { leaveRequestId: "e4782859-2854-4f2d-9471-cd45bfbe17b0", employeeId: "7151c833-4464-4a05-bbfc-333e3c40bb15", leaveTypeId: "4df3e6a4-fc39-4f45-b3ae-515ab91f39ef", leaveType: "Annual Leave", startDate: "2027-03-08T00:00:00", endDate: "2027-03-10T00:00:00", status: "Approved" };
  const cases: Array<[string, { given: { data: unknown; maxLength?: number }; want: string }]> = [
    ["short data in full", { given: { data: { employeeId: "a", status: "Active" } }, want: "employeeId=a, status=Active" }],
    ["objects and lists left out", { given: { data: { id: "a", list: [1], nested: { b: 1 }, n: 3, ok: true, none: null } }, want: "id=a, n=3, ok=true, none=null" }],
    ["not an object", { given: { data: "text" }, want: "" }],
    ["whole fields only, the rest marked", { given: { data: leave, maxLength: 110 }, want: `leaveRequestId=${leave.leaveRequestId}, employeeId=${leave.employeeId}, …` }],
    ["a first field longer than the limit is kept whole", { given: { data: leave, maxLength: 20 }, want: `leaveRequestId=${leave.leaveRequestId}, …` }],
  ];
  it.each(cases)("%s", (_name, { given, want }) => {
    expect(summarizeData(given.data, given.maxLength)).toBe(want);
  });

  it("a leave.approved line keeps every uuid whole at the default length", () => {
    const line = summarizeData(leave);
    for (const id of [leave.leaveRequestId, leave.employeeId, leave.leaveTypeId]) expect(line).toContain(id);
  });
});

describe("createReceiver callback order", () => {
  /** A request whose body the test releases; enough of IncomingMessage for the handler. */
  function fakeRequest(body: string, headers: Record<string, string>) {
    const req = Object.assign(new PassThrough(), {
      method: "POST",
      url: "/hooks",
      headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])),
    });
    return { req, release: () => req.end(body) };
  }
  function fakeResponse() {
    const res = { statusCode: 0, headersSent: false, writableEnded: false, writeHead(status: number) { res.statusCode = status; res.headersSent = true; return res; }, end() { res.writableEnded = true; return res; } };
    return res;
  }

  it("a repeat that arrives with the first delivery is reported after the event is handed on", async () => {
    const order: string[] = [];
    let done!: () => void;
    const both = new Promise<void>((resolve) => (done = resolve));
    const note = (what: string) => (order.push(what), order.length === 2 && done());
    const handler = createReceiver({ secret: SECRET, onEvent: (e) => note(`event ${e.id}`), onDuplicate: (e) => note(`duplicate ${e.id}`) });
    const body = eventBody("evt-order");
    const first = fakeRequest(body, deliveryHeaders(body, "d1"));
    const repeat = fakeRequest(body, deliveryHeaders(body, "d2"));
    const answers = [fakeResponse(), fakeResponse()];
    handler(first.req as never, answers[0] as never);
    handler(repeat.req as never, answers[1] as never);
    first.release();
    repeat.release(); // both bodies complete in the same turn of the event loop
    await both;
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
    expect(order).toEqual(["event evt-order", "duplicate evt-order"]);
  });
});
