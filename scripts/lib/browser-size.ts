// The size of a browser page holding the MSW handlers (npm run size, npm run bench): esbuild with
// the settings of scripts/lib/msw-bundle.ts, minified, code splitting on. The first chunk is the
// entry file and every chunk it imports statically (what a page loads before its code runs); the
// whole adds the chunks it imports dynamically (loaded on first use).
import { gzipSync } from "node:zlib";
import path from "node:path";
import type { Metafile } from "esbuild";
import { buildPage } from "./msw-bundle.js";

/** What a frontend's development build holds to mock the API in the browser. */
export const PAGE_ENTRY = `
import { setupWorker } from "msw/browser";
import { createHandlers } from "hr-service-mock/msw";
import { createClient } from "hr-service-contract/client";
export const start = () => setupWorker(...createHandlers()).start();
export { createClient };
`;

export interface BundlePart {
  files: number;
  bytes: number;
  gzipBytes: number;
  /** Bytes in the output by package (or repository folder), largest first. */
  byPackage: Array<[string, number]>;
}

export interface BrowserBundleSize {
  first: BundlePart;
  whole: BundlePart;
}

const packageOf = (input: string) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? input.replace(/^[\w-]+:/, "").split("/").slice(0, 2).join("/");

/**
 * Bundles `entry` (default PAGE_ENTRY) for a browser; in a clone of the repository the package
 * names resolve to the sources (tsconfig paths), in an installed project to the packages;
 * `nodePaths` for code outside both (a peer's generated handlers, from the clone's node_modules).
 */
export async function measureBrowserBundle(resolveDir: string, entry = PAGE_ENTRY, nodePaths: string[] = []): Promise<BrowserBundleSize> {
  const { files, metafile } = await buildPage({ entry: { source: entry, resolveDir }, outdir: path.join(resolveDir, ".size-out"), nodePaths, splitting: true, minify: true });
  const texts = new Map(files.map((file) => [path.relative(process.cwd(), file.path), file.contents]));
  const outputs = metafile.outputs;
  const entryFile = Object.keys(outputs).find((file) => outputs[file].entryPoint !== undefined && file.endsWith(".js"))!;
  const first = reachable(outputs, entryFile, ["import-statement"]);
  const whole = reachable(outputs, entryFile, ["import-statement", "dynamic-import"]);
  return { first: part(outputs, texts, first), whole: part(outputs, texts, whole) };
}

function reachable(outputs: Metafile["outputs"], from: string, kinds: string[]): string[] {
  const seen = new Set([from]);
  const pending = [from];
  while (pending.length) {
    for (const imported of outputs[pending.pop()!].imports) {
      if (imported.external || !kinds.includes(imported.kind) || seen.has(imported.path)) continue;
      seen.add(imported.path);
      pending.push(imported.path);
    }
  }
  return [...seen];
}

function part(outputs: Metafile["outputs"], texts: Map<string, Uint8Array>, files: string[]): BundlePart {
  let bytes = 0;
  let gzipBytes = 0;
  const byPackage = new Map<string, number>();
  for (const file of files) {
    const text = texts.get(file);
    if (!text) throw new Error(`size: esbuild listed ${file} but wrote no such file`);
    bytes += text.length;
    gzipBytes += gzipSync(text).length;
    for (const [input, { bytesInOutput }] of Object.entries(outputs[file].inputs)) byPackage.set(packageOf(input), (byPackage.get(packageOf(input)) ?? 0) + bytesInOutput);
  }
  return { files: files.length, bytes, gzipBytes, byPackage: [...byPackage].sort((a, b) => b[1] - a[1]) };
}
