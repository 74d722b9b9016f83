// npm run docs [-- --out DIR --generated DIR]: builds the docs site from the bundled specs in
// generated/ (npm run generate writes them) and the Markdown under docs/: the landing page, the
// guides (docs/guides/), the API reference (Redoc), the events reference (the AsyncAPI renderer),
// the assumptions, demo keys, changelog and benchmarks pages. Every page works offline and from the
// file system; the mock serves the folder under /docs.
import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { DEMO_KEYS } from "../mock/keys/demo-keys.js";
import { buildApiReference } from "./docs/api-reference.js";
import { buildApiConsole, CONSOLE_SCRIPT, withCodeSamples } from "./docs/api-console.js";
import { collectAssumptions, collectNotShown, type SpecDocument } from "./docs/assumptions.js";
import { renderAssumptionsPage } from "./docs/assumptions-page.js";
import { changelogEntries, renderChangelogPage, type ReleasedContract } from "./docs/changelog-page.js";
import { buildEventsReference } from "./docs/events-reference.js";
import { GUIDE_IMAGES, GUIDES_DIR, loadGuides, renderBenchmarksPage, renderGuidePage, type Guide } from "./docs/guides.js";
import { renderKeysPage } from "./docs/keys-page.js";
import { renderLandingPage, type LandingFacts } from "./docs/landing-page.js";
import { PAGES, renderNav, type SiteNav } from "./docs/layout.js";
import { defaultBaseUrl, listEvents, listOperations } from "./docs/spec-facts.js";
import { loadFolder } from "../mock/diff/load.js";
import { listReleases, RELEASES_DIR } from "../mock/diff/releases.js";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export interface BuildDocsOptions {
  /** Folder of the site; replaced as a whole. Default site/. */
  outDir?: string;
  /** Folder holding openapi.json and asyncapi.json. Default generated/. */
  generatedDir?: string;
  /** Folder of the guides' Markdown. Default docs/guides/. */
  guidesDir?: string;
  /** The benchmarks page's Markdown, written by npm run bench. Default docs/benchmarks.md (a page saying how to make it when missing). */
  benchmarksFile?: string;
  log?: (line: string) => void;
}

export interface BuildDocsResult {
  outDir: string;
  pages: string[];
  assumptions: number;
  notShown: number;
  seconds: number;
}

async function readJson(file: string): Promise<any> {
  let text: string;
  try {
    text = await fs.readFile(file, "utf8");
  } catch {
    throw new Error(`${path.relative(process.cwd(), file) || file} is missing: run npm run generate first`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`${file} is not valid JSON: ${(error as Error).message}`);
  }
}

/**
 * The folder is replaced as a whole, so it must be missing, empty or an earlier build of the site:
 * nothing but the site's pages (.html files; the guides of an earlier build may have other names),
 * the API console's script and the guides' pictures (images/).
 */
async function checkReplaceable(out: string): Promise<void> {
  const entries = await fs.readdir(out, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [];
    throw new Error(`cannot use ${out} as the site folder: ${error.message}`);
  });
  const foreign = entries
    .filter((entry) => !(entry.isFile() && (/^[a-z0-9-]+\.html$/.test(entry.name) || entry.name === CONSOLE_SCRIPT)) && !(entry.isDirectory() && entry.name === GUIDE_IMAGES))
    .map((entry) => entry.name);
  if (foreign.length > 0) {
    throw new Error(`refusing to replace ${out}: it holds files that are not the docs site (${foreign.slice(0, 3).join(", ")}${foreign.length > 3 ? ", …" : ""})`);
  }
}

const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);

