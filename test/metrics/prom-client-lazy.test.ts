// The Prometheus client loads only when GET /_mock/metrics is first asked (issue 40): `hr-mock
// --help`, `hr-mock serve` and `startMock()` reach no prom-client in their static import graph (what
// loads with their modules), so a mock that is never scraped never imports it; the counts the edge
// keeps meanwhile are plain numbers (mock/edges/node/metric-counts.ts). The scrape reaches it
// through one import() of mock/edges/node/metrics.ts.
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/lib/spec-document.js";
import { importGraph } from "../support/import-graph.js";

const CLIENT = "prom-client";

describe("without a scrape, the Prometheus client is not loaded", () => {
  const cases: [string, { given: string[] }][] = [
    ["hr-mock --help", { given: ["mock/cli.ts"] }],
    ["hr-mock serve", { given: ["mock/cli.ts", "mock/cli/commands/serve.ts", "mock/app/start-mock.ts"] }],
    ['startMock() (import("hr-service-mock"))', { given: ["mock/index.ts"] }],
    ["createHandlers() (MSW)", { given: ["mock/msw/index.ts"] }],
  ];
  it.each(cases)("%s: no static import reaches prom-client", (_name, { given }) => {
    const importers = given.flatMap((entry) => importGraph(repoRoot, entry, { dynamic: false }).bare[CLIENT] ?? []);
    expect(importers, `modules that import ${CLIENT} and load with ${given.join(" + ")}`).toEqual([]);
  });
});

describe("a scrape", () => {
  it("reaches the client from hr-mock serve through import() alone, in the exposition module", () => {
    const everything = importGraph(repoRoot, "mock/cli/commands/serve.ts");
    expect(everything.modules, "the exposition, behind its import()").toContain("mock/edges/node/metrics.ts");
    expect(everything.bare[CLIENT], `modules that import ${CLIENT} once every import() is followed`).toEqual(["mock/edges/node/metrics.ts"]);
  });
});
