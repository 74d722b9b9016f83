// The proxy, programmatically: `startProxy({ upstream, port: 0 })` puts the proxy's node:http edge
// (edges/proxy/) in front of a deployment, holds every exchange to the contract (requests by the
// mock's own Prism pipeline, answers by the contract suite's checks), and serves until `close()`.
// `hr-mock proxy` is this plus report files. Its own paths: GET /_proxy/report answers the report,
// POST /_proxy/report also runs onReportRequest (the CLI writes its files then).
import type { IncomingMessage, ServerResponse } from "node:http";
import { BUNDLED_OPENAPI } from "../../src/contract/bundled.js";
import { loadContractSpec } from "../../src/contract/openapi.js";
import { createTrafficChecker } from "../../src/contract/traffic.js";
import { currentUtcDate } from "../data/dates.js";
import { defaultConnectionLimits } from "../edges/node/connections.js";
import { upstreamOf } from "../edges/proxy/forward.js";
import { createObserver, type SeenExchange } from "../edges/proxy/observer.js";
import { createRecorder } from "../edges/proxy/record/recorder.js";
import { finishRecording, type Recording } from "../edges/proxy/record/verify.js";
import { createProxyServer, send } from "../edges/proxy/server.js";
import type { ProxyReport } from "../edges/proxy/tally.js";
import { failure, successBody } from "../kernel/envelope.js";
import { MockOptionError } from "../kernel/option-error.js";
import { loadReadSpec } from "../kernel/spec.js";
import { errorText, oneLine } from "../kernel/text.js";
import { createRequestChecker } from "../pipeline/request-check.js";
import { PROXY_DEFAULTS, PROXY_PREFIX, upstreamProblem, type StartProxyOptions } from "./proxy-options.js";
import { splitTarget } from "../../src/query.js";

export type { StartProxyOptions } from "./proxy-options.js";
export type { ProxyReport, ViolationEntry } from "../edges/proxy/tally.js";
export type { Recording } from "../edges/proxy/record/verify.js";

export interface RunningProxy {
  /** The proxy's base URL, e.g. http://127.0.0.1:4020: give it to the client in place of the upstream's. */
  url: string;
  port: number;
  upstream: string;
  /** The report of what was seen so far (exchanges already handed over are counted once checked: see idle()). */
  report(): ProxyReport;
  /** With `record`: the records seen so far as a data file dated `today` (default the UTC date), with notes and disagreements. */
  recording(today?: string): Recording | undefined;
  /** Resolves when every exchange answered so far has been checked. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export async function startProxy(options: StartProxyOptions): Promise<RunningProxy> {
  const problem = upstreamProblem(options.upstream);
  if (problem) throw new MockOptionError(`upstream ${problem}`);
  const upstreamUrl = new URL(options.upstream);
  const shownUpstream = `${upstreamUrl.origin}${upstreamUrl.pathname.replace(/\/+$/, "")}`;
  const now = options.now ?? (() => new Date());
  const stderr = (line: string) => void process.stderr.write(`${line}\n`);
  const onError = options.onError ?? stderr;

  const contract = loadContractSpec(BUNDLED_OPENAPI);
  const checkRequest = createRequestChecker(await loadReadSpec(contract.doc));
  const recorder = options.record ? createRecorder(contract.leaveRequestListFields) : undefined;
  const observer = createObserver({
    checkRequest,
    traffic: createTrafficChecker(contract, { rememberItems: options.rememberItems }),
    upstream: shownUpstream,
    log: options.log ?? stderr,
    recording: recorder,
    now,
  });
  const pending = new Set<Promise<void>>();
  const observe = (seen: SeenExchange) => {
    const done = observer.observe(seen).catch((error: unknown) => onError(`hr-mock proxy: internal error while checking ${seen.method} ${splitTarget(seen.url).path.slice(0, 200)}: ${oneLine(errorText(error))}`));
    pending.add(done);
    void done.finally(() => pending.delete(done));
  };
  const idle = async () => {
    while (pending.size > 0) await Promise.all([...pending]);
  };
  const recording = (today = currentUtcDate()) => (recorder ? finishRecording(recorder.recorded, today) : undefined);

  const server = createProxyServer({
    upstream: upstreamOf(upstreamUrl, options.maxUpstreamConnections ?? PROXY_DEFAULTS.maxUpstreamConnections),
    timeoutMs: options.timeoutMs ?? PROXY_DEFAULTS.timeoutMs,
    maxRequestBodyBytes: options.maxBodyBytes ?? PROXY_DEFAULTS.maxBodyBytes,
    maxCheckedBytes: options.maxCheckBytes ?? PROXY_DEFAULTS.maxCheckBytes,
    connectionLimits: { ...defaultConnectionLimits(0), ...options.connectionLimits },
    controlPrefix: PROXY_PREFIX,
    control: (req, res, url) => void control(req, res, url).catch((error: unknown) => send(res, failure(500, `Internal error: ${oneLine(errorText(error), 200)}`))),
    onExchange: observe,
    onError,
  });

  async function control(req: IncomingMessage, res: ServerResponse, url: string): Promise<void> {
    const { path } = splitTarget(url);
    if (path !== `${PROXY_PREFIX}report`) return send(res, failure(404, `Not found: the proxy's own path is ${PROXY_PREFIX}report (GET answers the report, POST also writes its files); every other path is passed on.`));
    if (req.method === "POST") {
      await idle();
      await options.onReportRequest?.();
    } else if (req.method !== "GET" && req.method !== "HEAD") {
      return send(res, failure(405, `Method not allowed: ${PROXY_PREFIX}report answers GET and POST.`, { Allow: "GET, HEAD, POST" }));
    } else await idle();
    send(res, { status: 200, body: successBody(observer.report()), headers: { "Cache-Control": "no-store" } });
  }

  const { port, url } = await server.listen(options.port ?? PROXY_DEFAULTS.port, options.host ?? PROXY_DEFAULTS.host);
  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    upstream: shownUpstream,
    report: () => observer.report(),
    recording,
    idle,
    close: () => (closing ??= server.close().then(idle)),
  };
}
