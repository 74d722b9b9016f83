// Stress scenario "connections" (issue 14, item 1): the mock under a 1,024 open-files limit while
// 1,100 connections sit idle (never sending a request), and a working client beside them: each of
// its requests on a new connection, then on one kept-alive connection. Reports the idle connections
// the mock closed to make room and the working client's failures and latency.
import { connect, type Socket } from "node:net";
import { request as httpRequest, Agent } from "node:http";
import { openFilesLimit } from "../../mock/edges/node/connections.js";
import { startMockServer, type Probe } from "../bench/servers.js";

export interface ConnectionsResult {
  idleOpened: number;
  idleClosedByMock: number;
  fresh: Latencies;
  keptAlive: Latencies;
}

export interface Latencies {
  requests: number;
  failures: number;
  p50Ms: number;
  p99Ms: number;
}

const IDLE = 1100;
const FILE_LIMIT = 1024;

export async function connectionsScenario(root: string, probe: Probe, requests: number): Promise<ConnectionsResult | string> {
  if (openFilesLimit() < IDLE + 200) return `skipped: this shell's open-files limit (${openFilesLimit()}) is below ${IDLE + 200}; raise it with ulimit -n`;
  const server = await startMockServer(root, probe, [], FILE_LIMIT);
  const { hostname, port } = new URL(server.url);
  const idle: Socket[] = [];
  try {
    for (let i = 0; i < IDLE; i++) idle.push(await openIdle(hostname, Number(port)));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const fresh = await measure(requests, () => get(server.url + probe.path, probe.headers, undefined));
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const keptAlive = await measure(requests, () => get(server.url + probe.path, probe.headers, agent));
    agent.destroy();
    return { idleOpened: idle.length, idleClosedByMock: idle.filter((s) => s.destroyed || s.readableEnded).length, fresh, keptAlive };
  } finally {
    for (const socket of idle) socket.destroy();
    await server.stop();
  }
}

function openIdle(host: string, port: number): Promise<Socket> {
  return new Promise((resolve) => {
    const socket = connect(port, host, () => resolve(socket));
    socket.on("error", () => resolve(socket)); // a refused one counts as closed by the mock
    socket.on("end", () => socket.destroy());
  });
}

async function measure(count: number, one: () => Promise<number>): Promise<Latencies> {
  const times: number[] = [];
  let failures = 0;
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const status = await one().catch(() => 0);
    times.push(performance.now() - started);
    if (status !== 200) failures += 1;
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  return { requests: count, failures, p50Ms: at(0.5), p99Ms: at(0.99) };
}

function get(url: string, headers: Record<string, string>, agent: Agent | undefined): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers: agent ? headers : { ...headers, connection: "close" }, agent: agent ?? false, timeout: 10_000 }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", reject);
    req.end();
  });
}
