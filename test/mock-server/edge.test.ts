// The node:http edge under requests a browser would never send and clients that hold connections:
// every answer is the envelope with a cause (or the connection closes), framing that could smuggle
// a request closes the connection, and idle or unread connections cannot lock a working client out.
import type { ServerResponse } from "node:http";
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from "vitest";
import { DEMO_KEY, startMock, type RunningMock } from "../../mock/index.js";

let mock: RunningMock;
beforeAll(async () => {
  // Short enough for the 408 case to be quick, long enough that a busy machine's pause never cuts a whole request.
  mock = await startMock({ port: 0, rateLimit: "off", connectionLimits: { headersTimeoutMs: 1000, requestTimeoutMs: 1000 } });
});
afterAll(() => mock?.close());

const KEY = `Authorization: Bearer ${DEMO_KEY.org1Full}\r\n`;

/** Writes `raw` on a new connection and collects everything until the server closes it (or, as a last resort, `waitMs`). */
function exchange(raw: string, waitMs = 30_000): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = connect(mock.port, "127.0.0.1");
    let text = "";
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ text, closed: false });
    }, waitMs);
    socket.on("data", (chunk) => (text += chunk.toString("latin1")));
    socket.on("error", reject);
    socket.on("close", () => {
      clearTimeout(timer);
      resolve({ text, closed: true });
    });
    socket.write(raw);
  });
}

/** The answers in `text`: status and the envelope's message, in order. */
function answers(text: string): { status: number; message: string | undefined }[] {
  const found: { status: number; message: string | undefined }[] = [];
  const pattern = /HTTP\/1\.1 (\d{3})[^\r]*\r\n((?:[^\r]+\r\n)*)\r\n/g;
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(text))) {
    const length = Number(/content-length: (\d+)/i.exec(match[2])?.[1] ?? 0);
    const body = text.slice(pattern.lastIndex, pattern.lastIndex + length);
    pattern.lastIndex += length;
    let message: string | undefined;
    try {
      message = JSON.parse(body).message;
    } catch {
      message = undefined;
    }
    found.push({ status: Number(match[1]), message });
  }
  return found;
}

describe("every answer is the envelope with a cause", () => {
  const cases: Array<[string, { given: string; want: { status: number; message: RegExp; closes: boolean } }]> = [
    ["HTTP/1.1 without Host", { given: `GET /v1/leavetype/list HTTP/1.1\r\n${KEY}\r\n`, want: { status: 400, message: /^Bad request: an HTTP\/1\.1 request must carry a Host header/, closes: true } }],
    ["an Expect other than 100-continue", { given: `GET /v1/leavetype/list HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\n${KEY}\r\n`, want: { status: 417, message: /^Expectation failed: .*got "teapot"/, closes: true } }],
    ["CONNECT", { given: "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n", want: { status: 405, message: /^Method not allowed: CONNECT asks for a tunnel/, closes: true } }],
    ["a request that never finishes its headers (408, not 400)", { given: "GET /v1/leavetype/list HTTP/1.1\r\nHost: x\r\n", want: { status: 408, message: /^Request timeout: /, closes: true } }],
    ["an HTTP/1.0 request without Host is fine", { given: `GET /v1/leavetype/list HTTP/1.0\r\n${KEY}\r\n`, want: { status: 200, message: /^Success$/, closes: true } }],
  ];
  test.each(cases)("%s", async (_name, { given, want }) => {
    const { text, closed } = await exchange(given);
    const [first] = answers(text);
    expect(first, `an answer to ${JSON.stringify(given.slice(0, 40))}, got ${JSON.stringify(text.slice(0, 200))}`).toBeDefined();
    expect(first.status).toBe(want.status);
    expect(first.message).toMatch(want.message);
    expect(closed, "the connection is closed").toBe(want.closes);
  });
});

