// esbuild's settings for a browser bundle holding the MSW handlers (mock/msw/), as the browser test
// builds its page and `npm run size` measures it. The handlers run Prism's public pipeline, whose
// libraries import Node built-ins when they load; in a browser those resolve to the stand-ins in
// scripts/browser-shims/ (what loading evaluates, and what the request path calls: URL resolution,
// os.type()), `process` and `Buffer` are injected (Buffer from the buffer package), and Prism's own
// faker 6, which its default export loads with every locale, is given its English build only. The
// dataset's faker 10 is imported by name (Faker, base, en), so esbuild keeps only those locales.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build, type BuildOptions, type Metafile, type Plugin } from "esbuild";
import { declaredModuleEntry } from "./declared-module-entry.js";

const SHIMS = fileURLToPath(new URL("../browser-shims/", import.meta.url));
const shim = (file: string) => path.join(SHIMS, file);

/** Each Node built-in the graph imports, and its stand-in; and modules replaced by a build that suits a browser. */
export const BROWSER_ALIASES: Record<string, string> = {
  fs: shim("fs.js"),
  "node:fs/promises": shim("fs.js"),
  url: shim("url.js"),
  "node:url": shim("url.js"),
  os: shim("os.js"),
  path: shim("path.js"),
  events: shim("events.js"),
  util: shim("util.js"),
  assert: shim("assert.js"),
  string_decoder: shim("string_decoder.js"),
  http: shim("network.js"),
  https: shim("network.js"),
  net: shim("network.js"),
  tls: shim("network.js"),
  // Formats the handlers never give Prism's reader (Postman's library alone is a third of the bundle).
  "@stoplight/http-spec/oas2/operation": shim("other-formats.js"),
  "@stoplight/http-spec/postman/operation": shim("other-formats.js"),
};

/** The faker that Prism requires (its own version 6, every locale) becomes its English build. */
const prismFakerEnglishOnly: Plugin = {
  name: "prism-faker-english-only",
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^@faker-js\/faker$/ }, (args) => {
      if (!args.importer.includes(`${path.sep}@stoplight${path.sep}prism-http${path.sep}`)) return undefined;
      const english = createRequire(args.importer).resolve("@faker-js/faker/locale/en");
      return { path: shim("prism-faker.js"), pluginData: english };
    });
    pluginBuild.onLoad({ filter: /prism-faker\.js$/ }, (args) => ({
      // faker 6's English build exports `faker`; Prism reads the module's default export.
      contents: `import { faker } from ${JSON.stringify(args.pluginData as string)}; export default faker; export { faker };`,
      resolveDir: SHIMS,
      loader: "js",
    }));
  },
};

/** The options that make the handlers' graph build for, and run in, a browser. */
export function mswBrowserOptions(): BuildOptions {
  return {
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "chrome120",
    alias: BROWSER_ALIASES,
    inject: [shim("globals.js")],
    plugins: [prismFakerEnglishOnly, declaredModuleEntry],
    define: { global: "globalThis" },
    logLevel: "silent",
  };
}

/** One ES module for a page, from a TypeScript entry given as text (imports resolved from `resolveDir`). */
export async function bundleWithHandlers(entry: string, resolveDir: string, options: { minify?: boolean } = {}): Promise<string> {
  const result = await build({
    ...mswBrowserOptions(),
    stdin: { contents: entry, resolveDir, loader: "ts", sourcefile: "page-entry.ts" },
    minify: options.minify ?? false,
    write: false,
  });
  return result.outputFiles[0].text;
}

/**
 * hr-service-mock/msw for browsers, as the package ships it (its `browser` export condition): the
 * handlers with everything they import bundled with the settings above, except msw, which the
 * project brings (one copy of MSW, the one its worker script matches). Bundlers pick it by that
 * condition, so a project needs none of these settings of its own.
 */
export async function buildMswForBrowsers(outfile: string): Promise<{ metafile: Metafile }> {
  return build({
    ...mswBrowserOptions(),
    entryPoints: [fileURLToPath(new URL("../../mock/msw/index.ts", import.meta.url))],
    external: ["msw"],
    outfile,
    minify: true,
    metafile: true,
  });
}
