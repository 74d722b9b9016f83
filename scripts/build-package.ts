// npm run build: compiles both packages to ES modules with declarations.
// - hr-service-contract (this folder): src/ and generated/ into dist/ (client, webhooks, the live
//   contract suite and its bin, the bundled specs and types).
// - hr-service-mock (mock/): mock/ and the modules it imports into mock/dist/, with the bundled
//   specs (the control API's too, as generated/control-openapi.json: its split source under
//   mock/control/openapi/ refers to files outside the package), the built docs site
//   (mock/dist/site/, served under /docs), and hr-service-mock/msw bundled for browsers
//   (scripts/lib/msw-bundle.ts).
// Each package's dist/ keeps the repository's relative layout, so the compiled code finds its files
// the way the sources do.
import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { buildDocs } from "./build-docs.js";
import { buildMswForBrowsers } from "./lib/msw-bundle.js";
import { repoRoot } from "./generate/bundle.js";

// openapi.failure-200.json: the read API as a service answering failures with HTTP 200 describes it (for client generators).
const BUNDLED = ["generated/api.d.ts", "generated/openapi.json", "generated/openapi.yaml", "generated/openapi.failure-200.json", "generated/asyncapi.json", "generated/asyncapi.yaml"];

export const PACKAGES = {
  contract: { dir: repoRoot, tsconfig: "tsconfig.build.json", copy: BUNDLED, bins: ["dist/src/contract/cli.js"] },
  mock: { dir: path.join(repoRoot, "mock"), tsconfig: "mock/tsconfig.build.json", copy: [...BUNDLED, "generated/openapi.failure-200.yaml", "generated/control-openapi.json", "generated/data-file.schema.json", "generated/control-api.d.ts", "generated/scenario.schema.json"], bins: ["bin/hr-mock.js"] },
} as const;

export type PackageName = keyof typeof PACKAGES;

function compile(name: PackageName, log: (line: string) => void): string {
  const target = PACKAGES[name];
  const dist = path.join(target.dir, "dist");
  log(`build ${name}: cleaning ${path.relative(repoRoot, dist)}/`);
  fs.rmSync(dist, { recursive: true, force: true });
  log(`build ${name}: tsc -p ${target.tsconfig}`);
  const tsc = spawnSync(path.join(repoRoot, "node_modules/.bin/tsc"), ["-p", target.tsconfig], { cwd: repoRoot, encoding: "utf8" });
  if (tsc.status !== 0) throw new Error(`tsc -p ${target.tsconfig} failed:\n${tsc.stdout}${tsc.stderr}`);
  // tsc neither emits nor copies .d.ts inputs and the files read at run time.
  for (const file of target.copy) {
    const to = path.join(dist, file);
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.cpSync(path.join(repoRoot, file), to);
  }
  for (const bin of target.bins) fs.chmodSync(path.join(target.dir, bin), 0o755);
  return dist;
}

export async function buildPackages(names: readonly PackageName[] = ["contract", "mock"], log: (line: string) => void = () => {}): Promise<void> {
  for (const name of names) {
    const dist = compile(name, log);
    if (name === "mock") {
      log("build mock: the MSW handlers for browsers into mock/dist/mock/msw/browser.js (esbuild)");
      await buildMswForBrowsers(path.join(dist, "mock/msw/browser.js"));
      log("build mock: docs site into mock/dist/site/");
      await buildDocs({ outDir: path.join(dist, "site"), log: (line) => log(`build mock: docs: ${line}`) });
    }
  }
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
