// An esbuild plugin both bundles use (scripts/lib/node-bundle.ts, scripts/lib/msw-bundle.ts).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Plugin } from "esbuild";

/**
 * Packages that @stoplight/json requires from CommonJS, where esbuild takes their "main": for
 * jsonc-parser a UMD build that loads its parts with a require esbuild cannot follow. Each is
 * resolved to the entry its own package.json declares for bundlers ("module"), the same code as ES
 * modules, rather than to a file path written here.
 */
const DECLARED_MODULE_ENTRY = ["jsonc-parser"];

export const declaredModuleEntry: Plugin = {
  name: "declared-module-entry",
  setup(pluginBuild) {
    const names = new RegExp(`^(?:${DECLARED_MODULE_ENTRY.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})$`);
    pluginBuild.onResolve({ filter: names }, (args) => {
      const manifest = createRequire(path.join(args.resolveDir, "noop.js")).resolve(`${args.path}/package.json`);
      const entry = (JSON.parse(readFileSync(manifest, "utf8")) as { module?: string }).module;
      if (!entry) throw new Error(`${args.path} declares no "module" entry in ${manifest}`);
      return { path: path.join(path.dirname(manifest), entry) };
    });
  },
};
