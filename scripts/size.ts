// npm run size: what the MSW handlers cost a browser page. Bundles what a frontend's development
// build would hold to mock the API in the browser (msw/browser's setupWorker, hr-service-mock/msw's
// createHandlers with the bundled spec, the typed client) with the settings of
// scripts/lib/msw-bundle.ts, minified, and prints its size raw and gzipped, then the largest
// packages in it. A measurement, not a test.
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { mswBrowserOptions } from "./lib/msw-bundle.js";
import { repoRoot } from "./lib/spec-document.js";

const ENTRY = `
import { setupWorker } from "msw/browser";
import { createHandlers } from "./mock/msw/index.ts";
import { createClient } from "./src/client/index.ts";
export const start = () => setupWorker(...createHandlers()).start();
export { createClient };
`;
const TOP = 12;

const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;

async function main(): Promise<void> {
  console.error("size: bundling msw/browser + hr-service-mock/msw + the client (esbuild, minified)");
  const result = await build({
    ...mswBrowserOptions(),
    stdin: { contents: ENTRY, resolveDir: repoRoot, loader: "ts", sourcefile: "size-entry.ts" },
    minify: true,
    write: false,
    metafile: true,
  });
  const bytes = result.outputFiles[0].contents;
  const byPackage = new Map<string, number>();
  for (const output of Object.values(result.metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const name = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? input.split("/").slice(0, 2).join("/");
      byPackage.set(name, (byPackage.get(name) ?? 0) + bytesInOutput);
    }
  }
  console.log(`MSW handlers + client, browser bundle: ${kb(bytes.length)} minified, ${kb(gzipSync(bytes).length)} gzipped`);
  console.log(`largest parts (minified, before gzip):`);
  for (const [name, size] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`  ${kb(size).padStart(7)}  ${name}`);
}

main().catch((error: unknown) => {
  console.error(`size: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
  process.exit(1);
});
