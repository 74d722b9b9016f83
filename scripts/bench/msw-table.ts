// The side-by-side table of MSW handlers (scripts/bench/msw-side-by-side.ts measures it): pure
// formatting, each peer's figure beside its ratio to ours, for stdout and docs/benchmarks.md.

/** What one set of handlers cost the page, or why it was not measured. */
export interface SideBySideEntry {
  label: string;
  version?: string;
  figures?: { firstBytes: number; firstGzipBytes: number; wholeBytes: number; wholeGzipBytes: number; firstAnswerMs: number; laterAnswerMs: number };
  /** Every call's outcome over the pages and how often it came (["ok", 6], ["400", 3]…), in the order first seen. */
  outcomes?: Array<[string, number]>;
  notMeasured?: string;
}

export const SIDE_BY_SIDE_HEADER = ["handlers", "first chunk, gzipped", "first chunk, minified", "whole, gzipped", "whole, minified", "first answer (median)", "later answer (median)", "answers (all pages)"];

const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
const ms = (value: number) => `${Math.round(value)} ms`;

/**
 * The table's rows, ours first (the figures alone), each peer's figures with their ratio to ours
 * ("248 KB (0.36x)"), a peer not measured with the reason in its second cell.
 */
export function sideBySideRows(ours: SideBySideEntry, peers: SideBySideEntry[]): string[][] {
  const name = (entry: SideBySideEntry) => (entry.version ? `${entry.label} ${entry.version}` : entry.label);
  const outcomes = (entry: SideBySideEntry) => (entry.outcomes ?? []).map(([what, count]) => `${what} ${count}`).join(", ");
  const cells = (entry: SideBySideEntry, base?: SideBySideEntry["figures"]) => {
    const f = entry.figures!;
    const cell = (value: number, ofOurs: number | undefined, format: (n: number) => string) => (ofOurs === undefined ? format(value) : `${format(value)} (${ofOurs > 0 ? `${(value / ofOurs).toFixed(2)}x` : "ours 0"})`);
    return [
      cell(f.firstGzipBytes, base?.firstGzipBytes, kb),
      cell(f.firstBytes, base?.firstBytes, kb),
      cell(f.wholeGzipBytes, base?.wholeGzipBytes, kb),
      cell(f.wholeBytes, base?.wholeBytes, kb),
      cell(f.firstAnswerMs, base?.firstAnswerMs, ms),
      cell(f.laterAnswerMs, base?.laterAnswerMs, ms),
    ];
  };
  const blank = SIDE_BY_SIDE_HEADER.slice(2).map(() => "");
  const row = (entry: SideBySideEntry, base?: SideBySideEntry["figures"]) =>
    entry.figures ? [name(entry), ...cells(entry, base), outcomes(entry)] : [name(entry), `not measured: ${entry.notMeasured ?? "no figures"}`, ...blank];
  return [row(ours), ...peers.map((peer) => row(peer, ours.figures))];
}

const notMeasured = (row: string[]) => row[1].startsWith("not measured");

/** The rows as aligned text, for stdout; a row not measured is its name and its reason. */
export function sideBySideText(rows: string[][]): string {
  const table = [SIDE_BY_SIDE_HEADER, ...rows];
  const measured = table.filter((row) => !notMeasured(row));
  const widths = SIDE_BY_SIDE_HEADER.map((_, i) => Math.max(...(i === 0 ? table : measured).map((row) => row[i].length)));
  const line = (row: string[]) => (notMeasured(row) ? `${row[0].padEnd(widths[0])}  ${row[1]}` : row.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  "));
  return table.map((row) => line(row).trimEnd()).join("\n");
}

/** The rows as a Markdown table (a "|" in a cell escaped). */
export function sideBySideMarkdown(rows: string[][]): string[] {
  const line = (cells: string[]) => `| ${cells.map((cell) => cell.replaceAll("|", "\\|")).join(" | ")} |`;
  return [line(SIDE_BY_SIDE_HEADER), `| --- |${" ---: |".repeat(SIDE_BY_SIDE_HEADER.length - 2)} --- |`, ...rows.map(line)];
}

/** Each outcome and how often it came, in the order first seen. */
export function countOutcomes(values: string[]): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts];
}

export interface SideBySide {
  pages: number;
  ours: SideBySideEntry;
  peers: SideBySideEntry[];
}
