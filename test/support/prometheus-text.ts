// Reading Prometheus' text exposition format in the tests: each sample line as its series (name and
// labels, the labels sorted) and its value. Enough for the mock's own output, whose label values
// hold no quote, comma or brace; `promtool check metrics` (test/metrics/prometheus.test.ts) is what
// checks the format itself.

/** `name{a="1",b="2"}` (labels sorted) to value; comment and blank lines left out. */
export function samples(text: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{([^}]*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line of the text format: ${JSON.stringify(line)}`);
    const labels = match[2] ? match[2].split(",").filter(Boolean).sort().join(",") : "";
    found.set(labels ? `${match[1]}{${labels}}` : match[1], Number(match[3]));
  }
  return found;
}

/** The series key `samples` uses: `series("hr_mock_requests_total", { operation: "x", status: 200 })`. */
export function series(name: string, labels: Record<string, string | number> = {}): string {
  const parts = Object.entries(labels)
    .map(([key, value]) => `${key}="${value}"`)
    .sort();
  return parts.length > 0 ? `${name}{${parts.join(",")}}` : name;
}
