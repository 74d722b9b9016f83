import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The suites start servers on ephemeral ports; two workers keep a 2-core machine responsive.
    maxWorkers: 2,
  },
});
