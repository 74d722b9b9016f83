// The API reference: Redoc through `redocly build-docs --inlineBundle`, then made fully offline and
// given the site's nav.
import { createRequire } from "node:module";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { injectNav, NAV_HEIGHT_PX } from "./layout.js";
import { runNode } from "./run-tool.js";

const require = createRequire(import.meta.url);

function redoclyBin(): string {
  const manifest = require.resolve("@redocly/cli/package.json");
  const bin = (require(manifest) as { bin: Record<string, string> }).bin.redocly;
  return path.join(path.dirname(manifest), bin);
}

/**
 * Redoc's sidebar footer ("API docs by Redocly") loads its logo from cdn.redoc.ly once the page
 * runs; the same logo, inline, keeps the page from reaching another host. Each replacement must
 * apply: a Redoc upgrade that moves these strings fails the build instead of going online.
 */
const REDOCLY_LOGO =
  "data:image/svg+xml," +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" width="90" height="20" viewBox="0 0 90 20"><text x="0" y="15" font-family="sans-serif" font-size="14" fill="#5d6678">Redocly</text></svg>',
  );
const OFFLINE_REPLACEMENTS: Array<[string, string]> = [
  ["https://cdn.redoc.ly/redoc/logo-mini-full.svg", REDOCLY_LOGO],
  ["https://cdn.redoc.ly/redoc/logo-mini.svg", REDOCLY_LOGO],
];

/**
 * Redoc prerenders its sidebar's links as root paths (href="/section/scope") while its script, which
 * routes by the hash, writes and follows "#/section/scope": a prerendered link opened in a new tab,
 * or copied, was a 404 (or the site's root). The prerendered links are written as the script writes
 * them, so any link of the reference opens its section wherever the page is served from.
 */
const PRERENDERED_ROUTE = /href="\/([^"]*)"(?= data-discover="true")/g;

/** Pure: the redocly output made offline, with telemetry checked off, hash links, the site nav and the console's loader script (scripts/docs/api-console.ts) added. */
export function finishApiReference(html: string, nav: string, loader = ""): string {
  if (html.search(PRERENDERED_ROUTE) < 0) throw new Error('Redoc output no longer prerenders its menu links as href="/…" data-discover="true"; check how they open in a new tab');
  if (/"router":"history"/.test(html)) throw new Error("Redoc is set to route by the path (router: history), which the site's hash links do not follow");
  let result = html.replace(PRERENDERED_ROUTE, 'href="#/$1"');
  for (const [from, to] of OFFLINE_REPLACEMENTS) {
    if (!result.includes(from)) throw new Error(`Redoc output no longer contains ${from}; check the page for requests to other hosts`);
    result = result.split(from).join(to);
  }
  if (!result.includes('"disableTelemetry":true')) {
    throw new Error("Redoc output does not disable its browser telemetry (REDOCLY_TELEMETRY=off or telemetry: off in redocly.yaml)");
  }
  if (/<(link|script)[^>]+(href|src)="https?:/i.test(result)) throw new Error("Redoc output links an external stylesheet or script");
  if (loader) {
    const bodyEnd = result.lastIndexOf("</body>");
    if (bodyEnd < 0) throw new Error("Redoc output has no </body> to add the console's loader before");
    result = `${result.slice(0, bodyEnd)}<script>${loader.replace(/<\/(script)/gi, "<\\/$1")}</script>\n${result.slice(bodyEnd)}`;
  }
  // Redoc sizes its sticky sidebar below a navbar of this height.
  return injectNav(result, nav, `:root{--navbar-stack-height:${NAV_HEIGHT_PX}px;}`);
}

/** Renders `document` (the bundled OpenAPI, with its code samples) as the reference page. */
export async function buildApiReference({ document, outFile, cwd, nav, loader }: { document: unknown; outFile: string; cwd: string; nav: string; loader: Promise<string> }): Promise<void> {
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), "docs-redoc-"));
  try {
    const rawFile = path.join(tmp, "api.html");
    const specPath = path.join(tmp, "openapi.json");
    await fs.writeFile(specPath, JSON.stringify(document));
    await runNode([redoclyBin(), "build-docs", specPath, "--inlineBundle", "--output", rawFile], {
      cwd,
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
    }).catch((error: Error) => {
      throw new Error(`redocly build-docs failed: ${error.message}`);
    });
    const html = await fs.readFile(rawFile, "utf8");
    await fs.writeFile(outFile, finishApiReference(html, nav, await loader));
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
}
