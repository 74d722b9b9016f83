// esbuild's settings for a browser bundle holding the MSW handlers (mock/msw/), as the browser test
// builds its page and `npm run size` measures it. The handlers run Prism's public pipeline, whose
// libraries import Node built-ins when they load; in a browser those resolve to the stand-ins in
// scripts/browser-shims/ (what loading evaluates, and what the request path calls: URL resolution,
// os.type()), `process` and `Buffer` are injected (Buffer from the buffer package), Prism's own
// faker 6 is its English build evaluated on first use (scripts/lib/lazy-require.ts) with the English
// definitions its generator reads (PRISM_FAKER_DEFINITIONS), and modules the
// handlers never call do not ship (Prism's forwarder's fetch and proxy agents, mime-db's table). The
// dataset's faker 10 is its class alone (scripts/browser-shims/faker-class.js), with the names of
// generated/faker-names.json.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build, type BuildOptions, type Metafile, type Plugin } from "esbuild";
import { declaredModuleEntry } from "./declared-module-entry.js";
import { LAZY_MODULES, lazyRequire, type LazyModule } from "./lazy-require.js";
import { lodashOnce } from "./lodash-once.js";

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
  // Prism's logger, which the mock keeps silent: pino's browser build lacks prism-core's custom level.
  pino: shim("pino.cjs"),
  // Prism's reader itself (dereferencing, the OpenAPI 3 transform, fnv-plus's hashes): the handlers
  // take its output from generated/msw-spec.json and never run it.
  "@stoplight/json-schema-ref-parser": shim("spec-reader.cjs"),
  "@stoplight/http-spec/oas3/operation": shim("spec-reader.cjs"),
  // Formats the handlers never give Prism's reader (Postman's library alone is a third of the bundle).
  "@stoplight/http-spec/oas2/operation": shim("other-formats.js"),
  "@stoplight/http-spec/postman/operation": shim("other-formats.js"),
  // What Prism's forwarder and OpenAPI callbacks send requests with: the handlers do neither.
  "node-fetch": shim("forwarding.cjs"),
  "http-proxy-agent": shim("forwarding.cjs"),
  "https-proxy-agent": shim("forwarding.cjs"),
  // Extension-to-type lookups over mime-db's table, which the handlers' path never makes.
  "mime-types": shim("mime-types.js"),
  // YAML text, which json-schema-faker's $ref resolver reads from files the handlers never name.
  "js-yaml": shim("yaml-text.js"),
  // The dataset's faker: its class, without the English locale (its names are generated/faker-names.json).
  "@faker-js/faker/locale/en": shim("faker-class.js"),
};

/**
 * The definitions of faker 6's English locale that Prism's generator reads (`Prefer: dynamic=true`),
 * by module, each one file of faker's own: what the documents' `x-faker` hints read (name, internet,
 * company, hacker; helpers, datatype and fake need none), Prism's own hint for parameters
 * (lorem.word), and every list random.word picks from (system.commonFileName draws random words;
 * internet's domain words are word.adjective and word.noun). The rest of the locale (mime types,
 * emoji, avatars, verbs: three quarters of its bytes) is never read by them.
 * test/msw/prism-faker.test.ts holds every hint of both documents to the values the whole English
 * locale gives, seed by seed: a hint that read a definition left out would differ.
 */
export const PRISM_FAKER_DEFINITIONS: Readonly<Record<string, readonly string[]>> = {
  address: ["country", "county", "state", "street_suffix"],
  commerce: ["color", "department", "product_name"],
  company: ["adjective", "bs_adjective", "bs_noun", "bs_verb", "descriptor", "noun"],
  finance: ["account_type", "currency", "transaction_type"],
  hacker: ["abbreviation", "adjective", "ingverb", "noun", "phrase", "verb"],
  internet: ["domain_suffix", "free_email"],
  lorem: ["words"],
  name: ["female_first_name", "first_name", "last_name", "male_first_name", "title"],
  word: ["adjective", "noun"],
};

/** The English definitions faker 6's English build takes in a browser build: PRISM_FAKER_DEFINITIONS, each from its own file. */
export function prismFakerEnglishSource(definitions: Readonly<Record<string, readonly string[]>> = PRISM_FAKER_DEFINITIONS): string {
  const module = (name: string, keys: readonly string[]) => `${name}: { ${keys.map((key) => `${key}: require("./${name}/${key}").default`).join(", ")} }`;
  return `module.exports = { __esModule: true, default: { title: "English", separator: " & ", ${Object.entries(definitions).map(([name, keys]) => module(name, keys)).join(", ")} } };`;
}

