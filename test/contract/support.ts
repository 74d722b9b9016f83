// Helpers of the contract-suite tests: recorded answers as Exchanges, changed copies of them, and a
// proxy that breaks the contract in one way in front of the mock.
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import type { Exchange } from "../../src/contract/exchange.js";
import recordedJson from "./fixtures/recorded.json" with { type: "json" };

export interface Recorded {
  target: string;
  status: number;
  headers: Record<string, string>;
  body: any;
}

export const recorded = recordedJson as unknown as Record<Exclude<keyof typeof recordedJson, "_about">, Recorded>;

/** A deep copy of a recorded answer's body, changed by `change` (which may return a new body). */
export function bodyOf(name: keyof typeof recorded, change?: (body: any) => any): any {
  const body = structuredClone(recorded[name].body);
  if (!change) return body;
  const changed = change(body);
  return changed === undefined ? body : changed;
}

/** An Exchange as the http client would record it, from a recorded answer with optional changes. */
export function exchangeOf(name: keyof typeof recorded, overrides: Partial<Exchange> & { change?: (body: any) => any } = {}): Exchange {
  const r = recorded[name];
  const { change, ...rest } = overrides;
  const body = bodyOf(name, change);
  const [path, search = ""] = r.target.split("?");
  return {
    target: r.target,
    path,
    query: [...new URLSearchParams(search)],
    auth: "key",
    status: r.status,
    headers: { ...r.headers },
    body,
    bodyText: JSON.stringify(body),
    at: 0,
    ...rest,
  };
}

export type Breaker = {
  /** Change the request's path and query before it goes to the mock. */
  request?: (url: URL) => URL;
  /** Change the parsed JSON answer of a request; return the new body. */
  response?: (url: URL, body: any) => any;
};

/** A proxy on 127.0.0.1 in front of `target` that breaks the contract as `breaker` says. */
export async function startBreakingProxy(target: string, breaker: Breaker): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(async (req, res) => {
    try {
      let url = new URL(req.url ?? "/", target);
      if (breaker.request) url = breaker.request(url);
      const headers: Record<string, string> = {};
      if (req.headers.authorization) headers.authorization = req.headers.authorization;
      const upstream = await fetch(url, { headers });
      let text = await upstream.text();
      if (breaker.response) {
        try {
          text = JSON.stringify(breaker.response(url, JSON.parse(text)));
        } catch {
          // Not JSON: pass it through unchanged.
        }
      }
      const out: Record<string, string> = { "content-type": upstream.headers.get("content-type") ?? "application/json" };
      for (const name of ["retry-after", "ratelimit-limit", "ratelimit-remaining"]) {
        const value = upstream.headers.get(name);
        if (value !== null) out[name] = value;
      }
      res.writeHead(upstream.status, out).end(text);
    } catch (error) {
      res.writeHead(502, { "content-type": "text/plain" }).end(`proxy error: ${(error as Error).message}`);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}

/** A port nothing listens on: one just released by a server on port 0. */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
