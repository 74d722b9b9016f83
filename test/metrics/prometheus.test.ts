// The real thing: Debian's Prometheus, configured by the guide's example (examples/prometheus/
// prometheus.yml) with this test's mock as its target and a scrape every second, scrapes GET
// /_mock/metrics, and its query API returns hr_mock_requests_total for the requests sent;
// `promtool check metrics` finds nothing to complain about in the scrape. One Prometheus, its own
// storage in a temporary folder, on a free loopback port, stopped at the end. (.ci/run installs
// Debian's prometheus, promtool with it.)
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { DEMO_KEY, startMock, type RunningMock } from "../../mock/index.js";
import { freePort } from "../../scripts/lib/free-port.js";
import { repoRoot } from "../../scripts/lib/spec-document.js";
import { parse, stringify } from "yaml";

/** What Prometheus gets at most to start, scrape and answer, on a machine with every core busy. */
const WAIT_MS = 60_000;

let mock: RunningMock;
let prometheus: ChildProcess | undefined;
let prometheusUrl: string;
let dir: string;
let prometheusOutput = "";

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "hr-mock-prometheus-"));
  mock = await startMock({ port: 0, scale: 0.1 });
  const port = await freePort();
  prometheusUrl = `http://127.0.0.1:${port}`;
  const config = parse(fs.readFileSync(path.join(repoRoot, "examples", "prometheus", "prometheus.yml"), "utf8"));
  config.global.scrape_interval = "1s";
  config.scrape_configs[0].static_configs = [{ targets: [`127.0.0.1:${mock.port}`] }];
  fs.writeFileSync(path.join(dir, "prometheus.yml"), stringify(config));
  prometheus = spawn("prometheus", [`--config.file=${path.join(dir, "prometheus.yml")}`, `--storage.tsdb.path=${path.join(dir, "data")}`, `--web.listen-address=127.0.0.1:${port}`, "--log.level=warn"], { stdio: ["ignore", "pipe", "pipe"] });
  prometheus.stdout!.on("data", (chunk: Buffer) => (prometheusOutput += chunk));
  prometheus.stderr!.on("data", (chunk: Buffer) => (prometheusOutput += chunk));
  prometheus.on("error", (error) => (prometheusOutput += `could not start prometheus (apt-get install prometheus): ${error.message}`));
});

afterAll(async () => {
  if (prometheus && prometheus.exitCode === null && prometheus.signalCode === null) {
    const exited = new Promise((resolve) => prometheus!.once("exit", resolve));
    prometheus.kill("SIGTERM");
    await exited;
  }
  await mock?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The query's series once Prometheus returns any; fails naming what it last answered. */
async function seriesOf(query: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]> {
  const deadline = Date.now() + WAIT_MS;
  let last = "nothing yet";
  while (Date.now() < deadline) {
    if (prometheus?.exitCode !== null) throw new Error(`prometheus exited (${prometheus?.exitCode}): ${prometheusOutput}`);
    try {
      const answer = await fetch(`${prometheusUrl}/api/v1/query?query=${encodeURIComponent(query)}`);
      last = await answer.text();
      const result = (JSON.parse(last) as { data?: { result?: { metric: Record<string, string>; value: [number, string] }[] } }).data?.result ?? [];
      if (result.length > 0) return result;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`Prometheus returned no series for ${query} within ${WAIT_MS} ms; its last answer: ${last}; its output: ${prometheusOutput}`);
}

it("scrapes the mock, and its query API returns the requests by operation and status", async () => {
  for (let i = 0; i < 3; i++) await fetch(`${mock.url}/v1/leaverequest/list?PageSize=1`, { headers: { Authorization: `Bearer ${DEMO_KEY.org1Full}` } }).then((r) => r.arrayBuffer());
  const found = await seriesOf('hr_mock_requests_total{operation="listLeaveRequests",status="200"} >= 3');
  expect(found.map((s) => ({ job: s.metric.job, operation: s.metric.operation, status: s.metric.status, value: Number(s.value[1]) }))).toEqual([{ job: "hr-mock", operation: "listLeaveRequests", status: "200", value: 3 }]);
  const up = await seriesOf('up{job="hr-mock"}');
  expect(up.map((s) => s.value[1]), "the target's health as Prometheus sees it").toEqual(["1"]);
});

it("promtool check metrics finds nothing to complain about in the scrape", async () => {
  const scrape = await (await fetch(`${mock.url}/_mock/metrics`)).text();
  const promtool = spawn("promtool", ["check", "metrics"], { stdio: ["pipe", "pipe", "pipe"] });
  let said = "";
  promtool.stdout.on("data", (chunk: Buffer) => (said += chunk));
  promtool.stderr.on("data", (chunk: Buffer) => (said += chunk));
  const code = await new Promise<number | null>((resolve, reject) => {
    promtool.once("error", reject);
    promtool.once("close", resolve);
    promtool.stdin.end(scrape);
  });
  expect({ code, said }, "promtool check metrics < the scrape").toEqual({ code: 0, said: "" });
});
