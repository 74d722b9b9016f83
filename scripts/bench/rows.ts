// The bench's rows as printed (a table of the servers under load) and the figures the report keeps
// of the journal's and shared state's parts.
import type { LoadResult } from "./load.js";
import type { JournalCost } from "./journal.js";
import type { JournalBudgetCost } from "./journal-budget.js";
import type { SharedStateCost } from "./shared-state.js";

export interface Row {
  label: string;
  load: LoadResult;
  startupMs: number;
  rssMb: number;
}

export function printTable(rows: Row[]) {
  const header = ["server", "req/s", "p50 ms", "p99 ms", "CPU µs/req", "start-up s", "RSS MB"];
  const lines = rows.map((r) => [
    r.label,
    Math.round(r.load.requestsPerSecond).toLocaleString("en"),
    r.load.p50Ms.toFixed(2),
    r.load.p99Ms.toFixed(2),
    r.load.serverCpuUsPerRequest.toFixed(0),
    (r.startupMs / 1000).toFixed(2),
    r.rssMb.toFixed(0),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const format = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  console.log("");
  console.log(format(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const line of lines) console.log(format(line));
}

/** The journal's figures as the report keeps them. */
export function journalFigures(cost: JournalCost, budget: JournalBudgetCost): Record<string, number> {
  return {
    journalOnPerSecond: cost.on.requestsPerSecond,
    journalOffPerSecond: cost.off.requestsPerSecond,
    journalRatio: cost.ratio,
    journalCpuRatio: cost.cpuRatio,
    journalHeapFullMb: cost.heap.fullMb,
    journalHeapAfterMb: cost.heap.afterMb,
    journalBudgetRssStartMb: budget.rss.startMb,
    journalBudgetRssRightAfterMb: budget.rss.rightAfterMb,
    journalBudgetRssAfterMb: budget.rss.afterMb,
    journalBudgetRestSeconds: budget.restSeconds,
    journalBudgetHeapAfterMb: budget.heap.afterMb,
  };
}

/** Shared state's figures as the report keeps them (the commands per request by name too). */
export function sharedStateFigures(cost: SharedStateCost): Record<string, number> {
  return {
    sharedStateMemoryPerSecond: cost.memory.requestsPerSecond,
    sharedStateRedisPerSecond: cost.redis.requestsPerSecond,
    sharedStateMemoryP99Ms: cost.memory.p99Ms,
    sharedStateRedisP99Ms: cost.redis.p99Ms,
    sharedStateRatio: cost.ratio,
    sharedStateCpuRatio: cost.cpuRatio,
    sharedStateRedisCpuUsPerRequest: cost.redisCpuUsPerRequest,
    sharedStateCommandsPerRequest: cost.commands.perRequest,
    sharedStateSentPerRequest: cost.sample.sentPerRequest,
    sharedStateReadsPerRequest: cost.readsPerRequest,
    ...Object.fromEntries(cost.commands.byCommand.map((c) => [`sharedStateCommand:${c.command}`, c.perRequest])),
  };
}
