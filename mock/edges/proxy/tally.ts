// The proxy's account of a run, kept while it runs and read as the report: exchanges counted per
// operation and status, what was passed on unchecked and why, the answers the proxy gave itself, and
// each distinct violation once with how often it was seen and one example request. Bounded: past
// `maxListed` distinct violations the rest are counted, not listed, so a long run's memory stays flat.

export interface Violation {
  /** The operationId, or "METHOD /path" for a request no operation matches. */
  operation: string;
  /** Which party broke the contract: the client's request or the upstream's answer. */
  side: "request" | "answer";
  rule: string;
  /** JSON pointer into the request (/query/PageSize, /headers/authorization) or the answer's body. */
  pointer: string;
  message: string;
}

export interface ViolationEntry extends Violation {
  /** Exchanges that broke it. */
  count: number;
  /** The first exchange that did (the query holds the operation's parameters only). */
  example: { method: string; target: string; status?: number };
}

export interface ProxyReport {
  upstream: string;
  startedAt: string;
  reportedAt: string;
  exchanges: {
    total: number;
    /** Upstream answers per operation (or "METHOD /path") and status. */
    byOperation: Record<string, Record<string, number>>;
    /** Answers the proxy gave itself, per status (502, 504, 413): the upstream gave none. */
    answeredByProxy: Record<string, number>;
    /** Exchanges passed on but not judged, per reason. */
    notChecked: Record<string, number>;
  };
  violations: {
    /** Every violation seen, repeats included. */
    total: number;
    distinct: number;
    listed: ViolationEntry[];
    /** Distinct violations past the listing's bound. */
    notListed: number;
  };
  /** 1 when a violation was seen, or when nothing came through to check: what the CLI exits with. */
  exitCode: 0 | 1;
}

export function createTally(options: { upstream: string; maxListed: number; now: () => Date }) {
  const startedAt = options.now().toISOString();
  const byOperation = new Map<string, Map<string, number>>();
  const proxied = new Map<string, number>();
  const skipped = new Map<string, number>();
  const listed = new Map<string, ViolationEntry>();
  let total = 0;
  let exchanges = 0;
  let notListed = 0;
  const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
  // Keys of violations past the bound are not kept either: they are counted as they come.
  const overflow = new Set<string>();
  const OVERFLOW_KEYS = 10_000;

  return {
    exchange(operation: string, status: number) {
      exchanges++;
      if (!byOperation.has(operation)) byOperation.set(operation, new Map());
      bump(byOperation.get(operation)!, String(status));
    },
    answeredByProxy(status: number) {
      exchanges++;
      bump(proxied, String(status));
    },
    notChecked(reason: string) {
      bump(skipped, reason);
    },
    /** Counts a violation; true when it is the first of its kind (the caller prints it then). */
    violation(violation: Violation, example: ViolationEntry["example"]): boolean {
      total++;
      const key = JSON.stringify([violation.operation, violation.side, violation.rule, violation.pointer, violation.message]);
      const entry = listed.get(key);
      if (entry) {
        entry.count++;
        return false;
      }
      if (listed.size < options.maxListed) {
        listed.set(key, { ...violation, count: 1, example });
        return true;
      }
      if (overflow.has(key)) return false;
      if (overflow.size < OVERFLOW_KEYS) overflow.add(key);
      notListed++;
      return true;
    },
    report(): ProxyReport {
      const counts = (map: Map<string, number>) => Object.fromEntries([...map].sort(([a], [b]) => (a < b ? -1 : 1)));
      return {
        upstream: options.upstream,
        startedAt,
        reportedAt: options.now().toISOString(),
        exchanges: {
          total: exchanges,
          byOperation: Object.fromEntries([...byOperation].sort(([a], [b]) => (a < b ? -1 : 1)).map(([op, statuses]) => [op, counts(statuses)])),
          answeredByProxy: counts(proxied),
          notChecked: counts(skipped),
        },
        violations: { total, distinct: listed.size + notListed, listed: [...listed.values()], notListed },
        exitCode: total > 0 || exchanges === 0 ? 1 : 0,
      };
    },
  };
}
