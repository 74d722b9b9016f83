// A coverage report as text for a terminal: one row per operation (requests, statuses seen of those
// declared, parameters used of those declared), one per event type when the report has webhooks,
// and what was never exercised.
import { neverExercised, type CoverageReport } from "./report.js";

export function formatCoverage(report: CoverageReport): string {
  const { api, webhooks } = report;
  const lines: string[] = [];
  lines.push(`API (${report.tool}, ${report.scope}): ${api.exercised} of ${api.total} operations exercised (${api.percent}%), ${api.requests} requests, ${api.unmatched} matching no operation`);
  lines.push(
    ...table(
      ["operation", "requests", "statuses seen / declared", "parameters used / declared"],
      api.operations.map((o) => {
        const seen = Object.keys(o.statuses.seen);
        const used = Object.keys(o.parameters.used);
        const unknown = o.parameters.unknown.length > 0 ? `; not declared: ${o.parameters.unknown.join(", ")}` : "";
        return [
          `${o.operationId} (${o.method} ${o.path})`,
          String(o.requests),
          `${seen.length > 0 ? seen.join(" ") : "-"} / ${o.statuses.declared.join(" ")}`,
          `${used.length} of ${o.parameters.declared.length}${used.length > 0 ? `: ${used.join(", ")}` : ""}${unknown}`,
        ];
      }),
    ),
  );
  if (webhooks) {
    lines.push("", `Webhooks: ${webhooks.exercised} of ${webhooks.total} event types delivered (${webhooks.percent}%)`);
    lines.push(
      ...table(
        ["event type", "deliveries", "attempts", "answers", "succeeded", "failed"],
        webhooks.events.map((e) => [
          e.type,
          String(e.deliveries),
          String(e.attempts),
          Object.entries(e.answers).map(([answer, count]) => `${answer}×${count}`).join(" ") || "-",
          String(e.succeeded),
          String(e.failed),
        ]),
      ),
    );
  }
  const never = neverExercised(report);
  if (never.operations.length > 0) lines.push("", `Never exercised: ${never.operations.map((o) => o.operationId).join(", ")}`);
  if (never.events.length > 0) lines.push(`Never delivered: ${never.events.map((e) => e.type).join(", ")}`);
  return `${lines.join("\n")}\n`;
}

/** Rows under a header, columns padded; numbers right-aligned. */
function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const numeric = header.map((_, i) => rows.every((r) => /^\d+$/.test(r[i])));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : numeric[i] ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join("  ")
      .trimEnd();
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)];
}
