// createReceiver (node): the signed delivery over HTTP, its answers and limits, its options, and the
// order of its callbacks; the helpers are in receiver-support.ts.
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReceiver, listen, sign, type ReceiverOptions } from "../../src/webhooks/node/index.js";
import { deliverBarrier, deliveryHeaders, eventBody, oversizeStatus, post, Recorder, SECRET } from "./receiver-support.js";

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
