// hr-mock as a child process, as a user of a clone starts it: `node mock/bin/hr-mock.js …`, which
// runs the development bundle (scripts/lib/dev-bundle-folder.mjs). The bundle is built here before
// the first child starts (once per change of the sources, however many files ask at once), so no
// child builds it or says so, and each starts in well under a second, where running the sources
// through tsx took seconds of CPU per child. The package test's build copies its Node bundle.
import path from "node:path";
import { devBundleFolder } from "../../scripts/lib/dev-bundle-folder.mjs";
import { repoRoot } from "../../scripts/lib/spec-document.js";

/** The launcher; spawn it with process.execPath. */
export const HR_MOCK_BIN = path.join(repoRoot, "mock", "bin", "hr-mock.js");

let ready: Promise<string> | undefined;

/** The folder of the development bundle of the current sources, built first when they changed (the package test copies its Node bundle too). */
export async function devBundle(): Promise<string> {
  // The builder (esbuild and its plugins) is loaded only by the file that builds, as the launcher does.
  ready ??= devBundleFolder({ root: repoRoot, build: async (into: string) => (await import("../../scripts/dev-bundle.js")).buildDevBundle(into) });
  return ready.catch((error: unknown) => {
    ready = undefined;
    throw error;
  });
}

/** `[HR_MOCK_BIN]`, once the development bundle of the current sources is there. */
export async function hrMockArgs(): Promise<string[]> {
  await devBundle();
  return [HR_MOCK_BIN];
}
