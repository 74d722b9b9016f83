// A clone's development bundle (the package's Node bundle, scripts/dev-bundle.ts), built first by that
// clone's own launcher when its sources changed: the mock as the package runs it, without packing.
// Its CLI entry is run as `node <it> serve …`, as an installed bin is. Another clone (`--mock DIR`,
// say the previous main) is measured the same way, from its own bundle.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { devBundleFolder } from "../lib/dev-bundle-folder.mjs";

export async function devBundleCli(root: string): Promise<string> {
  execFileSync(process.execPath, [join(root, "mock", "bin", "hr-mock.js"), "--help"], { stdio: "ignore" });
  const folder = await devBundleFolder({
    root,
    build: () => Promise.reject(new Error(`the development bundle of ${root} was not built by its launcher`)),
  });
  return join(folder, "dist", "mock", "cli.js");
}
