// The mock's declarations as a consumer's TypeScript reads them: one .d.ts per export, holding only
// the types its exports reach, made from the sources by rollup with rollup-plugin-dts (TypeScript's
// declaration emit, then a bundle). Per-file declarations would import the internal modules'
// libraries (Prism's and faker's types), which the bundled package no longer installs; the exports
// themselves reach none of them, so a project that checks its libraries' types (skipLibCheck off)
// finds every import it reads. The type check itself is the project's (tsc --noEmit -p .).
import fs from "node:fs";
import path from "node:path";
import { rollup } from "rollup";
import { dts } from "rollup-plugin-dts";

export interface DeclarationEntry {
  /** The source file of the export, from the repository root (mock/index.ts). */
  source: string;
  /** Where its declarations go, from dist/ (mock/index.d.ts). */
  out: string;
}

/** Writes one declaration file per entry into `dist`, shared types in a chunk beside them; other packages stay imports. */
export async function bundleDeclarations(repoRoot: string, dist: string, tsconfig: string, entries: DeclarationEntry[], log: (line: string) => void = () => {}): Promise<void> {
  const input = Object.fromEntries(entries.map((entry) => [entry.out.replace(/\.d\.ts$/, ""), path.join(repoRoot, entry.source)]));
  const bundle = await rollup({
    input,
    plugins: [dts({ tsconfig: path.join(repoRoot, tsconfig) })],
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
}
