// hr-mock proxy's bounds and its fidelity on the wire, against upstreams written here: an answer
// passed back byte for byte (status text, header case and repeats, chunked framing aside), a slow
// upstream timed out with the envelope's 504, an unreachable one a 502, a body over the limit a 413,
// a non-HTTP upstream refused at start, a compressed answer checked after decoding, a large one
// passed on unchecked, and what is kept per run bounded.
import http from "node:http";
import { gzipSync } from "node:zlib";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { MockOptionError, startProxy, type RunningProxy } from "../../mock/index.js";
import { createTally } from "../../mock/edges/proxy/tally.js";
import { closedPort } from "../contract/support.js";
import { rawAnswers, rawExchange } from "../support/raw-http.js";

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanup.splice(0).map((close) => close()));
});

/** An upstream answering every request with `handler`. */
async function upstreamWith(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanup.push(() => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function proxyTo(upstream: string, options: Partial<Parameters<typeof startProxy>[0]> = {}): Promise<RunningProxy & { lines: string[] }> {
  const lines: string[] = [];
  const proxy = await startProxy({ upstream, port: 0, log: (line) => lines.push(line), onError: (line) => lines.push(`ERROR ${line}`), ...options });
  cleanup.push(() => proxy.close());
  return Object.assign(proxy, { lines });
}

/** A chunked body's bytes. */
function dechunked(text: string): string {
  let out = "";
  for (let at = 0; ; ) {
    const lineEnd = text.indexOf("\r\n", at);
    const size = parseInt(text.slice(at, lineEnd), 16);
    if (!size) return out;
    out += text.slice(lineEnd + 2, lineEnd + 2 + size);
    at = lineEnd + 2 + size + 2;
  }
}

const PAGE = JSON.stringify({ isSuccessful: true, code: "00", message: "Success", data: { data: [], pageNumber: 1, pageSize: 25, totalRecords: 0, totalPages: 0 } });

describe("on the wire", () => {
  it("passes the upstream's answer back as it came: status text, header names and repeats, body bytes", async () => {
    const upstream = await upstreamWith((req, res) => {
      res.sendDate = false;
      // Chunked (no Content-Length) and header names in odd case, one header twice.
      res.writeHead(200, "Fine Indeed", ["X-Trace-ID", "t-1", "set-cookie", "a=1", "Set-Cookie", "b=2", "Content-Type", "application/json; charset=utf-8", "Connection", "keep-alive, X-Private", "X-Private", "hop"]);
      res.write(PAGE.slice(0, 10));
      res.end(PAGE.slice(10));
    });
    const proxy = await proxyTo(upstream);
    const text = await rawExchange(proxy.port, "GET /v1/leavetype/list HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer k-1234\r\nConnection: close\r\n\r\n");
    const head = text.slice(0, text.indexOf("\r\n\r\n"));
    expect(head.split("\r\n")[0]).toBe("HTTP/1.1 200 Fine Indeed");
    expect(head).toContain("\r\nX-Trace-ID: t-1\r\nset-cookie: a=1\r\nSet-Cookie: b=2\r\nContent-Type: application/json; charset=utf-8\r\n");
    expect(head, "a header the upstream's Connection named is hop-by-hop").not.toMatch(/X-Private/i);
    expect(head, "no Date the upstream did not send").not.toMatch(/^date:/im);
    expect(head, "framed in chunks, as the upstream sent it without a length").toMatch(/\r\nTransfer-Encoding: chunked/i);
    expect(dechunked(text.slice(text.indexOf("\r\n\r\n") + 4))).toBe(PAGE);
  });

  it("sends the request on as it came: method, path and query, the key, other headers, the body", async () => {
    let seen: { method?: string; url?: string; headers: http.IncomingHttpHeaders; body: string } | undefined;
    const upstream = await upstreamWith((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        seen = { method: req.method, url: req.url, headers: req.headers, body };
        res.writeHead(405, { "content-type": "application/json" }).end(JSON.stringify({ isSuccessful: false, code: "405", message: "no", data: null }));
      });
    });
    const proxy = await proxyTo(`${upstream}/base`);
    await fetch(`${proxy.url}/v1/leavetype/list?PageSize=2&Odd=%2F`, { method: "POST", body: "abc", headers: { authorization: "Bearer k-1234", "x-client": "tests", "proxy-authorization": "Basic nope" } });
    expect(seen).toMatchObject({ method: "POST", url: "/base/v1/leavetype/list?PageSize=2&Odd=%2F", body: "abc" });
    expect(seen!.headers).toMatchObject({ authorization: "Bearer k-1234", "x-client": "tests", host: new URL(upstream).host, "content-length": "3" });
    expect(seen!.headers["proxy-authorization"], "a hop-by-hop header").toBeUndefined();
  });
});

