// Libraries loaded only when asked for. The Redis client only with --state redis:// (issue 30); the
// Prometheus client only by the first GET /_mock/metrics (issue 40), so a mock that is never scraped
// never imports it (the counts the edge keeps meanwhile are plain numbers,
// mock/edges/node/metric-counts.ts). The YAML parser only for a data file given by its path (issue
// 48: every start parsed it). `hr-mock --help`, `hr-mock serve` and `startMock()` reach none of
// them in their static import graph (what loads with their modules), so start-up and --help pay
// nothing for them; each is reached through an import() that only its use runs. The installed
// bundle keeps them the same way: each in a chunk of its own that only an import() reaches
// (test/package/). And a browser page's handlers (hr-service-mock/msw): createHandlers() loads MSW
// and the mock's light modules; Prism, Ajv and the fakers come by handlers-mock.ts's import(), which
// the page runs after it registers MSW's worker (the page's first chunk, npm run size).
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

/** The page's entry, and the one module of its graph that may import Prism: the import() behind the first request. */
const PAGE_ENTRY = "mock/msw/index.ts";
const PAGE_LAZY = "mock/app/handlers-mock.ts";
/** All that may load with createHandlers (a keys file's reader is a stand-in in a page). */
const PAGE_STATIC = ["msw", "node:fs/promises"];

describe("a browser page's handlers load Prism on first use", () => {
  it(`${PAGE_ENTRY}: its static imports reach no package but ${PAGE_STATIC.join(" and ")}`, () => {
    const { bare } = importGraph(repoRoot, PAGE_ENTRY, { dynamic: false });
    const extra = Object.entries(bare).filter(([specifier]) => !PAGE_STATIC.includes(specifier));
    expect(Object.fromEntries(extra), `packages that load with createHandlers, each with its importers (a pure rule they need belongs in a module that imports no package)`).toEqual({});
  });

  it(`@stoplight/prism-http is reached through ${PAGE_LAZY}'s import() alone`, () => {
    const loaded = importGraph(repoRoot, PAGE_ENTRY, { dynamic: false }).modules;
    const everything = importGraph(repoRoot, PAGE_ENTRY);
    expect(loaded, `${PAGE_LAZY} loads with createHandlers`).not.toContain(PAGE_LAZY);
    expect(everything.modules, `${PAGE_LAZY}, behind createHandlers' import()`).toContain(PAGE_LAZY);
    const importers = everything.bare["@stoplight/prism-http"] ?? [];
    expect(importers.length, "modules that import Prism once every import() is followed").toBeGreaterThan(0);
    expect(importers.filter((importer) => loaded.includes(importer)), "modules that import Prism and load with createHandlers").toEqual([]);
  });
});