/** The pages built here from the specs, the mock's keys and docs/: assumptions, demo keys, changelog, guides, benchmarks, landing. */
async function writeOwnPages(
  dir: string,
  { openapi, asyncapi, description, guides, site, benchmarksFile, guidesDir = path.join(repoRoot, GUIDES_DIR) }: { openapi: any; asyncapi: any; description: string; guides: Guide[]; site: SiteNav; benchmarksFile?: string; guidesDir?: string },
  log: (line: string) => void,
) {
  const documents: SpecDocument[] = [
    { name: "OpenAPI", kind: "openapi", doc: openapi },
    { name: "AsyncAPI", kind: "asyncapi", doc: asyncapi },
  ];
  const assumptions = collectAssumptions(documents);
  const notShown = collectNotShown(documents);
  const operations = listOperations(openapi);
  const events = listEvents(asyncapi);
  const baseUrl = defaultBaseUrl(openapi);
  log(`writing assumptions page (${assumptions.length} assumptions, ${notShown.length} not-shown items)`);
  await fs.writeFile(path.join(dir, "assumptions.html"), renderAssumptionsPage({ assumptions, notShown }, site));
  log(`writing demo keys page (${DEMO_KEYS.length} keys)`);
  await fs.writeFile(path.join(dir, "keys.html"), renderKeysPage({ operations, baseUrl }, site));
  const releases: ReleasedContract[] = await Promise.all(
    (await listReleases(path.join(repoRoot, RELEASES_DIR))).map(async (release) => ({ ...(await loadFolder(release.dir, `release ${release.version}`)), version: release.version, date: release.date })),
  );
  log(`writing changelog page (${releases.length} recorded releases and the changes since the last)`);
  await fs.writeFile(path.join(dir, "changelog.html"), renderChangelogPage(changelogEntries(releases, { label: "working tree", openapi, asyncapi }), site));
  log(`writing ${guides.length} guides (${guides.map((guide) => guide.file).join(", ")})`);
  await Promise.all(guides.map((guide) => fs.writeFile(path.join(dir, guide.file), renderGuidePage(guide, guides, site))));
  const images = [...new Set(guides.flatMap((guide) => guide.images))];
  if (images.length) log(`copying the guides' pictures (${images.join(", ")})`);
  for (const image of images) {
    await fs.mkdir(path.join(dir, path.dirname(image)), { recursive: true });
    await fs.copyFile(path.join(guidesDir, image), path.join(dir, image));
  }
  log(`writing benchmarks page`);
  await fs.writeFile(path.join(dir, "benchmarks.html"), await renderBenchmarksPage(repoRoot, { operations, events }, site, benchmarksFile));
  log(`writing landing page (${operations.length} operations, ${events.length} event types)`);
  await fs.writeFile(path.join(dir, "index.html"), renderLandingPage(landingFacts(openapi, asyncapi, description, assumptions.length, guides), site));
  return { assumptions: assumptions.length, notShown: notShown.length };
}

/** What the landing page shows, from the bundled documents and the mock's keys. */
export function landingFacts(openapi: any, asyncapi: any, description: string, assumptionCount: number, guides: Guide[]): LandingFacts {
  const operations = listOperations(openapi);
  // The example call uses a key that may call every operation.
  const fullKey = DEMO_KEYS.find((key) => operations.every((operation) => !operation.permission || key.permissions.includes(operation.permission)));
  return {
    description,
    operations,
    events: listEvents(asyncapi),
    assumptionCount,
    keyCount: DEMO_KEYS.length,
    baseUrl: defaultBaseUrl(openapi),
    exampleKey: (fullKey ?? DEMO_KEYS[0]).key,
    guides: guides.map(({ slug, file, title, summary }) => ({ slug, file, title, summary })),
  };
}

