// The counts behind GET /_mock/metrics, kept by the node:http edge as it answers: requests by
// operation and status, and the answer time by operation in fixed buckets; webhook attempts by the
// state they left their delivery in. Plain numbers in maps, counted whether or not anything ever
// scrapes them (a few map look-ups per request); the Prometheus client that turns them into text
// (metrics.ts) is loaded only by the first scrape. Labels are operationIds, statuses and delivery
// states: bounded sets, never keys or URLs.

/** Upper bounds of the answer-time buckets, in seconds (the mock answers in about a millisecond; --latency and scripted delays reach seconds). */
export const ANSWER_TIME_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

/** The operation label of a request no operation of either document matched (an unknown path, a malformed request). */
export const UNMATCHED = "unmatched";

export interface OperationCounts {
  /** Requests by the status the mock answered. */
  readonly statuses: Map<number, number>;
  /** Requests per answer-time bucket, not cumulative; the last is above every bound. */
  readonly buckets: number[];
  /** Seconds of every answer, added. */
  sum: number;
  count: number;
}

export class MetricCounts {
  readonly byOperation = new Map<string, OperationCounts>();
  /** Webhook attempts by the state they left their delivery in. */
  readonly attempts = new Map<string, number>();

  /** One answer: its operation (UNMATCHED for none), its status and how long it took. */
  request(operation: string, status: number, seconds: number): void {
    let counts = this.byOperation.get(operation);
    if (counts === undefined) {
      counts = { statuses: new Map(), buckets: new Array<number>(ANSWER_TIME_BUCKETS.length + 1).fill(0), sum: 0, count: 0 };
      this.byOperation.set(operation, counts);
    }
    counts.statuses.set(status, (counts.statuses.get(status) ?? 0) + 1);
    let bucket = 0;
    while (bucket < ANSWER_TIME_BUCKETS.length && seconds > ANSWER_TIME_BUCKETS[bucket]) bucket++;
    counts.buckets[bucket]++;
    counts.sum += seconds;
    counts.count++;
  }

  /** One webhook attempt, by the state its delivery is in after it (succeeded, retry-scheduled, failed, cancelled). */
  attempt(state: string): void {
    this.attempts.set(state, (this.attempts.get(state) ?? 0) + 1);
  }
}
