// Modules that Prism's CommonJS code requires when it loads but reads only on a rare path. The
// bundle gives each such require a stand-in whose properties load the real module on first access:
// the same exports, read at the same moments, evaluated only when something reads them. Both
// bundles use it (scripts/lib/node-bundle.ts, scripts/lib/msw-bundle.ts).
//
// Prism reads these only through a property at call time (checked in its dist/ of the pinned
// versions, which the build refuses to bundle when they change):
// - @faker-js/faker (faker 6): `JSONSchemaFaker.extend('faker', () => faker_1.default)` in
//   mocker/generator/JSONSchema.js. json-schema-faker calls that function at once and keeps what it
//   returns, but reads a property of it only when a schema asks for faker (`x-faker`), which only
//   Prism's own mocker does (`Prefer: dynamic=true`): so `default` (and `faker`) are stand-ins too,
//   loading faker on their first property read. Its English
//   build stands in for the build with every locale: Prism never sets a locale, and the default
//   build's locale and fallback are English, so both give the same values from the same seed.
// - @stoplight/http-spec's OAS 2 and Postman readers: `operation_2.transformOas2Operations` and
//   `operation_3.transformPostmanCollectionOperations` in utils/operations.js, called only for a
//   Swagger 2 document or a Postman collection (the mock reads OpenAPI 3.1).
// - node-fetch (with whatwg-url and tr46's Unicode mapping table behind it): `node_fetch_1.default(…)`
//   in forwarder/index.js and mocker/callback/callbacks.js, called only when Prism forwards a request
//   (the mock never proxies through Prism) or sends a callback (the spec declares none).
// - lodash/fp, which builds a converted copy of every lodash function when it loads:
//   validator/validators/security/index.js reads `fp_1.set` only in setErrorTag, called when a
//   request's key is refused.
// - isomorphic-fetch, which @stoplight/json-schema-ref-parser requires (resolvers/http.js) for its
//   side effect alone: it sets a global fetch from node-fetch when there is none. Node has one
//   (engines: 20.19 and up), so it only loaded node-fetch; its stand-in is never read.
import { readFileSync } from "node:fs";
import { createRequire, Module } from "node:module";
import path from "node:path";
import { compileFunction } from "node:vm";
import type { Plugin } from "esbuild";

export interface LazyModule {
  /** The package whose code requires it. */
  importer: string;
  /** The specifier that package requires. */
  specifier: string;
  /** The public entry loaded instead, when it differs. */
  loads?: string;
  /** What the stand-in exports from the loaded module, as JavaScript over `m` (default: `m`). */
  exports?: string;
  /** Exports that are stand-ins themselves: read (and kept) without loading, loaded on their first property read. */
  deep?: readonly string[];
  /** The module's own file's name, when its specifier is relative: two specifiers of one module share one file (one instance). */
  file?: string;
  /** The module is a function its importer calls (pino): the stand-in is one too, calling the real one. */
  callable?: boolean;
}

export const LAZY_MODULES: readonly LazyModule[] = [
  { importer: "@stoplight/prism-http", specifier: "@faker-js/faker", loads: "@faker-js/faker/locale/en", exports: "({ default: m, faker: m })", deep: ["default", "faker"] },
  { importer: "@stoplight/prism-http", specifier: "@stoplight/http-spec/oas2/operation" },
  { importer: "@stoplight/prism-http", specifier: "@stoplight/http-spec/postman/operation" },
  { importer: "@stoplight/prism-http", specifier: "node-fetch" },
  { importer: "@stoplight/prism-http", specifier: "lodash/fp" },
  { importer: "@stoplight/json-schema-ref-parser", specifier: "isomorphic-fetch" },
];

/** Versions the reads above were checked against: another version is read again before it is bundled. */
const CHECKED_VERSIONS: Record<string, string> = { "@stoplight/prism-http": "5.12.0", "@stoplight/prism-core": "5.8.0", "@stoplight/json-schema-ref-parser": "9.2.7", accepts: "1.3.8", pino: "6.14.0" };

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The stand-in's source: a CommonJS module whose every property read loads `file` first. */
function standIn(file: string, exportsOf = "m", deep: readonly string[] = [], callable = false): string {
  return `"use strict";
let loaded;
const real = () => { if (loaded === undefined) { const m = require(${JSON.stringify(file)}); loaded = ${exportsOf}; } return loaded; };
const lazily = (target) => new Proxy({}, {
  get: (_t, key) => target()[key],
  has: (_t, key) => key in target(),
  ownKeys: () => Reflect.ownKeys(target()),
  getOwnPropertyDescriptor: (_t, key) => {
    const found = Object.getOwnPropertyDescriptor(target(), key);
    return found && { ...found, configurable: true };
  },
});
const deep = new Map(${JSON.stringify(deep)}.map((key) => [key, lazily(() => real()[key])]));
module.exports = new Proxy(${callable ? "() => {}" : "{}"}, {${callable ? "\n  apply: (_target, self, args) => Reflect.apply(real(), self, args)," : ""}
  get: (_target, key) => (deep.has(key) ? deep.get(key) : real()[key]),
  has: (_target, key) => deep.has(key) || key in real(),
  ownKeys: () => Reflect.ownKeys(real()),
  getOwnPropertyDescriptor: (_target, key) => {
    const found = Object.getOwnPropertyDescriptor(real(), key);
    return found && { ...found, configurable: true };
  },
});
`;
}

