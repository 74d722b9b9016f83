// The guides: one Markdown file per guide under docs/guides/ (the only copy; the README links to
// them), each rendered into a page of the site, in the reading order below. Links are checked as
// the pages are built: a guide links to another guide or docs/benchmarks.md by its .md file (so the
// link works on GitHub too), to an operation as api.html#<operationId>, to an event as
// events.html#<event type>, and to the site's other pages by their file; anything else relative
// (a file of the repository, say) is refused, because the site does not have it. A picture is an
// SVG (text, kept in the repository) under docs/guides/images/, shown with ![what it shows](images/x.svg)
// on GitHub and on the site alike: the build copies it to the site's images/. A line
// `<!-- include: FILE -->` shows a file of the repository as a code block on the site (the file
// itself, never a copy that could drift: the CI recipes, which a test runs).
import fs from "node:fs/promises";
import path from "node:path";
import { escapeHtml } from "./html.js";
import { PAGES, renderPage, type NavGuide, type SiteNav } from "./layout.js";
import { renderMarkdown, type Heading } from "./markdown.js";
import { eventLink, operationLink } from "./reference-links.js";
import type { EventFact, OperationFact } from "./spec-facts.js";

/** The reading order: the file names (without .md) of docs/guides/. A new guide is added here. */
export const GUIDE_ORDER = [
  "getting-started",
  "developing-a-frontend",
  "mocking-with-msw",
  "verify-what-your-app-sent",
  "data-sandboxes-and-state",
  "run-one-mock-for-many-teams",
  "receiving-webhooks",
  "checking-a-deployment-in-ci",
  "check-your-real-traffic",
  "pact-and-this-contract",
  "changing-the-contract",
  "limits-and-abuse",
  "how-the-mock-is-built",
] as const;

export const GUIDES_DIR = path.join("docs", "guides");
/** Where the guides' pictures are, beside the guides; the site has them under the same name. */
export const GUIDE_IMAGES = "images";
export const BENCHMARKS_FILE = path.join("docs", "benchmarks.md");

export interface Guide extends NavGuide {
  slug: string;
  /** The Markdown file, relative to the repository. */
  source: string;
  summary: string;
  html: string;
  headings: Heading[];
  /** The pictures it shows, as the site names them (images/x.svg, copied from docs/guides/images/). */
  images: string[];
}

export interface ReferenceFacts {
  operations: OperationFact[];
  events: EventFact[];
}

export class GuideError extends Error {
  override name = "GuideError";
}

/** The site page a repository Markdown file becomes, if any. */
function pageOfMarkdown(repoPath: string): string | undefined {
  const posix = repoPath.split(path.sep).join("/");
  if (posix === BENCHMARKS_FILE.split(path.sep).join("/")) return "benchmarks.html";
  const guide = /^docs\/guides\/([a-z0-9-]+)\.md$/.exec(posix)?.[1];
  return guide && (GUIDE_ORDER as readonly string[]).includes(guide) ? `${guide}.html` : undefined;
}

/**
 * The link resolver for a Markdown file at `source` (relative to the repository): what a link
 * written there becomes on the site, or a GuideError naming the link.
 */
export function siteLinkResolver(source: string, facts: ReferenceFacts): (href: string) => string {
  const ownPages = new Set<string>(PAGES.map((page) => page.file));
  return (href) => {
    if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith("#")) return href; // another site, mailto:, or this page
    const [target, fragment] = splitFragment(href);
    if (target === "api.html" && fragment && !fragment.startsWith("/")) {
      const operation = facts.operations.find((op) => op.operationId === fragment);
      if (!operation) throw new GuideError(`${source}: ${href} names no operation of the API (operationIds: ${facts.operations.map((op) => op.operationId).join(", ")})`);
      return operationLink(operation);
    }
    if (target === "events.html" && fragment) {
      const event = facts.events.find((e) => e.name === fragment);
      return event ? eventLink(event) : href;
    }
    if (ownPages.has(target)) return href;
    if (target.endsWith(".md")) {
      const repoPath = path.normalize(path.join(path.dirname(source), target));
      const page = pageOfMarkdown(repoPath);
      if (page) return fragment === undefined ? page : `${page}#${fragment}`;
    }
    throw new GuideError(`${source}: the link ${href} points at no page of the site (guides link to guides by their .md file, to operations as api.html#<operationId>, to events as events.html#<type>; name repository files as code instead)`);
  };
}

/**
 * The image resolver for a guide at `source`: a picture under docs/guides/images/ (an SVG) keeps its
 * relative name, which is where the site has it; anything else is a GuideError naming it.
 */
export function siteImageResolver(source: string): (href: string) => string {
  return (href) => {
    const repoPath = path.posix.normalize(path.posix.join(path.posix.dirname(source.split(path.sep).join("/")), href));
    const name = new RegExp(`^docs/guides/${GUIDE_IMAGES}/([a-z0-9-]+\\.svg)$`).exec(repoPath)?.[1];
    if (!name) throw new GuideError(`${source}: the picture ${href} is not an SVG of docs/guides/${GUIDE_IMAGES}/ (the site has no other pictures)`);
    return `${GUIDE_IMAGES}/${name}`;
  };
}

function splitFragment(href: string): [string, string | undefined] {
  const at = href.indexOf("#");
  return at < 0 ? [href, undefined] : [href.slice(0, at), decodeURIComponent(href.slice(at + 1))];
}

