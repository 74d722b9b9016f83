// npm run build: compiles src/, mock/ and generated/ to ES modules with declarations in dist/,
// and copies what the compiled code reads at run time (the bundled specs, the type declarations).
import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { repoRoot } from "./generate/bundle.js";

const dist = path.join(repoRoot, "dist");

function copy(relative: string) {
  const from = path.join(repoRoot, relative);
  if (!fs.existsSync(from)) return;
  const to = path.join(dist, relative);
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.cpSync(from, to, { recursive: true });
}

export function buildPackage(log: (line: string) => void = () => {}): void {
  log("build: cleaning dist/");
  fs.rmSync(dist, { recursive: true, force: true });
  log("build: compiling src/, mock/ and generated/ (tsc -p tsconfig.build.json)");
  const tsc = spawnSync(path.join(repoRoot, "node_modules/.bin/tsc"), ["-p", "tsconfig.build.json"], { cwd: repoRoot, encoding: "utf8" });
  if (tsc.status !== 0) throw new Error(`tsc failed:\n${tsc.stdout}${tsc.stderr}`);
  log("build: copying the bundled specs and declarations");
  // tsc neither emits nor copies .d.ts inputs and JSON read at run time.
  for (const file of ["generated/api.d.ts", "generated/openapi.json", "generated/openapi.yaml", "generated/asyncapi.json", "generated/asyncapi.yaml", "generated/control-openapi.json", "generated/control-api.d.ts", "mock/control/openapi.yaml"]) copy(file);
  fs.chmodSync(path.join(dist, "mock/cli.js"), 0o755);
  log("build: done");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    buildPackage((line) => console.error(line));
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  }
}