/** faker 6's English build (Prism's, loaded on first use) with prismFakerEnglishSource's definitions. */
const prismFakerEnglish: Plugin = {
  name: "prism-faker-english",
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^\.\.\/locales\/en$/ }, (args) => {
      if (!/[\\/]@faker-js[\\/]faker[\\/]dist[\\/]cjs[\\/]locale[\\/]en\.js$/.test(args.importer)) return undefined;
      return { path: path.join(path.dirname(args.importer), "..", "locales", "en", "index.js"), namespace: "prism-faker-english" };
    });
    pluginBuild.onLoad({ filter: /.*/, namespace: "prism-faker-english" }, (args) => ({ contents: prismFakerEnglishSource(), resolveDir: path.dirname(args.path), loader: "js" }));
  },
};

/** What opens a --state directory or Redis (mock/state/kept.ts, Node's file system and ioredis behind it): a page keeps its state in memory. */
const memoryState: Plugin = {
  name: "memory-state",
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^\.\/kept\.js$/ }, (args) => (/mock[\\/]state[\\/]open\.[jt]s$/.test(args.importer) ? { path: shim("state-kept.js") } : undefined));
  },
};

/** Prism's lazily read modules that a browser build replaces outright (the aliases above). */
const REPLACED_LAZY = ["@stoplight/http-spec/oas2/operation", "@stoplight/http-spec/postman/operation", "node-fetch"];

/**
 * Modules Prism loads but a page's handlers read only on a rare path, evaluated on first use (as
 * LAZY_MODULES, scripts/lib/lazy-require.ts). Prism's schema-driven generator (json-schema-faker, the sampler, seedrandom and faker 6 behind
 * it), which only Prism's own mocker calls: in the handlers only for a Prefer header (the mock
 * component answers everything else). Its two importers in prism-http 5.12.0 read it only through
 * a property at call time (mocker/index.js: `JSONSchema_1.generate`, `.generateStatic`,
 * `.SchemaTooComplexGeneratorError` in its error handler, `JSONSchema_2.resetGenerator` in a getter;
 * mocker/generator/HttpParamGenerator.js: `JSONSchema_1.generate`), so a page evaluates it on its
 * first Prefer header rather than before its first answer. Its set-up (faker registered with
 * json-schema-faker, the generator's options) runs then, before any generation.
 */
const BROWSER_LAZY: readonly LazyModule[] = [
  { importer: "@stoplight/prism-http", specifier: "./generator/JSONSchema" },
  { importer: "@stoplight/prism-http", specifier: "./JSONSchema" },
  // lodash/fp (a fifth of Prism's load in a page) waits for first use in Node too: LAZY_MODULES.
];

/** The options that make the handlers' graph build for, and run in, a browser. */
export function mswBrowserOptions(): BuildOptions {
  return {
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "chrome120",
    alias: BROWSER_ALIASES,
    inject: [shim("globals.js")],
    plugins: [lazyRequire({ skip: REPLACED_LAZY }, [...LAZY_MODULES, ...BROWSER_LAZY]), prismFakerEnglish, lodashOnce, memoryState, declaredModuleEntry],
    define: { global: "globalThis" },
    logLevel: "silent",
  };
}

/** A page's entry: module source given as text (its imports resolved from `resolveDir`), or a file. */
export type PageEntry = { source: string; resolveDir: string } | { file: string };

export interface PageBuildOptions {
  entry: PageEntry;
  /** The entry's output name (`app` → app.js). */
  entryName?: string;
  /** Where the files go (written only with `write`); default `.page-out` beside the entry. */
  outdir?: string;
  /** "esm" (default; code split with `splitting`) or "iife": one classic script, for a page opened from file://, where Chromium fetches no module script. */
  format?: "esm" | "iife";
  /** What the entry imports dynamically comes as chunks beside it, fetched when first imported (esm only). */
  splitting?: boolean;
  minify?: boolean;
  /** Packages the page's own build brings (msw for the package's browser build). */
  external?: string[];
  /** Where packages outside the clone resolve from (a peer's handlers, from the clone's node_modules). */
  nodePaths?: string[];
  write?: boolean;
  /** false: esbuild's browser platform alone, no stand-ins, so a Node built-in anywhere in the graph fails the build (the client's and the webhooks' pages). */
  shims?: boolean;
}