/** The language of a code block showing a file, by the file's extension. */
const BLOCK_LANGUAGES: Record<string, string> = { ".yml": "yaml", ".yaml": "yaml", ".json": "json", ".ts": "ts", ".sh": "sh", ".conf": "nginx" };

/**
 * A guide's `<!-- include: FILE -->` lines, each made a code block of that file of the repository:
 * the site shows the file itself (a CI recipe a test runs), where the guide on GitHub names it.
 */
export async function includeFiles(text: string, source: string, root: string): Promise<string> {
  let out = text;
  for (const [line, file] of text.matchAll(/^<!-- include: (\S+) -->$/gm)) {
    const content = await fs.readFile(path.join(root, file), "utf8").catch(() => {
      throw new GuideError(`${source}: ${line} names no file of the repository`);
    });
    // A fence longer than any run of backticks in the file.
    const fence = "`".repeat(Math.max(3, ...[...content.matchAll(/`+/g)].map(([run]) => run.length + 1)));
    out = out.replace(line, `${fence}${BLOCK_LANGUAGES[path.extname(file)] ?? ""}\n${content.trimEnd()}\n${fence}`);
  }
  return out;
}

/** Reads and renders every guide of `dir`, in GUIDE_ORDER; a file missing from either side is an error. */
export async function loadGuides(repoRoot: string, facts: ReferenceFacts, dir = path.join(repoRoot, GUIDES_DIR)): Promise<Guide[]> {
  const files = (await fs.readdir(dir).catch(() => [] as string[])).filter((name) => name.endsWith(".md"));
  const unlisted = files.map((name) => name.slice(0, -3)).filter((slug) => !(GUIDE_ORDER as readonly string[]).includes(slug));
  if (unlisted.length) throw new GuideError(`${GUIDES_DIR}: ${unlisted.map((slug) => `${slug}.md`).join(", ")} not in GUIDE_ORDER (scripts/docs/guides.ts), which sets the reading order`);
  const missing = GUIDE_ORDER.filter((slug) => !files.includes(`${slug}.md`));
  if (missing.length) throw new GuideError(`${GUIDES_DIR}: no ${missing.map((slug) => `${slug}.md`).join(", ")}, which GUIDE_ORDER lists`);
  return Promise.all(
    GUIDE_ORDER.map(async (slug) => {
      const source = path.join(GUIDES_DIR, `${slug}.md`);
      const images: string[] = [];
      const image = siteImageResolver(source);
      const text = await includeFiles(await fs.readFile(path.join(dir, `${slug}.md`), "utf8"), source, repoRoot);
      const rendered = renderMarkdown(text, siteLinkResolver(source, facts), (href) => {
        const onSite = image(href);
        images.push(onSite);
        return onSite;
      });
      if (!rendered.title) throw new GuideError(`${source}: no "# " title`);
      for (const file of images) {
        const exists = await fs.stat(path.join(dir, file)).then((stat) => stat.isFile(), () => false);
        if (!exists) throw new GuideError(`${source}: the picture ${file} is not in ${path.relative(repoRoot, dir) || dir}`);
      }
      return { slug, file: `${slug}.html`, source, title: rendered.title, summary: rendered.summary, html: rendered.html, headings: rendered.headings, images };
    }),
  );
}

/** A guide's page: its text, a list of its sections after the title, and the previous and next guides. */
export function renderGuidePage(guide: Guide, guides: readonly Guide[], site: SiteNav): string {
  const at = guides.indexOf(guide);
  const sections = guide.headings.filter((heading) => heading.depth === 2);
  const contents =
    sections.length >= 3
      ? `<nav class="contents" aria-label="On this page"><strong>On this page</strong><ul>${sections
          .map((heading) => `<li><a href="#${escapeHtml(heading.id)}">${escapeHtml(heading.text)}</a></li>`)
          .join("")}</ul></nav>\n`
      : "";
  const titleEnd = guide.html.indexOf("</h1>") + "</h1>".length;
  const pager = [guides[at - 1], guides[at + 1]]
    .map((other, index) => (other ? `<a href="${other.file}" rel="${index ? "next" : "prev"}">${index ? "Next" : "Previous"}: ${escapeHtml(other.title)}</a>` : "<span></span>"))
    .join("");
  const body = `${guide.html.slice(0, titleEnd)}\n${contents}${guide.html.slice(titleEnd)}<nav class="pager" aria-label="Guides">${pager}</nav>`;
  return renderPage({ active: guide.file, title: guide.title, body, site });
}

/**
 * The benchmarks page: docs/benchmarks.md as `npm run bench` last wrote it, or, without that file,
 * a page saying how to make it. Figures are never typed into the guides.
 */
export async function renderBenchmarksPage(repoRoot: string, facts: ReferenceFacts, site: SiteNav, file = path.join(repoRoot, BENCHMARKS_FILE)): Promise<string> {
  const text = await fs.readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw new GuideError(`${BENCHMARKS_FILE}: cannot read it (${error.code ?? error.message})`);
  });
  const body =
    text === undefined
      ? `<h1>Benchmarks</h1>
<p>No figures yet. <code>npm run bench</code> measures the mock beside Prism's own mock and a bare Node server, in one run,
and writes <code>${escapeHtml(BENCHMARKS_FILE.split(path.sep).join("/"))}</code>; the next <code>npm run docs</code> shows it here. The figures come
from that run only: compare the ratios it prints, not absolute numbers from another machine.</p>`
      : renderMarkdown(text, siteLinkResolver(BENCHMARKS_FILE, facts)).html;
  return renderPage({ active: "benchmarks.html", title: "Benchmarks", body, site });
}
