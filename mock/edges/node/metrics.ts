// GET /_mock/metrics in Prometheus' text exposition format, through prom-client. This module is
// reached only through the import() of the first scrape (http.ts's MetricsEndpoint.render, wired in
// app/start-mock.ts): a mock nobody scrapes never loads the client. What it shows is a view at the
// edge: the counts the edge keeps anyway (metric-counts.ts) and gauges read at the scrape; nothing is
// counted through prom-client on the request path. The values are this process's (one replica's):
// Prometheus scrapes every replica and sums them (sum by (operation) (rate(...))).
import client from "prom-client";
import type { Registry } from "prom-client";
import { ANSWER_TIME_BUCKETS, type MetricCounts } from "./metric-counts.js";
import type { StoreMetrics } from "../../state/backend.js";
import type { Worlds } from "../../worlds/world.js";

export interface MetricSources {
  counts: MetricCounts;
  /** What this process holds now (with --state redis://, the journals are in Redis and the deliveries counted are its attempts in flight). */
  held(): ReturnType<Worlds["held"]>;
  /** Undefined when the state is in this process (no store to report on). */
  store(): StoreMetrics | undefined;
}

type Value = { labels: Record<string, string | number>; value: number; metricName?: string };
type Family = { name: string; help: string; type: "counter" | "gauge" | "histogram"; aggregator: "sum"; values: Value[] };

const PREFIX = "hr_mock_";

/** The process's own metrics (CPU, memory, event loop, garbage collection), set up by the first scrape, once per process. */
let processMetrics: Registry | undefined;

/**
 * prom-client's gauges named like counters, which `promtool check metrics` rejects ("non-counter
 * metrics should not have _total suffix"): left out.
 */
const MISNAMED_PROCESS_METRICS = ["nodejs_active_handles_total", "nodejs_active_requests_total", "nodejs_active_resources_total"];

export async function renderMetrics(sources: MetricSources): Promise<{ contentType: string; body: string }> {
  if (!processMetrics) {
    processMetrics = new client.Registry();
    client.collectDefaultMetrics({ register: processMetrics });
    for (const name of MISNAMED_PROCESS_METRICS) processMetrics.removeSingleMetric(name);
  }
  // aggregate() is prom-client's way in for values counted elsewhere (its cluster workers' JSON): one source, so each value is itself.
  const own = client.AggregatorRegistry.aggregate<typeof client.prometheusContentType>([families(sources)]);
  const registry = client.Registry.merge([processMetrics, own]);
  return { contentType: registry.contentType, body: await registry.metrics() };
}

/** The mock's own metric families, as prom-client's JSON form of a registry. */
export function families(sources: MetricSources): Family[] {
  const { counts } = sources;
  const held = sources.held();
  const requests: Value[] = [];
  const durations: Value[] = [];
  for (const [operation, of] of counts.byOperation) {
    for (const [status, value] of of.statuses) requests.push({ labels: { operation, status }, value });
    let cumulative = 0;
    ANSWER_TIME_BUCKETS.forEach((le, i) => {
      cumulative += of.buckets[i];
      durations.push({ metricName: `${PREFIX}request_duration_seconds_bucket`, labels: { operation, le }, value: cumulative });
    });
    durations.push({ metricName: `${PREFIX}request_duration_seconds_bucket`, labels: { operation, le: "+Inf" }, value: of.count });
    durations.push({ metricName: `${PREFIX}request_duration_seconds_sum`, labels: { operation }, value: of.sum });
    durations.push({ metricName: `${PREFIX}request_duration_seconds_count`, labels: { operation }, value: of.count });
  }
  const family = (type: Family["type"], name: string, help: string, values: Value[]): Family => ({ name: PREFIX + name, help, type, aggregator: "sum", values });
  const gauge = (name: string, help: string, value: number) => family("gauge", name, help, [{ labels: {}, value }]);
  const list: Family[] = [
    family("counter", "requests_total", "Requests answered, by operationId (unmatched: no operation) and the status the mock answered.", requests),
    family("histogram", "request_duration_seconds", "Time from a request's arrival to its answer, by operationId.", durations),
    gauge("sandboxes", "Sandboxes this replica holds.", held.sandboxes),
    gauge("journal_entries", "Journal entries held in this process's memory (the journals are in Redis with --state redis://).", held.journalEntries),
    gauge("journal_bytes", "What the journal entries held in memory weigh, estimated.", held.journalBytes),
    family("counter", "webhook_attempts_total", "Webhook delivery attempts this replica made, by the state they left their delivery in.", [...counts.attempts].map(([state, value]) => ({ labels: { state }, value }))),
    gauge("webhook_deliveries_waiting", "Webhook deliveries not finished here: held, queued, sending or waiting for a retry.", held.deliveriesWaiting),
  ];
  const store = sources.store();
  if (store) {
    list.push(gauge("store_up", "1 while the state store (--state redis://) answers, 0 while it cannot be reached.", store.up ? 1 : 0));
    list.push(family("counter", "store_round_trips_total", "Round trips this replica made to the state store, by script (read: plain reads).", [...store.roundTrips].map(([call, value]) => ({ labels: { call }, value }))));
  }
  return list;
}
