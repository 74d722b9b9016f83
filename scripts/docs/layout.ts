// The pages of the site and the frame they share: one nav of plain relative links, so the site works
// offline, opened from the file system and served under /docs/ by the mock, with no script. Wide
// screens show the pages in a row and the guides in a <details> list; narrow ones one <details> menu
// holding both. The reference pages (Redoc's, AsyncAPI's) get the same nav injected.
import { escapeHtml } from "./html.js";

/** The pages built from the specs and the mock's code; the guides come from docs/guides/. */
export const PAGES = [
  { id: "index", file: "index.html", label: "Home" },
  { id: "api", file: "api.html", label: "API reference" },
  { id: "events", file: "events.html", label: "Events" },
  { id: "assumptions", file: "assumptions.html", label: "Assumptions" },
  { id: "keys", file: "keys.html", label: "Demo keys" },
  { id: "changelog", file: "changelog.html", label: "Changelog" },
  { id: "benchmarks", file: "benchmarks.html", label: "Benchmarks" },
] as const;

export type PageId = (typeof PAGES)[number]["id"];

/** A guide as the nav lists it. */
export interface NavGuide {
  file: string;
  title: string;
}

/** What the nav of every page lists beside PAGES. */
export interface SiteNav {
  guides: readonly NavGuide[];
}

export const NAV_HEIGHT_PX = 44;
/** Below this width the nav folds into one menu. */
const FOLD_PX = 940;

/**
 * The nav's own styles, scoped under #site-nav and setting every property the host pages' styles
 * (Redoc's, Tailwind's reset in AsyncAPI's) could change, so the nav looks the same on every page.
 */
export const NAV_CSS = `
#site-nav{position:sticky;top:0;z-index:1000;box-sizing:border-box;height:${NAV_HEIGHT_PX}px;display:flex;align-items:center;gap:4px;
  padding:0 12px;background:#1f2a44;font:500 15px/1.2 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;text-align:left;}
#site-nav *{box-sizing:border-box;}
#site-nav a{color:#d6def0;text-decoration:none;padding:8px 10px;border-radius:4px;white-space:nowrap;display:inline-block;}
#site-nav a:hover,#site-nav a:focus-visible{background:#2f3d5f;color:#fff;}
#site-nav a[aria-current="page"]{background:#fff;color:#1f2a44;}
#site-nav .site-name{color:#fff;font-weight:700;margin-right:8px;}
#site-nav .site-links{display:flex;align-items:center;gap:4px;min-width:0;}
#site-nav details{position:relative;margin:0;}
#site-nav summary{display:block;list-style:none;cursor:pointer;color:#d6def0;padding:8px 10px;border-radius:4px;white-space:nowrap;}
#site-nav summary::-webkit-details-marker{display:none;}
#site-nav summary::after{content:" ▾";}
#site-nav details[open]>summary,#site-nav summary:hover{background:#2f3d5f;color:#fff;}
#site-nav summary.current{box-shadow:inset 0 -3px 0 #fff;}
#site-nav .panel{position:absolute;top:calc(100% + 6px);left:0;min-width:320px;max-width:calc(100vw - 24px);max-height:calc(100vh - ${NAV_HEIGHT_PX + 16}px);
  overflow-y:auto;background:#1f2a44;border-radius:6px;padding:6px;box-shadow:0 6px 18px rgba(0,0,0,.3);}
#site-nav .panel p{margin:8px 10px 4px;color:#9fb0d4;font-size:12px;text-transform:uppercase;letter-spacing:.05em;}
#site-nav ul{list-style:none;margin:0;padding:0;}
#site-nav li{margin:0;padding:0;}
#site-nav .panel a{display:block;white-space:normal;}
#site-nav .site-menu{display:none;margin-left:auto;}
#site-nav .site-menu .panel{left:auto;right:0;width:min(360px,calc(100vw - 24px));min-width:0;}
@media (max-width:${FOLD_PX}px){
  #site-nav .site-links{display:none;}
  #site-nav .site-menu{display:block;}
}
`;