/** A name for a lazy module's own file: its specifier with "/" and "@" made plain. */
export const fileNameOf = (lazy: LazyModule) => `${(lazy.file ?? lazy.specifier).replace(/^@/, "").replace(/\//g, "-")}.cjs`;

export interface LazyRequireOptions {
  /** Modules not to stand in for (a browser build swaps them for stand-ins that throw). */
  skip?: readonly string[];
  /**
   * Where the stand-in requires the real module from, when it is built into a file of its own (a
   * Node bundle): an external specifier. Without it the real module is bundled beside the stand-in.
   */
  requireFrom?: (lazy: LazyModule) => string;
  /** Receives each module's resolved file, for building it on its own. */
  resolved?: Map<LazyModule, string>;
}

/** `modules` (default LAZY_MODULES) required from their importer's files become stand-ins. */
export function lazyRequire(options: LazyRequireOptions = {}, modules: readonly LazyModule[] = LAZY_MODULES): Plugin {
  const { skip = [], requireFrom, resolved } = options;
  return {
    name: "lazy-require",
    setup(build) {
      const specifiers = new RegExp(`^(?:${modules.map((m) => escape(m.specifier)).join("|")})$`);
      build.onResolve({ filter: specifiers }, (args) => {
        const lazy = modules.find((m) => m.specifier === args.path && args.importer.includes(`${path.sep}node_modules${path.sep}${m.importer}${path.sep}`));
        if (!lazy || skip.includes(lazy.specifier)) return undefined;
        const require = createRequire(args.importer);
        checkVersion(require, lazy.importer);
        const file = require.resolve(lazy.loads ?? lazy.specifier);
        resolved?.set(lazy, file);
        return { path: file, namespace: "lazy-require", pluginData: lazy };
      });
      build.onLoad({ filter: /.*/, namespace: "lazy-require" }, (args) => {
        const lazy = args.pluginData as LazyModule;
        return { contents: standIn(requireFrom?.(lazy) ?? args.path, lazy.exports, lazy.deep, lazy.callable), resolveDir: path.dirname(args.path), loader: "js" };
      });
      if (requireFrom) {
        const external = new RegExp(`^(?:${modules.map((m) => escape(requireFrom(m))).join("|")})$`);
        build.onResolve({ filter: external }, (args) => ({ path: args.path, external: true }));
      }
    },
  };
}

/**
 * The same stand-ins in a process that runs the sources with Prism from node_modules (the test
 * workers, the global setup): each lazy module's file is entered in `require.cache`, which Node's
 * `require` consults first (its documented cache, open to additions), as the stand-in the bundles
 * build from the same source. A module loaded already is left as it is.
 */
export function installLazyModules(modules: readonly LazyModule[] = LAZY_MODULES): void {
  const here = createRequire(import.meta.url);
  for (const lazy of modules) {
    const require = createRequire(here.resolve(lazy.importer));
    const target = require.resolve(lazy.specifier);
    if (require.cache[target]) continue;
    checkVersion(require, lazy.importer);
    const file = require.resolve(lazy.loads ?? lazy.specifier);
    // The real module, when it is the stand-in's own file, takes the stand-in's place in the cache.
    const load = (id: string) => {
      if (id === target) delete require.cache[target];
      return require(id);
    };
    const module = new Module(target);
    module.filename = target;
    compileFunction(standIn(file, lazy.exports, lazy.deep, lazy.callable), ["require", "module"], { filename: `lazy-require:${target}` })(load, module);
    module.loaded = true;
    require.cache[target] = module;
  }
}

function checkVersion(require: NodeJS.Require, name: string): void {
  const want = CHECKED_VERSIONS[name];
  if (!want) return;
  // The importer's own manifest: its "exports" may not list package.json, so it is found by walking up.
  let dir = path.dirname(require.resolve(name));
  while (!readManifest(dir, name)) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`lazy-require: no package.json of ${name} above ${require.resolve(name)}`);
    dir = up;
  }
  const version = readManifest(dir, name)!.version;
  if (version !== want) throw new Error(`lazy-require: ${name} is ${version}; its reads of the lazy modules were checked in ${want} (scripts/lib/lazy-require.ts): read them again`);
}

function readManifest(dir: string, name: string): { version: string } | undefined {
  try {
    const manifest = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { name?: string; version: string };
    return manifest.name === name ? manifest : undefined;
  } catch {
    return undefined;
  }
}
