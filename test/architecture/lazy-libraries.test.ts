// Libraries loaded only when asked for. The Redis client only with --state redis:// (issue 30); the
// Prometheus client only by the first GET /_mock/metrics (issue 40), so a mock that is never scraped
// never imports it (the counts the edge keeps meanwhile are plain numbers,
// mock/edges/node/metric-counts.ts). The YAML parser only for a data file given by its path (issue
// 48: every start parsed it). `hr-mock --help`, `hr-mock serve` and `startMock()` reach none of
// them in their static import graph (what loads with their modules), so start-up and --help pay
// nothing for them; each is reached through an import() that only its use runs. The installed
// bundle keeps them the same way: each in a chunk of its own that only an import() reaches
// (test/package/).
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/lib/spec-document.js";
import { importGraph } from "../support/import-graph.js";

/** Each library, and the one module that imports it once every import() is followed. */
const LIBRARIES: [string, string][] = [
  ["ioredis", "mock/state/redis/connection.ts"],
  ["prom-client", "mock/edges/node/metrics.ts"],
  ["yaml", "mock/data/read-data-file.ts"],
];

// Each case lists the modules it loads by import() every time (the command, then startMock), each with its static graph.
const ENTRIES: [string, string[]][] = [
  ["hr-mock --help", ["mock/cli.ts"]],
  ["hr-mock serve", ["mock/cli.ts", "mock/cli/commands/serve.ts", "mock/app/start-mock.ts"]],
  ['startMock() (import("hr-service-mock"))', ["mock/index.ts"]],
];

describe("until asked for, neither library is loaded", () => {
  it.each(ENTRIES)("%s: no static import reaches ioredis, prom-client or yaml", (_name, entries) => {
    const bare = entries.map((entry) => importGraph(repoRoot, entry, { dynamic: false }).bare);
    for (const [library] of LIBRARIES) {
      const importers = bare.flatMap((found) => found[library] ?? []);
      expect(importers, `modules that import ${library} and load with ${entries.join(" + ")}`).toEqual([]);
    }
  });
});

describe("asked for, each is reached from hr-mock serve through import() alone", () => {
  let everything: ReturnType<typeof importGraph> | undefined;
  it.each(LIBRARIES)("%s, in %s", (library, importer) => {
    everything ??= importGraph(repoRoot, "mock/cli/commands/serve.ts");
    expect(everything.modules, `${importer}, behind its import()`).toContain(importer);
    expect(everything.bare[library], `modules that import ${library} once every import() is followed`).toEqual([importer]);
  });
});
