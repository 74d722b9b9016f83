// The docs site as `npm run docs` builds it (scripts/build-docs.ts), built once per run for every
// file that needs it (the browser suites serve it, the package test packs it), apart from site/ so
// that a test leaves the reader's copy alone.
import path from "node:path";
import { buildDocs } from "../../scripts/build-docs.js";
import { sharedThisRun } from "./run-once.js";

export interface BuiltSite {
  /** The site's folder. */
  dir: string;
  /** Every page the build wrote, in the build's order. */
  pages: string[];
}

export async function builtDocsSite(): Promise<BuiltSite> {
  const { folder, value } = await sharedThisRun("docs-site", async (into) => {
    const built = await buildDocs({ outDir: path.join(into, "site"), log: (line) => line.startsWith("built ") && console.log(`docs: ${line}`) });
    return { pages: built.pages };
  });
  return { dir: path.join(folder, "site"), pages: value.pages };
}