describe("bounds", () => {
  it("answers a slow upstream with the envelope's 504 after the timeout", async () => {
    const upstream = await upstreamWith(() => undefined);
    const proxy = await proxyTo(upstream, { timeoutMs: 300 });
    const started = performance.now();
    const answer = await fetch(`${proxy.url}/v1/leavetype/list`, { headers: { authorization: "Bearer k" } });
    expect(answer.status).toBe(504);
    expect(await answer.json()).toMatchObject({ isSuccessful: false, code: "504", message: expect.stringMatching(/^Gateway timeout: the upstream http:\/\/127\.0\.0\.1:\d+ sent no answer within 0\.3 seconds\.$/), data: null });
    expect(performance.now() - started, "it did not wait for the upstream").toBeLessThan(5000);
    await proxy.idle();
    expect(proxy.report().exchanges.answeredByProxy).toEqual({ "504": 1 });
    expect(proxy.report().violations.total, "the upstream's silence is not a contract violation of the request").toBe(0);
  });

  it("answers an unreachable upstream with the envelope's 502", async () => {
    const proxy = await proxyTo(`http://127.0.0.1:${await closedPort()}`);
    const answer = await fetch(`${proxy.url}/v1/leavetype/list`, { headers: { authorization: "Bearer k" } });
    expect(answer.status).toBe(502);
    expect((await answer.json()).message).toMatch(/^Bad gateway: the upstream .* could not be reached \(ECONNREFUSED\)\.$/);
  });

  it("cuts the client off when the upstream's body stalls after its head", async () => {
    const upstream = await upstreamWith((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
      res.write("{");
    });
    const proxy = await proxyTo(upstream, { timeoutMs: 300 });
    const text = await rawExchange(proxy.port, "GET /v1/leavetype/list HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer k\r\n\r\n", 5000);
    expect(text.startsWith("HTTP/1.1 200"), "the head came through").toBe(true);
    expect(text.endsWith("{"), "then the connection closed, within the wait").toBe(true);
    await proxy.idle();
    const { exchanges } = proxy.report();
    expect(exchanges.byOperation, "the exchange is counted").toEqual({ listLeaveTypes: { "200": 1 } });
    expect(exchanges.notChecked, "and not checked, with the reason").toEqual({ "answers whose body stalled for 0.3 seconds (--timeout) and was cut off": 1 });
  });

  it("counts an answer whose body has not ended when the proxy stops, as not checked", async () => {
    const upstream = await upstreamWith((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write("{");
    });
    const proxy = await proxyTo(upstream);
    const answer = await fetch(`${proxy.url}/v1/leavetype/list`, { headers: { authorization: "Bearer k" } });
    expect(answer.status, "the head came through").toBe(200);
    const read = answer.text().catch((error: Error) => error);
    await proxy.close();
    const { exchanges } = proxy.report();
    expect(exchanges.byOperation).toEqual({ listLeaveTypes: { "200": 1 } });
    expect(exchanges.notChecked).toEqual({ "answers whose body had not ended when the proxy stopped": 1 });
    expect(await read, "the client's body ends with an error, not as if whole").toBeInstanceOf(Error);
  });

  it("counts a request the client gave up on before the upstream answered", async () => {
    let reached!: () => void;
    let dropped!: () => void;
    const arrived = new Promise<void>((resolve) => (reached = resolve));
    const droppedByProxy = new Promise<void>((resolve) => (dropped = resolve));
    const upstream = await upstreamWith((req) => (req.socket.once("close", dropped), reached()));
    const proxy = await proxyTo(upstream);
    const gaveUp = new AbortController();
    const sent = fetch(`${proxy.url}/v1/leavetype/list`, { headers: { authorization: "Bearer k" }, signal: gaveUp.signal }).catch((error: Error) => error);
    await arrived;
    gaveUp.abort();
    expect(await sent).toBeInstanceOf(Error);
    // The proxy dropped its request to the upstream once the client left; the exchange is handed over by then.
    await droppedByProxy;
    await proxy.idle();
    expect(proxy.report().exchanges.notChecked).toEqual({ "requests the client gave up on before the upstream answered": 1 });
  });

  it("counts a body the upstream cuts off before its end", async () => {
    const upstream = await upstreamWith((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
      res.write("{", () => res.socket?.destroy());
    });
    const proxy = await proxyTo(upstream);
    await rawExchange(proxy.port, "GET /v1/leavetype/list HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer k\r\n\r\n", 5000);
    await proxy.idle();
    expect(proxy.report().exchanges.notChecked).toEqual({ "answers whose body the upstream cut off before its end": 1 });
  });

  it.each(["ftp://example.com/", "file:///etc/passwd", "http://user:pw@example.com/", "http://example.com/?x=1", "not a url"])("refuses to start with the upstream %s", async (upstream) => {
    await expect(startProxy({ upstream, port: 0 })).rejects.toBeInstanceOf(MockOptionError);
  });

  it("refuses a request body over the limit with a 413 and sends nothing on", async () => {
    let reached = 0;
    const upstream = await upstreamWith((_req, res) => void (reached++, res.end()));
    const proxy = await proxyTo(upstream, { maxBodyBytes: 10 });
    const answer = await fetch(`${proxy.url}/v1/leavetype/list`, { method: "POST", body: "x".repeat(11) });
    expect(answer.status).toBe(413);
    expect((await answer.json()).message).toMatch(/^Payload too large: .* at most 10 bytes/);
    expect(reached).toBe(0);
  });

  it("checks a compressed answer after decoding it, and passes the bytes on compressed", async () => {
    const broken = Buffer.from(JSON.stringify({ ...JSON.parse(PAGE), isSuccessful: "yes" }));
    const upstream = await upstreamWith((_req, res) => res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" }).end(gzipSync(broken)));
    const proxy = await proxyTo(upstream);
    const [answer] = rawAnswers(await rawExchange(proxy.port, "GET /v1/leavetype/list HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer k\r\nConnection: close\r\n\r\n"));
    expect(answer.headers["content-encoding"]).toBe("gzip");
    await proxy.idle();
    expect(proxy.report().violations.listed.map((v) => `${v.rule} ${v.pointer}`)).toEqual(["envelope "]);
  });

  it("passes an answer over the check bound on whole, unchecked", async () => {
    const upstream = await upstreamWith((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end(PAGE));
    const proxy = await proxyTo(upstream, { maxCheckBytes: 20 });
    const answer = await fetch(`${proxy.url}/v1/leavetype/list`, { headers: { authorization: "Bearer k" } });
    expect(await answer.text()).toBe(PAGE);
    await proxy.idle();
    expect(proxy.report().exchanges.notChecked).toEqual({ "answers over 20 bytes, passed on unchecked": 1 });
  });

  it("lists at most maxListed distinct violations and counts the rest", () => {
    const tally = createTally({ upstream: "u", maxListed: 10, now: () => new Date(0) });
    for (let i = 0; i < 2000; i++) tally.violation({ operation: "op", side: "answer", rule: "r", pointer: `/${i}`, message: "m" }, { method: "GET", target: "/" });
    const { violations } = tally.report();
    expect(violations).toMatchObject({ total: 2000, distinct: 2000, notListed: 1990 });
    expect(violations.listed).toHaveLength(10);
  });
});
