// The clone's development bundle (the package's Node bundle, scripts/dev-bundle.ts), built first when
// the sources changed: the mock as the package runs it, without packing. Its CLI entry is run as
// `node <it> serve …`, as an installed bin is.
import { join } from "node:path";
import { devBundleFolder } from "../lib/dev-bundle-folder.mjs";
import { buildDevBundle } from "../dev-bundle.js";

export async function devBundleCli(root: string): Promise<string> {
  const folder = await devBundleFolder({ root, build: buildDevBundle });
  return join(folder, "dist", "mock", "cli.js");
}
