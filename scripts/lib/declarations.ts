// The mock's declarations as a consumer's TypeScript reads them: one .d.ts per export, holding only
// the types its exports reach (rollup with rollup-plugin-dts over tsc's per-file output). tsc's
// per-file files import the internal modules' libraries (Prism's and faker's types), which the
// bundled package no longer installs; the exports themselves reach none of them, and a project that
// checks its libraries' types (skipLibCheck off) then finds every import it reads.
import fs from "node:fs";
import path from "node:path";
import { rollup } from "rollup";
import { dts } from "rollup-plugin-dts";

const RELATIVE_IMPORT = /(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g;

function declarationFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).filter((e) => e.isFile() && e.name.endsWith(".d.ts")).map((e) => path.join(e.parentPath, e.name));
}

/**
 * tsc neither emits nor copies declaration inputs (generated/data-file.d.ts): each one a
 * declaration in `dist` imports is copied from the repository, where dist/ keeps its layout.
 */
export function copyDeclarationInputs(repoRoot: string, dist: string): string[] {
  const copied: string[] = [];
  const pending = declarationFiles(dist);
  while (pending.length) {
    const file = pending.pop()!;
    for (const [, specifier] of fs.readFileSync(file, "utf8").matchAll(RELATIVE_IMPORT)) {
      const target = path.resolve(path.dirname(file), specifier).replace(/\.js$/, ".d.ts");
      if (!target.endsWith(".d.ts") || fs.existsSync(target)) continue;
      const source = path.join(repoRoot, path.relative(dist, target));
      if (!fs.existsSync(source)) throw new Error(`declarations: ${path.relative(dist, file)} imports ${specifier}, which neither tsc nor the repository has`);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.copyFileSync(source, target);
      copied.push(path.relative(dist, target));
      pending.push(target);
    }
  }
  return copied;
}

/**
 * Replaces the per-file declarations under `dist` by one file per entry (`entries`: paths in dist/
 * of the exports' "types"), shared types in a chunk beside them; other packages stay imports.
 */
export async function bundleDeclarations(dist: string, entries: string[], log: (line: string) => void = () => {}): Promise<void> {
  const input = Object.fromEntries(entries.map((entry) => [entry.replace(/\.d\.ts$/, ""), path.join(dist, entry)]));
  const bundle = await rollup({
    input,
    plugins: [dts()],
    // Every bare specifier (node:http, msw) is another package's; only relative files are bundled.
    external: (id) => !id.startsWith(".") && !path.isAbsolute(id),
    onwarn: (warning) => log(`declarations: ${warning.message}`),
  });
  const { output } = await bundle.generate({ format: "es", entryFileNames: "[name].d.ts", chunkFileNames: "mock/types-[hash].d.ts" });
  await bundle.close();
  for (const file of declarationFiles(dist)) fs.rmSync(file);
  for (const chunk of output) {
    if (chunk.type !== "chunk") continue;
    const to = path.join(dist, chunk.fileName);
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.writeFileSync(to, chunk.code);
  }
}