export async function buildDocs({
  outDir = path.join(repoRoot, "site"),
  generatedDir = path.join(repoRoot, "generated"),
  guidesDir,
  benchmarksFile,
  log = () => {},
}: BuildDocsOptions = {}): Promise<BuildDocsResult> {
  const started = performance.now();
  const out = path.resolve(outDir);
  const generated = path.resolve(generatedDir);
  const [openapi, asyncapi] = await Promise.all([readJson(path.join(generated, "openapi.json")), readJson(path.join(generated, "asyncapi.json"))]);
  const packageJson = JSON.parse(await fs.readFile(path.join(repoRoot, "package.json"), "utf8")) as { description?: string };
  await checkReplaceable(out);
  // The guides first: every page's nav lists them, and a guide's broken link stops the build before any tool runs.
  const guides = await loadGuides(repoRoot, { operations: listOperations(openapi), events: listEvents(asyncapi) }, guidesDir);
  const site: SiteNav = { guides };

  // Built next to the target and swapped in at the end, so a failed build leaves the old site whole.
  const building = `${out}.building`;
  await fs.rm(building, { recursive: true, force: true });
  await fs.mkdir(building, { recursive: true });
  try {
    const timed = async (label: string, work: () => Promise<void>) => {
      const start = performance.now();
      log(`building ${label}…`);
      await work();
      log(`${label} done (${seconds(start)} s)`);
    };
    // The two external renderers and the API console's bundle run side by side; the hand-built pages are written meanwhile.
    const apiConsole = buildApiConsole(openapi, repoRoot);
    const tools = Promise.allSettled([
      timed("API console (esbuild: the loader in api.html, the console and the mock's handlers in api-console.js)", async () => {
        await fs.writeFile(path.join(building, CONSOLE_SCRIPT), (await apiConsole).console);
      }),
      timed("API reference (redocly build-docs)", () =>
        buildApiReference({ document: withCodeSamples(openapi), outFile: path.join(building, "api.html"), cwd: repoRoot, nav: renderNav("api.html", site), loader: apiConsole.then((built) => built.loader) }),
      ),
      timed("events reference (@asyncapi/react-component)", () =>
        buildEventsReference({ specPath: path.join(generated, "asyncapi.json"), outFile: path.join(building, "events.html"), nav: renderNav("events.html", site) }),
      ),
    ]);
    let counts: { assumptions: number; notShown: number };
    try {
      counts = await writeOwnPages(building, { openapi, asyncapi, description: packageJson.description ?? "", guides, site, benchmarksFile, guidesDir }, log);
    } finally {
      // Never leave a renderer running (or writing into a removed folder) when something failed.
      const settled = await tools;
      const failed = settled.find((result): result is PromiseRejectedResult => result.status === "rejected");
      if (failed) throw failed.reason;
    }

    await fs.rm(out, { recursive: true, force: true });
    await fs.rename(building, out);
    const pages = [...PAGES.map((page) => page.file), ...guides.map((guide) => guide.file)];
    const took = seconds(started);
    log(`built ${path.relative(process.cwd(), out) || out}/ (${pages.length} pages) in ${took} s`);
    return { outDir: out, pages, ...counts, seconds: Number(took) };
  } catch (error) {
    await fs.rm(building, { recursive: true, force: true });
    throw error;
  }
}

const HELP = `Usage: npm run docs [-- --out DIR] [--generated DIR]

Builds the docs site from the bundled specs and docs/: index.html, one page per guide of
docs/guides/, api.html (Redoc, with a "Try it" console: api-console.js), events.html (AsyncAPI), assumptions.html, keys.html,
changelog.html (from contract-releases/) and benchmarks.html (docs/benchmarks.md, which
npm run bench writes). Prints the time it took.

Options:
  --out DIR         Folder to write (replaced as a whole; default site/).
  --generated DIR   Folder with openapi.json and asyncapi.json (default generated/).
  -h, --help        Show this help.`;

async function main(): Promise<void> {
  let values: { out?: string; generated?: string; help?: boolean };
  try {
    ({ values } = parseArgs({ options: { out: { type: "string" }, generated: { type: "string" }, help: { type: "boolean", short: "h" } } }));
  } catch (error) {
    throw new Error(`${(error as Error).message} (see --help)`);
  }
  if (values.help) {
    console.log(HELP);
    return;
  }
  await buildDocs({
    outDir: values.out ? path.resolve(values.out) : undefined,
    generatedDir: values.generated ? path.resolve(values.generated) : undefined,
    log: (line) => console.error(`docs: ${line}`),
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(`docs: ${error instanceof Error ? error.message : String(error)}`.split("\n")[0]);
    process.exit(1);
  });
}
