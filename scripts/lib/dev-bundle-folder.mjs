// The folder of the development bundle that hr-mock runs in a clone (scripts/dev-bundle.ts builds
// it): keyed on the content of what it is made from (content-key.mjs), built once per key however
// many ask at the same time (build-once.mjs), under node_modules/.cache/hr-mock-dev/. The launcher
// (mock/bin/hr-mock.js) and the tests that start hr-mock (test/support/hr-mock.ts) both ask here.
// Plain JavaScript: the launcher runs it before anything can compile TypeScript. Types:
// dev-bundle-folder.d.mts.
import { join } from "node:path";
import { buildOnce } from "./build-once.mjs";
import { contentKey } from "./content-key.mjs";

/** What the bundle is made from, from the clone's root: a change of content in any rebuilds it. */
export const DEV_BUNDLE_INPUTS = ["mock", "src", "generated", "scripts/lib", "scripts/browser-shims/faker-class.js", "scripts/dev-bundle.ts", "scripts/build-package.ts", "package-lock.json", "tsconfig.json"];
/** Outputs among the inputs: builds, installs, and the notices `npm run build` writes. */
const NOT_INPUTS = /(^|\/)(node_modules|dist)$|^mock\/THIRD_PARTY_NOTICES$/;

/**
 * The bundle's folder in the clone at `root`, built by `build(folder)` first when its inputs
 * changed. `onBuild` and `onWait` as buildOnce's.
 * @param {{ root: string, build: (folder: string) => Promise<void>, onBuild?: () => void, onWait?: () => void }} options
 * @returns {Promise<string>}
 */
export function devBundleFolder({ root, build, onBuild, onWait }) {
  const bundles = join(root, "node_modules", ".cache", "hr-mock-dev");
  const { key } = contentKey({ root, inputs: DEV_BUNDLE_INPUTS, skip: (path) => NOT_INPUTS.test(path), cacheFile: join(bundles, "hashes.json") });
  // The three newest stay: a mock started a moment before may still run from the previous bundle.
  return buildOnce({ parent: bundles, key, keep: 3, build, onBuild, onWait });
}
