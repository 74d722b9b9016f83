// hr-service-mock for Node, bundled: each entry (its exports, its bin's CLI) with the libraries it
// imports (Prism, faker, Ajv, yaml, the diff libraries) in ES module files under dist/, shared code
// in chunks, so an install carries what runs and nothing of those packages' other files. What the
// bundle holds is listed, with each package's licence, in THIRD_PARTY_NOTICES (scripts/lib/notices.ts).
// - CommonJS libraries require Node built-ins: each output file gets a `require` of its own.
// - Files the sources read at run time (`new URL("../../generated/x.json", import.meta.url)`) are
//   named from the dist root: the sources' relative path is rewritten to a marker and the path from
//   each output file to dist/ is put in its place, wherever esbuild placed the code.
// - Prism's rarely used requires load on first use (scripts/lib/lazy-require.ts, NODE_LAZY below),
//   each from a CommonJS file of its own under dist/lazy/, so that starting the mock does not even
//   parse them. Prism's own code is bundled as published: no text of it is changed.
import { readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build, transform, type Metafile, type Plugin } from "esbuild";
import { declaredModuleEntry } from "./declared-module-entry.js";
import { fileNameOf, LAZY_MODULES, lazyRequire, type LazyModule } from "./lazy-require.js";
import { lodashOnce } from "./lodash-once.js";

const DIST_ROOT = "__HR_MOCK_DIST_ROOT__/";
/** A lazy module's file, required by its stand-in: replaced by its absolute path, found from the output file. */
const LAZY_FILE = "__HR_MOCK_LAZY_FILE__/";
const LAZY_DIR = "lazy";