/** Styles of the hand-built and Markdown pages: every block fits the width, down to a phone's. */
export const PAGE_CSS = `
body{margin:0;color:#1d2433;background:#fafbfc;font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;}
main{max-width:1100px;margin:0 auto;padding:24px 24px 64px;overflow-wrap:break-word;}
h1{font-size:1.9rem;line-height:1.25;margin:.4em 0 .3em;}
h2{font-size:1.35rem;margin:1.6em 0 .5em;border-bottom:1px solid #dde2ea;padding-bottom:.2em;}
h3{font-size:1.1rem;margin:1.2em 0 .4em;}
a{color:#1f5fbf;}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em;}
code{background:#eef1f6;padding:1px 4px;border-radius:3px;overflow-wrap:anywhere;}
pre{background:#1f2a44;color:#e8edf7;padding:12px 14px;border-radius:6px;white-space:pre-wrap;overflow-wrap:anywhere;}
pre code{background:none;padding:0;color:inherit;font-size:1em;}
tr.breaking td:first-child{color:#a3201a;font-weight:600;}
table{border-collapse:collapse;width:100%;margin:.5em 0 1em;background:#fff;}
th,td{border:1px solid #dde2ea;padding:6px 10px;text-align:left;vertical-align:top;overflow-wrap:anywhere;}
th{background:#eef1f6;}
img{max-width:100%;height:auto;}
blockquote{margin:1em 0;padding:.2em 1em;border-left:4px solid #dde2ea;color:#3a4458;}
.lead{font-size:1.1rem;color:#3a4458;}
.muted{color:#5d6678;font-size:.92em;}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,420px),1fr));gap:14px;}
.card{background:#fff;border:1px solid #dde2ea;border-radius:8px;padding:4px 16px 12px;min-width:0;}
.wide-cards{grid-template-columns:1fr;}
ul.where{margin:0;padding-left:1.1em;}
nav.contents{background:#fff;border:1px solid #dde2ea;border-radius:8px;padding:4px 16px 8px;margin:1em 0;}
nav.contents ul{margin:.3em 0;padding-left:1.1em;}
nav.pager{display:flex;justify-content:space-between;gap:16px;margin-top:3em;border-top:1px solid #dde2ea;padding-top:1em;}
@media (max-width:600px){
  main{padding:16px 14px 48px;}
  h1{font-size:1.5rem;}
  th,td{padding:4px 6px;}
  table{font-size:.9em;}
  /* Tables of many columns become one card per row: each cell on its own line, the first in bold. */
  table.stack,table.stack tbody,table.stack tr,table.stack td{display:block;width:auto;}
  table.stack thead{display:none;}
  table.stack{background:none;}
  table.stack tr{background:#fff;border:1px solid #dde2ea;border-radius:6px;margin:0 0 10px;padding:4px 0;}
  table.stack td{border:none;padding:2px 10px;}
  table.stack td:first-child{font-weight:600;}
}
`;

function link(file: string, label: string, active: string): string {
  const current = file === active ? ' aria-current="page"' : "";
  return `<a href="${escapeHtml(file)}"${current}>${escapeHtml(label)}</a>`;
}

const list = (items: string[]) => `<ul>${items.map((item) => `<li>${item}</li>`).join("")}</ul>`;

/** The nav; `active` is the file of the page it sits on. */
export function renderNav(active: string, site: SiteNav): string {
  const guideLinks = site.guides.map((guide) => link(guide.file, guide.title, active));
  const onGuide = site.guides.some((guide) => guide.file === active);
  const pageLinks = PAGES.filter((page) => page.id !== "index").map((page) => link(page.file, page.label, active));
  const guides = `<details class="site-guides"><summary${onGuide ? ' class="current"' : ""}>Guides</summary><div class="panel">${list(guideLinks)}</div></details>`;
  const menu = `<details class="site-menu"><summary>Menu</summary><div class="panel"><p>Pages</p>${list([
    link("index.html", "Home", active),
    ...pageLinks,
  ])}<p>Guides</p>${list(guideLinks)}</div></details>`;
  return `<nav id="site-nav" aria-label="Site"><a class="site-name" href="index.html">HR service contract</a><div class="site-links">${guides}${pageLinks.join("")}</div>${menu}</nav>`;
}

/** A whole hand-built page: nav, then the body, with only inline styles (no external assets). */
export function renderPage({ active, title, body, site }: { active: string; title: string; body: string; site: SiteNav }): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · HR service contract</title>
<link rel="icon" href="data:,">
<style>${NAV_CSS}${PAGE_CSS}</style>
</head>
<body>
${renderNav(active, site)}
<main>
${body}
</main>
</body>
</html>
`;
}

/**
 * Puts a nav (and its styles) into a page another tool rendered: styles at the end of <head>, the
 * nav first in <body>. Throws when the page has no <head> or <body>, so a changed tool output is
 * noticed at build time rather than shipping a page without navigation.
 */
export function injectNav(html: string, nav: string, extraCss = ""): string {
  const headEnd = html.indexOf("</head>");
  const bodyPattern = /<body[^>]*>/g;
  bodyPattern.lastIndex = Math.max(headEnd, 0);
  const bodyStart = bodyPattern.exec(html);
  if (headEnd < 0 || !bodyStart) throw new Error("cannot add the nav: the page has no <head> or <body>");
  // Without an icon link Chromium asks the server for /favicon.ico, a 404 under /docs.
  const icon = /<link[^>]+rel="(shortcut )?icon"/i.test(html.slice(0, headEnd)) ? "" : '<link rel="icon" href="data:,">\n';
  const withNav = html.slice(0, bodyStart.index + bodyStart[0].length) + "\n" + nav + html.slice(bodyStart.index + bodyStart[0].length);
  return withNav.slice(0, headEnd) + `${icon}<style>${NAV_CSS}${extraCss}</style>\n` + withNav.slice(headEnd);
}
