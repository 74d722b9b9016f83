// The mock's declarations as a consumer's TypeScript reads them: one .d.ts per export, holding only
// the types its exports reach. TypeScript 7 (scripts/lib/native-tsc.ts) writes one declaration file
// per source file, then rollup with rollup-plugin-dts bundles them. Per-file declarations would
// import the internal modules' libraries (Prism's and faker's types), which the bundled package no
// longer installs; the exports themselves reach none of them, so a project that checks its
// libraries' types (skipLibCheck off) finds every import it reads.
// rollup-plugin-dts given the sources instead would run TypeScript 5's declaration emit over the
// whole mock in this process: about four times the CPU of the native emit plus the bundling.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { rollup } from "rollup";
import { dts } from "rollup-plugin-dts";
import { nativeTsc } from "./native-tsc.js";

export interface DeclarationEntry {
  /** The source file of the export, from the repository root (mock/index.ts). */
  source: string;
  /** Where its declarations go, from dist/ (mock/index.d.ts). */
  out: string;
}

/**
 * Writes one declaration file per entry into `dist`, shared types in a chunk beside them; other
 * packages stay imports. `tsconfig` (from the repository root) compiles the entries' sources;
 * `inputs` are declaration files of the repository that tsc reads but never emits (generated/api.d.ts);
 * `tscArgs` are more of tsc's options (--noCheck).
 */
export async function bundleDeclarations(repoRoot: string, dist: string, tsconfig: string, entries: DeclarationEntry[], inputs: readonly string[], log: (line: string) => void = () => {}, tscArgs: string[] = []): Promise<void> {
  const emitted = fs.mkdtempSync(path.join(os.tmpdir(), "hr-declarations-"));
  try {
    // The project's layout under `emitted` (rootDir is the repository), as the sources import each other.
    const tsc = await nativeTsc(["-p", path.join(repoRoot, tsconfig), "--emitDeclarationOnly", "--outDir", emitted, ...tscArgs], repoRoot);
    if (tsc.status !== 0) throw new Error(`tsc -p ${tsconfig} --emitDeclarationOnly failed:\n${tsc.output}`);
    for (const file of inputs) fs.cpSync(path.join(repoRoot, file), path.join(emitted, file));
    const input = Object.fromEntries(entries.map((entry) => [entry.out.replace(/\.d\.ts$/, ""), path.join(emitted, entry.source.replace(/\.ts$/, ".d.ts"))]));
    const bundle = await rollup({
      input,
      plugins: [dts()],
      // Every bare specifier (node:http, msw) is another package's; only the repository's files are bundled.
      external: (id) => !id.startsWith(".") && !path.isAbsolute(id),
      onwarn: (warning) => log(`declarations: ${warning.message}`),
    });
    const { output } = await bundle.generate({ format: "es", entryFileNames: "[name].d.ts", chunkFileNames: "mock/types-[hash].d.ts" });
    await bundle.close();
    for (const chunk of output) {
      if (chunk.type !== "chunk") continue;
      const to = path.join(dist, chunk.fileName);
      fs.mkdirSync(path.dirname(to), { recursive: true });
      fs.writeFileSync(to, chunk.code);
    }
  } finally {
    fs.rmSync(emitted, { recursive: true, force: true });
  }
}
