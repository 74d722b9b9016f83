// npm run build: compiles both packages to ES modules with declarations.
// - hr-service-contract (this folder): src/ and generated/ into dist/ (client, webhooks, the live
//   contract suite and its bin, the bundled specs and types).
// - hr-service-mock (mock/): its entries (package.json's exports and the CLI its bin runs) bundled
//   with the libraries they import into mock/dist/ (scripts/lib/node-bundle.ts), one declaration
//   file per export (scripts/lib/declarations.ts), the bundled specs (the control API's as
//   generated/control-openapi.json), the built docs site (mock/dist/site/, served
//   under /docs), hr-service-mock/msw bundled for browsers (scripts/lib/msw-bundle.ts), and
//   THIRD_PARTY_NOTICES naming every bundled package with its licence (scripts/lib/notices.ts).
//   Its libraries are development dependencies: an install brings none of them.
// Each package's dist/ keeps the repository's relative layout (mock/cli/main.ts -> dist/mock/cli/main.js), so
// the built code finds its files the way the sources do.
// The mock's builders (esbuild, rollup, the docs site's Redocly and AsyncAPI renderers) are imported
// when the mock is built, not at start-up: the contract's prepack needs only tsc, and loading them
// all cost it about 3.7 s of CPU against 1.4 s for the compiler.
import fs from "node:fs";
import path from "node:path";
import { nativeTsc } from "./lib/native-tsc.js";
import { repoRoot } from "./lib/spec-document.js";
import { MOCK_ENTRIES_BEYOND_EXPORTS, MOCK_EXTERNAL, mockEntries, mockExportTargets, sourceOf } from "./lib/package-layout.js";

export { MOCK_ENTRIES_BEYOND_EXPORTS, mockEntries, sourceOf };

// openapi.failure-200.json: the read API as a service answering failures with HTTP 200 describes it (for client generators).
const BUNDLED = ["generated/api.d.ts", "generated/openapi.json", "generated/openapi.yaml", "generated/openapi.failure-200.json", "generated/asyncapi.json", "generated/asyncapi.yaml"];

export const PACKAGES = {
  contract: { dir: repoRoot, tsconfig: "tsconfig.build.json", copy: BUNDLED, bins: ["dist/src/contract/cli.js"] },
  mock: { dir: path.join(repoRoot, "mock"), tsconfig: "mock/tsconfig.build.json", copy: [...BUNDLED.filter((file) => !file.endsWith(".d.ts")), "generated/openapi.failure-200.yaml", "generated/control-openapi.json", "generated/prism-operations.json", "generated/data-file.schema.json", "generated/scenario.schema.json"], bins: ["bin/hr-mock.js"] },
} as const;

export type PackageName = keyof typeof PACKAGES;

/** TypeScript's declaration files of generated/ (api.d.ts): tsc reads them, and neither emits nor copies them. */
function generatedDeclarations(): string[] {
  return fs.readdirSync(path.join(repoRoot, "generated")).filter((file) => file.endsWith(".d.ts")).map((file) => `generated/${file}`);
}

async function compile(name: PackageName, log: (line: string) => void, options: BuildOptions): Promise<string> {
  const target = PACKAGES[name];
  const dist = path.join(target.dir, "dist");
  log(`build ${name}: cleaning ${path.relative(repoRoot, dist)}/`);
  fs.rmSync(dist, { recursive: true, force: true });
  // The mock's JavaScript and declarations come from its bundles (bundleMock); the contract's from tsc.
  if (name === "contract") {
    log(`build ${name}: tsc -p ${target.tsconfig} (TypeScript 7)`);
    // A child process, without blocking this one: the mock bundles meanwhile.
    const tsc = await nativeTsc(["-p", target.tsconfig, ...noCheck(options)], repoRoot);
    if (tsc.status !== 0) throw new Error(`tsc -p ${target.tsconfig} failed:\n${tsc.output}`);
  }
  // tsc neither emits nor copies .d.ts inputs and the files read at run time.
  for (const file of target.copy) {
    const to = path.join(dist, file);
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.cpSync(path.join(repoRoot, file), to);
  }
  return dist;
}