describe("framing that could smuggle a request closes the connection", () => {
  const next = `GET /v1/department/list HTTP/1.1\r\nHost: x\r\n${KEY}\r\n`;
  const cases: Array<[string, { given: string }]> = [
    ["Transfer-Encoding other than chunked, with a request behind it", { given: `GET /v1/leavetype/list HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n${KEY}\r\n${next}` }],
    ["Content-Length and Transfer-Encoding together", { given: `POST /_mock/webhooks/events HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n${KEY}\r\n0\r\n\r\n${next}` }],
    ["Transfer-Encoding: chunked, gzip (chunked not last)", { given: `POST /_mock/webhooks/events HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, gzip\r\n${KEY}\r\n0\r\n\r\n${next}` }],
  ];
  test.each(cases)("%s: one 400 envelope, nothing behind it answered", async (_name, { given }) => {
    const { text, closed } = await exchange(given);
    const seen = answers(text);
    expect(seen.map((a) => a.status), `answers to ${JSON.stringify(given.slice(0, 60))}`).toEqual([400]);
    expect(seen[0].message).toMatch(/^Bad request: /);
    expect(closed, "the connection is closed").toBe(true);
  });
});

describe("connections are bounded", () => {
  let small: RunningMock;
  beforeAll(async () => {
    small = await startMock({ port: 0, rateLimit: "off", connectionLimits: { maxConnections: 20, maxUnreadAnswers: 4 } });
  });
  afterAll(() => small?.close());

  const open = (): Promise<Socket> =>
    new Promise((resolve, reject) => {
      const socket = connect(small.port, "127.0.0.1", () => resolve(socket));
      socket.on("error", reject);
    });

  test("past the cap, idle connections make room: a working client is still served", async () => {
    const idle = await Promise.all(Array.from({ length: 40 }, open));
    const response = await fetch(`${small.url}/v1/leavetype/list`, { headers: { authorization: `Bearer ${DEMO_KEY.org1Full}` } });
    expect(response.status).toBe(200);
    expect(idle.filter((s) => s.destroyed || s.readableEnded).length, "idle connections were closed to make room").toBeGreaterThanOrEqual(20);
    for (const socket of idle) socket.destroy();
  });

  test("when every connection is busy, one more is refused with a 503 envelope", async () => {
    // Its own mock: connections left by the other tests would be idle ones to close instead.
    const fresh = await startMock({ port: 0, rateLimit: "off", connectionLimits: { maxConnections: 20 } });
    onTestFinished(() => fresh.close());
    // Twenty requests the mock holds unanswered until the 21st connection has had its answer: busy
    // connections for as long as the test needs them, on a quiet machine as on a loaded one.
    const held: ServerResponse[] = [];
    let allHeld!: () => void;
    const twentyHeld = new Promise<void>((resolve) => (allHeld = resolve));
    fresh.mount("/_held/", (_req, res) => {
      held.push(res);
      if (held.length === 20) allHeld();
    });
    const busy = Array.from({ length: 20 }, () => fetch(`${fresh.url}/_held/`));
    await twentyHeld;
    const { text } = await new Promise<{ text: string }>((resolve) => {
      const socket = connect(fresh.port, "127.0.0.1");
      let text = "";
      socket.on("data", (c) => (text += c));
      socket.on("close", () => resolve({ text }));
      socket.on("error", () => resolve({ text }));
    });
    expect(answers(text)[0]).toMatchObject({ status: 503, message: expect.stringMatching(/^Service unavailable: the mock has 20 connections open/) });
    for (const res of held) res.writeHead(200, { "Content-Type": "text/plain" }).end("done");
    expect((await Promise.all(busy)).map((r) => r.status), "the busy connections' own answers").toEqual(Array(20).fill(200));
  });

  test("a client that pipelines requests and never reads its answers is cut off", async () => {
    // Node stops reading a connection whose answers pile up; past the kernel's buffers the answers
    // wait unread, and the connection closes (maxUnreadAnswers, or stalledMs without progress).
    const fresh = await startMock({ port: 0, rateLimit: "off", connectionLimits: { maxUnreadAnswers: 4, stalledMs: 1000 } });
    onTestFinished(() => fresh.close());
    const socket = await new Promise<Socket>((resolve, reject) => {
      const s = connect(fresh.port, "127.0.0.1", () => resolve(s));
      s.on("error", () => {});
      s.once("error", reject);
    });
    const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
    socket.pause(); // never reads
    socket.write(`GET /v1/leavetype/list HTTP/1.1\r\nHost: x\r\n${KEY}\r\n`.repeat(3000));
    await closed;
    expect(socket.destroyed, "the mock closed the connection").toBe(true);
  });
});