/**
 * The one esbuild build of a page holding the handlers, with mswBrowserOptions: the browser test's
 * page, the first-answer page, `npm run size`'s measure, the package's browser build and the docs'
 * API console each ask it for theirs (and, with `shims: false`, the client's and webhooks' test pages). The output files by path, and the metafile.
 */
export async function buildPage(options: PageBuildOptions): Promise<{ files: Array<{ path: string; text: string; contents: Uint8Array }>; metafile: Metafile }> {
  const base: BuildOptions = options.shims === false ? { bundle: true, format: "esm", platform: "browser", target: "chrome120", logLevel: "silent" } : mswBrowserOptions();
  const { entry, entryName = "app", format = "esm", splitting = false } = options;
  const fromText = "source" in entry;
  const resolveDir = fromText ? entry.resolveDir : path.dirname(entry.file);
  const result = await build({
    ...base,
    format,
    nodePaths: options.nodePaths ?? [],
    entryPoints: { [entryName]: fromText ? "page-entry" : entry.file },
    plugins: [...(fromText ? [pageEntryPlugin(resolveDir, entry.source)] : []), ...(base.plugins ?? [])],
    external: options.external ?? [],
    // A classic script has no import.meta: the modules that name their files by it (the documents'
    // paths, which a page never reads: it has them bundled) get a fixed URL instead of a throw.
    define: format === "iife" ? { ...base.define, "import.meta.url": JSON.stringify("file:///page-script.js") } : base.define,
    outdir: options.outdir ?? path.join(resolveDir, ".page-out"),
    splitting: splitting && format === "esm",
    chunkNames: "chunk-[hash]",
    minify: options.minify ?? false,
    metafile: true,
    write: options.write ?? false,
  });
  return { files: (result.outputFiles ?? []).map((file) => ({ path: file.path, text: file.text, contents: file.contents })), metafile: result.metafile };
}

/** One ES module for a page, from a TypeScript entry given as text (imports resolved from `resolveDir`). */
export async function bundleWithHandlers(entry: string, resolveDir: string, options: { minify?: boolean; nodePaths?: string[] } = {}): Promise<string> {
  const { files } = await buildPage({ entry: { source: entry, resolveDir }, minify: options.minify, nodePaths: options.nodePaths });
  return files[0]!.text;
}

/** A page entry given as text, as the module `page-entry` (splitting needs entry points), its imports resolved from `resolveDir`. */
function pageEntryPlugin(resolveDir: string, contents: string): Plugin {
  return {
    name: "page-entry",
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /^page-entry$/ }, () => ({ path: "page-entry.ts", namespace: "page" }));
      pluginBuild.onLoad({ filter: /.*/, namespace: "page" }, () => ({ contents, resolveDir, loader: "ts" }));
    },
  };
}

/**
 * A page's code as a project's build makes it (minified, code split: what the entry imports
 * dynamically comes as chunks, fetched when first imported): the files by their path on the site,
 * the entry as /app.js. With `keepNames`, not minified (for a CPU profile to name what ran).
 */
export async function bundlePage(entry: string, resolveDir: string, options: { nodePaths?: string[]; keepNames?: boolean } = {}): Promise<Record<string, string>> {
  // A profile reads functions by name, and modules by the names esbuild gives their wrappers when it does not minify.
  const { files } = await buildPage({ entry: { source: entry, resolveDir }, nodePaths: options.nodePaths, splitting: true, minify: !options.keepNames });
  return Object.fromEntries(files.map((file) => [`/${path.basename(file.path)}`, file.text]));
}

/**
 * hr-service-mock/msw for browsers, as the package ships it (its `browser` export condition): the
 * handlers with everything they import bundled with the settings above, except msw, which the
 * project brings (one copy of MSW, the one its worker script matches), into `outdir` as the entry
 * `entryName`.js, code split: what the sources import dynamically comes as chunks beside it, which
 * the project's bundler splits off in turn. Bundlers pick it by that condition, so a project needs
 * none of these settings of its own.
 */
export async function buildMswForBrowsers(source: string, outdir: string, entryName: string): Promise<{ metafile: Metafile }> {
  const { metafile } = await buildPage({ entry: { file: source }, entryName, external: ["msw"], outdir, splitting: true, minify: true, write: true });
  return { metafile };
}
