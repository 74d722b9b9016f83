import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { moduleCacheFolder } from "./test/support/module-cache.js";
import ImageSequencer from "./test/support/sequencer.js";

const local = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  resolve: {
    // The package's own entry points resolve to the sources, as tsconfig.json's paths do for tsc and tsx.
    alias: [
      { find: /^hr-service-contract$/, replacement: local("./src/index.ts") },
      { find: /^hr-service-contract\/client$/, replacement: local("./src/client/index.ts") },
      { find: /^hr-service-contract\/webhooks$/, replacement: local("./src/webhooks/index.ts") },
      { find: /^hr-service-contract\/webhooks\/node$/, replacement: local("./src/webhooks/node/index.ts") },
      { find: /^hr-service-mock$/, replacement: local("./mock/index.ts") },
      { find: /^hr-service-mock\/msw$/, replacement: local("./mock/msw/index.ts") },
      { find: /^hr-service-mock\/vitest$/, replacement: local("./mock/vitest/index.ts") },
      { find: /^hr-service-mock\/playwright$/, replacement: local("./mock/playwright/index.ts") },
      { find: /^hr-service-contract\/contract$/, replacement: local("./src/contract/index.ts") },
      { find: /^hr-service-contract\/events$/, replacement: local("./generated/events.ts") },
    ],
  },
  test: {
    include: ["test/**/*.test.ts"],
    // The JSON totals let .ci/run print "N passed, N failed" from the very command the README gives.
    reporters: ["default", "json"],
    outputFile: { json: "test-artifacts/vitest.json" },
    // One mock for the whole run (default data, rate limit off); suites that only read use inject("mock").
    globalSetup: ["test/global-setup.ts"],
    // Prism's rarely read modules load on first use, as in the bundle (test/support/lazy-modules.ts);
    // the folders a file made with tempDir are removed when it ends (test/support/remove-temp-dirs.ts).
    setupFiles: ["test/support/lazy-modules.ts", "test/support/remove-temp-dirs.ts"],
    // Last resorts, long enough for a machine with every core busy: a test waits for events, and
    // its own waits name what never came well before these end it.
    testTimeout: 120_000,
    hookTimeout: 300_000,
    // The files mostly wait on processes they start (servers, Chromium, Podman), which a third worker
    // fills on a 2-core machine; no file reads what another's requests leave in a shared journal or install.
    maxWorkers: 3,
    // Workers as threads of the vitest process, not processes of their own: the whole run took 238 s
    // of the machine's CPU instead of 257 s (`CI=true npx vitest run --pool=threads` against forks,
    // quiet machine). No test changes the process's directory or exits it.
    pool: "threads",
    // The run's image builds from the start, beside the other files; on a machine that never built it, the files using it run last.
    sequence: { sequencer: ImageSequencer },
    // Test files of a worker share their imports (Prism, faker, the specs): each file importing them
    // again cost most of the suite's time. No test mocks modules or relies on a fresh module state.
    isolate: false,
    // Each file's transform kept between runs, so a warm run compiles only what changed, in a folder
    // named after the clone's file list and installs (test/support/module-cache.ts: vitest's own key
    // misses a renamed import).
    experimental: { fsModuleCache: true, fsModuleCachePath: moduleCacheFolder(local(".")) },
  },
});