async function bundleMock(dist: string, log: (line: string) => void, options: BuildOptions): Promise<void> {
  // Each export's "types" file holds the declarations of its "import" entry's source.
  const declarations = mockExportTargets()
    .filter((target) => target.types && target.import)
    .map((target) => ({ source: sourceOf(target.import), out: path.relative("dist", target.types) }));
  log(`build mock: declarations of ${declarations.map((d) => d.out).join(", ")} (TypeScript 7, then rollup-plugin-dts)`);
  const entries = mockEntries();
  log(options.nodeBundle ? `build mock: Node bundle of ${entries.join(", ")} copied from ${options.nodeBundle}` : `build mock: bundling ${entries.join(", ")} for Node (esbuild)`);
  // An export's "browser" file is its "import" entry built for browsers (scripts/lib/msw-bundle.ts).
  const browserTargets = mockExportTargets().filter((t) => t.browser && t.import);
  for (const target of browserTargets) log(`build mock: ${sourceOf(target.import)} for browsers into mock/${target.browser.replace(/^\.\//, "")} (esbuild, code split)`);
  const [{ bundleDeclarations }, { copyNodeBundle }, { bundleForNode }, { buildMswForBrowsers }, { bundledPackages, formatNotices }] = await Promise.all([
    import("./lib/declarations.js"),
    import("./dev-bundle.js"),
    import("./lib/node-bundle.js"),
    import("./lib/msw-bundle.js"),
    import("./lib/notices.js"),
  ]);
  // Side by side: each writes files of its own, and tsc runs in a child process while esbuild bundles.
  const [, node, browser] = await Promise.all([
    bundleDeclarations(repoRoot, dist, PACKAGES.mock.tsconfig, declarations, generatedDeclarations(), (line) => log(`build mock: ${line}`), noCheck(options)),
    options.nodeBundle ? copyNodeBundle(options.nodeBundle, dist) : bundleForNode({ repoRoot, entries, dist, external: MOCK_EXTERNAL }),
    Promise.all(
      browserTargets.map((target) => {
        const file = path.join(PACKAGES.mock.dir, target.browser);
        return buildMswForBrowsers(path.join(repoRoot, sourceOf(target.import)), path.dirname(file), path.basename(file, ".js"));
      }),
    ),
  ]);
  const packages = bundledPackages(repoRoot, [...node.metafiles, ...browser.map((b) => b.metafile)]);
  log(`build mock: THIRD_PARTY_NOTICES (${packages.length} bundled packages)`);
  fs.writeFileSync(path.join(PACKAGES.mock.dir, "THIRD_PARTY_NOTICES"), formatNotices("hr-service-mock", packages));
}

export interface BuildOptions {
  /** A docs site already built by `npm run docs`'s build function from this tree, copied instead of built again (the tests build it once per run). */
  docsSite?: string;
  /**
   * The folder of a development bundle built from this tree (scripts/dev-bundle.ts, the same
   * entries and settings): its Node bundle copied instead of built again (the tests start hr-mock
   * from it and build it once per change of the sources).
   */
  nodeBundle?: string;
  /**
   * Emit without type-checking the sources (tsc --noCheck: the same files; errors of declaration
   * emit still fail the build), for a run that type-checks them elsewhere (the tests'
   * test/spec/typecheck.test.ts).
   */
  typeChecked?: boolean;
}

const noCheck = (options: BuildOptions) => (options.typeChecked ? ["--noCheck"] : []);

/** The mock's docs site in `dist`/site/: copied from options.docsSite where given, else built. */
async function docsSite(dist: string, log: (line: string) => void, options: BuildOptions): Promise<void> {
  if (options.docsSite) {
    log(`build mock: docs site copied from ${options.docsSite} into mock/dist/site/`);
    fs.cpSync(options.docsSite, path.join(dist, "site"), { recursive: true });
    return;
  }
  log("build mock: docs site into mock/dist/site/");
  const { buildDocs } = await import("./build-docs.js");
  await buildDocs({ outDir: path.join(dist, "site"), log: (line) => log(`build mock: docs: ${line}`) });
}

export async function buildPackages(names: readonly PackageName[] = ["contract", "mock"], log: (line: string) => void = () => {}, options: BuildOptions = {}): Promise<void> {
  // The packages build side by side: the contract's tsc runs as a child while the mock bundles here.
  await Promise.all(
    names.map(async (name) => {
      const dist = await compile(name, log, options);
      // The docs site beside the bundles: it writes only dist/site/ and reads none of their files.
      if (name === "mock") await Promise.all([bundleMock(dist, log, options), docsSite(dist, log, options)]);
      for (const bin of PACKAGES[name].bins) fs.chmodSync(path.join(PACKAGES[name].dir, bin), 0o755);
    }),
  );
  log("build: done");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const names = process.argv.slice(2);
  const unknown = names.filter((name) => !(name in PACKAGES));
  if (unknown.length) {
    console.error(`build: unknown package ${unknown[0]} (packages: ${Object.keys(PACKAGES).join(", ")})`);
    process.exit(2);
  }
  buildPackages(names.length ? (names as PackageName[]) : undefined, (line) => console.error(line)).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  });
}
