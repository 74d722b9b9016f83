// The pages of the site and the frame they share: one small nav with relative links, so the site
// works opened from the file system and served under /docs/ by the mock.
import { escapeHtml } from "./html.js";

export const PAGES = [
  { id: "index", file: "index.html", label: "Home" },
  { id: "api", file: "api.html", label: "API reference" },
  { id: "events", file: "events.html", label: "Events" },
  { id: "assumptions", file: "assumptions.html", label: "Assumptions" },
  { id: "keys", file: "keys.html", label: "Demo keys" },
  { id: "changelog", file: "changelog.html", label: "Changelog" },
] as const;

export type PageId = (typeof PAGES)[number]["id"];

export const NAV_HEIGHT_PX = 44;

/** The nav's own styles, scoped under #site-nav so they hold inside Redoc's and AsyncAPI's pages. */
export const NAV_CSS = `
#site-nav{position:sticky;top:0;z-index:1000;box-sizing:border-box;height:${NAV_HEIGHT_PX}px;display:flex;align-items:center;gap:4px;
  padding:0 16px;background:#1f2a44;font:500 15px/1 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;}
#site-nav .site-name{color:#fff;font-weight:700;margin-right:16px;white-space:nowrap;}
#site-nav a{color:#d6def0;text-decoration:none;padding:8px 10px;border-radius:4px;white-space:nowrap;}
#site-nav a:hover{background:#2f3d5f;color:#fff;}
#site-nav a[aria-current="page"]{background:#fff;color:#1f2a44;}
`;

/** Styles of the hand-built pages (landing, assumptions, keys). */
export const PAGE_CSS = `
body{margin:0;color:#1d2433;background:#fafbfc;font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;}
main{max-width:1100px;margin:0 auto;padding:24px 24px 64px;}
h1{font-size:1.9rem;margin:.4em 0 .3em;}
h2{font-size:1.35rem;margin:1.6em 0 .5em;border-bottom:1px solid #dde2ea;padding-bottom:.2em;}
h3{font-size:1.1rem;margin:1.2em 0 .4em;}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em;}
code{background:#eef1f6;padding:1px 4px;border-radius:3px;}
pre{background:#1f2a44;color:#e8edf7;padding:12px 14px;border-radius:6px;overflow-x:auto;}
pre code{background:none;padding:0;color:inherit;}
tr.breaking td:first-child{color:#a3201a;font-weight:600;}
table{border-collapse:collapse;width:100%;margin:.5em 0 1em;background:#fff;}
th,td{border:1px solid #dde2ea;padding:6px 10px;text-align:left;vertical-align:top;}
th{background:#eef1f6;}
.lead{font-size:1.1rem;color:#3a4458;}
.muted{color:#5d6678;font-size:.92em;}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(420px,1fr));gap:14px;}
.card{background:#fff;border:1px solid #dde2ea;border-radius:8px;padding:4px 16px 12px;}
ul.where{margin:0;padding-left:1.1em;}
`;

export function renderNav(active: PageId | undefined): string {
  const links = PAGES.map((page) => {
    const current = page.id === active ? ' aria-current="page"' : "";
    return `<a href="${page.file}"${current}>${escapeHtml(page.label)}</a>`;
  }).join("");
  return `<nav id="site-nav" aria-label="Site"><span class="site-name">HR service contract</span>${links}</nav>`;
}

/** A whole hand-built page: nav, then the body, with only inline styles (no external assets). */
export function renderPage({ active, title, body }: { active: PageId; title: string; body: string }): string {
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
${renderNav(active)}
<main>
${body}
</main>
</body>
</html>
`;
}

/**
 * Puts the nav (and its styles) into a page another tool rendered: styles at the end of <head>, the
 * nav first in <body>. Throws when the page has no <head> or <body>, so a changed tool output is
 * noticed at build time rather than shipping a page without navigation.
 */
export function injectNav(html: string, active: PageId, extraCss = ""): string {
  const headEnd = html.indexOf("</head>");
  const bodyPattern = /<body[^>]*>/g;
  bodyPattern.lastIndex = Math.max(headEnd, 0);
  const bodyStart = bodyPattern.exec(html);
  if (headEnd < 0 || !bodyStart) throw new Error(`cannot add the nav to ${active}: the page has no <head> or <body>`);
  // Without an icon link Chromium asks the server for /favicon.ico, a 404 under /docs.
  const icon = /<link[^>]+rel="(shortcut )?icon"/i.test(html.slice(0, headEnd)) ? "" : '<link rel="icon" href="data:,">\n';
  const withNav =
    html.slice(0, bodyStart.index + bodyStart[0].length) + "\n" + renderNav(active) + html.slice(bodyStart.index + bodyStart[0].length);
  return withNav.slice(0, headEnd) + `${icon}<style>${NAV_CSS}${extraCss}</style>\n` + withNav.slice(headEnd);
}