/** `new URL("<relative>", import.meta.url)`, as the sources name the files they read. */
const FILE_URL = /new URL\(\s*(["'])(\.{1,2}\/[^"']*)\1\s*,\s*import\.meta\.url\s*\)/g;

/**
 * The repository's own sources: each relative file URL that points into the repository is
 * rewritten to the dist root marker plus its path from the repository root (dist/ keeps that layout).
 */
function filesFromDistRoot(repoRoot: string): Plugin {
  return {
    name: "files-from-dist-root",
    setup(pluginBuild) {
      pluginBuild.onLoad({ filter: /\.ts$/ }, (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const source = readFileSync(args.path, "utf8");
        if (!source.includes("import.meta.url")) return { contents: source, loader: "ts" };
        const contents = source.replace(FILE_URL, (whole, quote: string, relative: string) => {
          const target = path.relative(repoRoot, path.resolve(path.dirname(args.path), relative));
          if (target.startsWith("..")) throw new Error(`${path.relative(repoRoot, args.path)}: ${relative} points outside the repository`);
          const slash = relative.endsWith("/") ? "/" : "";
          return `new URL(${quote}${DIST_ROOT}${target.split(path.sep).join("/")}${slash}${quote}, import.meta.url)`;
        });
        return { contents, loader: "ts" };
      });
    },
  };
}

/**
 * Beyond LAZY_MODULES, Prism's modules that a Node process of the mock reads only on a rare path,
 * each read through a property at call time (prism-http 5.12.0, whose version lazy-require.ts checks):
 * - `./utils/operations`, Prism's reader (getHttpOperationsFromSpec: dereferencing, the OpenAPI 3
 *   transform and fnv-plus's hashes, YAML): index.js and instanceWithSpec.js read
 *   `operations_1.getHttpOperationsFromSpec` when called. The mock reads the documents ahead
 *   (generated/prism-operations.json); only a document it was not given ahead calls it.
 * - Prism's generator (json-schema-faker, the sampler, seedrandom): as BROWSER_LAZY says
 *   (scripts/lib/msw-bundle.ts), read only for a Prefer header; its two specifiers share one file.
 * - type-is (mime-types, which indexes mime-db's table when it loads): `type_is_1.is(…)`, for a
 *   request body, a Prefer answer or a forwarded response; never on a GET answered by the mock.
 * - mime-types as accepts 1.3.8 requires it (Prism's content negotiation): `mime.lookup(…)` only for
 *   a type without a "/" (a file extension), which Prism never passes.
 * - chalk (with color-convert's tables, built when it loads): `chalk.grey(…)` in the log lines of
 *   Prism's mocker, forwarder and callbacks (utils/logger.js, mocker/index.js), made only for a
 *   Prefer answer or a forward; the mock's logger drops them.
 * - pino, which prism-core 5.8.0 calls only in createLogger (`pino(options)`, `pino.levels`): the
 *   mock gives Prism a logger of its own (mock/pipeline/route.ts) and never calls it. A function,
 *   so its stand-in is one.
 * - pino-pretty, which pino 6.14.0 requires inside getPrettyStream, for its prettyPrint option alone.
 * - http-proxy-agent and https-proxy-agent (agent-base, debug): forwarder/index.js calls them only to
 *   forward through an upstream proxy, which the mock never asks Prism to do. Functions too.
 */
const NODE_LAZY: readonly LazyModule[] = [
  { importer: "@stoplight/prism-http", specifier: "./utils/operations", file: "prism-http/utils/operations" },
  { importer: "@stoplight/prism-http", specifier: "./generator/JSONSchema", file: "prism-http/generator/JSONSchema" },
  { importer: "@stoplight/prism-http", specifier: "./JSONSchema", file: "prism-http/generator/JSONSchema" },
  { importer: "@stoplight/prism-http", specifier: "type-is" },
  { importer: "accepts", specifier: "mime-types" },
  { importer: "@stoplight/prism-http", specifier: "chalk" },
  { importer: "@stoplight/prism-core", specifier: "pino", callable: true },
  { importer: "pino", specifier: "pino-pretty", callable: true },
  { importer: "@stoplight/prism-http", specifier: "http-proxy-agent", callable: true },
  { importer: "@stoplight/prism-http", specifier: "https-proxy-agent", callable: true },
];

/**
 * The dataset's faker 10 is its class alone, as in the browser build (scripts/browser-shims/
 * faker-class.js): mock/data/faker.ts reads only the class of the English instance and gives it
 * generated/faker-names.json, so the English locale's definitions (two thirds of faker's code a
 * start parsed) are not bundled.
 */
const FAKER_CLASS = { "@faker-js/faker/locale/en": fileURLToPath(new URL("../browser-shims/faker-class.js", import.meta.url)) };

const WIDE = /[^\x00-\x7f]/g;

/**
 * `text` in ASCII. esbuild escapes every other character (its default charset) but those in regular
 * expression literals and in tagged templates' raw text, and one of them makes V8 hold the whole
 * file's source at two bytes a character (three in Prism's libraries doubled the chunk a start
 * parses). In a regular expression `\uXXXX` is the same character; a raw template's text is not, so
 * a file with one (its templates lowered to strings, which esbuild escapes, leave fewer) is kept.
 */
async function asciiSource(text: string): Promise<string> {
  const wide = text.match(WIDE)?.length ?? 0;
  if (wide === 0) return text;
  const lowered = await transform(text, { supported: { "template-literal": false }, logLevel: "silent" });
  if ((lowered.code.match(WIDE)?.length ?? 0) !== wide) return text;
  // An escaped character (`\〇`, an identity escape) gives its backslash to the \u escape.
  return text.replace(/(\\*)([^\x00-\x7f])/g, (_whole, slashes: string, c: string) => `${slashes.slice(0, slashes.length - (slashes.length % 2))}\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** Each output file's `require` (CommonJS libraries require Node built-ins), and the helper that names a lazy module's file. */
const REQUIRE_BANNER = 'import { createRequire as __hrCreateRequire } from "node:module"; const require = __hrCreateRequire(import.meta.url);';
const FILE_PATH_BANNER = 'import { fileURLToPath as __hrFileURLToPath } from "node:url";';

/**
 * `text` without the banner's parts that it does not use: most chunks (the mock's own code) require
 * nothing, and a start loads some 60 of them, each of which would make a require function of its own.
 */
function withUsedBanner(text: string): string {
  const banner = `${REQUIRE_BANNER} ${FILE_PATH_BANNER}`;
  const at = text.indexOf(banner);
  if (at < 0) throw new Error("node bundle: an output file lacks the banner");
  const body = text.slice(at + banner.length);
  const kept = [/\brequire\b/.test(body) ? REQUIRE_BANNER : "", body.includes("__hrFileURLToPath") ? FILE_PATH_BANNER : ""].filter(Boolean).join(" ");
  return text.slice(0, at) + kept + body;
}

export interface NodeBundle {
  /** What went into each build's output files: the entries', then each lazy module's. */
  metafiles: Metafile[];
}

/**
 * Bundles `entries` (source files of the repository) into `dist`, each at its source's path from
 * the repository root with .js (mock/cli.ts -> dist/mock/cli.js), shared code in dist/chunks/.
 * `external` packages stay imports (a peer dependency the project brings).
 */
export async function bundleForNode(options: { repoRoot: string; entries: string[]; dist: string; external: string[] }): Promise<NodeBundle> {
  const { repoRoot, entries, dist, external } = options;
  const resolved = new Map<LazyModule, string>();
  const lazyModules = lazyRequire({ requireFrom: (lazy) => `${LAZY_FILE}${fileNameOf(lazy)}`, resolved }, [...LAZY_MODULES, ...NODE_LAZY]);
  const result = await build({
    entryPoints: entries.map((entry) => path.join(repoRoot, entry)),
    // Module names and chunk hashes from the repository, whatever directory the build runs in (a
    // bench measuring another clone builds it from this one).
    absWorkingDir: repoRoot,
    outbase: repoRoot,
    outdir: dist,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    external,
    alias: FAKER_CLASS,
    chunkNames: "chunks/[name]-[hash]",
    // Whitespace and syntax only: names stay, so a stack trace still reads.
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: "none",
    banner: { js: `${REQUIRE_BANNER} ${FILE_PATH_BANNER}` },
    plugins: [lazyModules, lodashOnce, declaredModuleEntry, filesFromDistRoot(repoRoot)],
    metafile: true,
    write: false,
    logLevel: "silent",
  });
  for (const warning of result.warnings) throw new Error(`esbuild: ${warning.text} (${warning.location?.file ?? "?"}:${warning.location?.line ?? "?"})`);
  for (const file of result.outputFiles) {
    const fromFile = path.relative(path.dirname(file.path), dist).split(path.sep).join("/");
    const root = fromFile === "" ? "./" : `${fromFile}/`;
    // esbuild's __require helper may sit in another chunk than the stand-in: the path is made absolute here.
    const lazyFile = new RegExp(`(["'])${LAZY_FILE}([^"']+)\\1`, "g");
    const text = withUsedBanner(
      file.text
        .replace(lazyFile, (_whole, _quote, name: string) => `__hrFileURLToPath(new URL(${JSON.stringify(`${root}${LAZY_DIR}/${name}`)}, import.meta.url))`)
        .replaceAll(DIST_ROOT, root),
    );
    await mkdir(path.dirname(file.path), { recursive: true });
    await writeFile(file.path, await asciiSource(text));
  }
  // Each lazy module on its own, with what it requires, as CommonJS: its module.exports is what the
  // stand-in reads. One build for all of them: the same files as one build each, the libraries they
  // share parsed once. A lazy module may require another (Prism's generator, faker): its stand-in
  // requires that one's file beside it, built in the next round.
  const metafiles = [result.metafile];
  const built = new Set<string>();
  for (;;) {
    const waiting = [...resolved].filter(([lazy]) => !built.has(fileNameOf(lazy)));
    if (waiting.length === 0) return { metafiles };
    for (const [lazy] of waiting) built.add(fileNameOf(lazy));
    const lazy = await build({
      entryPoints: Object.fromEntries(waiting.map(([module, file]) => [path.basename(fileNameOf(module), ".cjs"), file])),
      outdir: path.join(dist, LAZY_DIR),
      absWorkingDir: repoRoot,
      outExtension: { ".js": ".cjs" },
      bundle: true,
      format: "cjs",
      platform: "node",
      target: "node20",
      minifyWhitespace: true,
      minifySyntax: true,
      legalComments: "none",
      plugins: [lazyModules, lodashOnce, declaredModuleEntry],
      metafile: true,
      write: false,
      logLevel: "silent",
    });
    await mkdir(path.join(dist, LAZY_DIR), { recursive: true });
    for (const file of lazy.outputFiles) await writeFile(file.path, await asciiSource(file.text.replaceAll(`"${LAZY_FILE}`, '"./')));
    metafiles.push(lazy.metafile);
  }
}
