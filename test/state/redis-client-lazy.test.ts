// The Redis client loads only when --state redis:// is given (issue 30): `hr-mock --help`, `hr-mock
// serve` and `startMock()` without it reach no ioredis in their static import graph (what loads with
// their modules), so start-up and --help pay nothing for it; with it, the client is reached through
// an import() that only such a --state runs. The installed bundle keeps it the same way: ioredis in
// a chunk of its own that only an import() reaches (test/package/package.test.ts).
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/lib/spec-document.js";
import { importGraph } from "../support/import-graph.js";

const CLIENT = "ioredis";

describe("without --state redis://, the Redis client is not loaded", () => {
  // Each case lists the modules it loads by import() every time (the command, then startMock), each with its static graph.
  const cases: [string, { given: string[] }][] = [
    ["hr-mock --help", { given: ["mock/cli.ts"] }],
    ["hr-mock serve", { given: ["mock/cli.ts", "mock/cli/commands/serve.ts", "mock/app/start-mock.ts"] }],
    ['startMock() (import("hr-service-mock"))', { given: ["mock/index.ts"] }],
  ];
  it.each(cases)("%s: no static import reaches ioredis", (_name, { given }) => {
    const importers = given.flatMap((entry) => importGraph(repoRoot, entry, { dynamic: false }).bare[CLIENT] ?? []);
    expect(importers, `modules that import ${CLIENT} and load with ${given.join(" + ")}`).toEqual([]);
  });
});

describe("with --state redis://", () => {
  it("the client is reached from hr-mock serve through import() alone", () => {
    const everything = importGraph(repoRoot, "mock/cli/commands/serve.ts");
    expect(everything.modules, "startMock's Redis state, behind its import()").toContain("mock/state/redis/index.ts");
    expect(everything.bare[CLIENT], `modules that import ${CLIENT} once every import() is followed`).toEqual(["mock/state/redis/connection.ts"]);
  });
});
